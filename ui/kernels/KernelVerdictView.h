#pragma once

#include "kernels/KernelVerdict.h"

#include <QWidget>

class QChart;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QSplitter;
class QTableWidget;
class QTabWidget;

namespace sf {

/**
 * Shows one kernel verdict: the status line, the candidate's source with compiler errors marked on
 * their lines, ptxas's resource table, correctness per shape and seed, the timing table, and a chart
 * of speedup over the baseline and fraction of the speed-of-light bound per shape. A tab with nothing to show
 * says why (not checked yet, the build failed, no GPU here, failed correctness).
 */
class KernelVerdictView final : public QWidget
{
    Q_OBJECT

public:
    explicit KernelVerdictView(QWidget *parent = nullptr);

    void setVerdict(const KernelVerdict &verdict);
    /// A candidate opened but not checked yet: its source on the Source tab, and what Check will do.
    void showCandidate(const QString &name, const QString &source);
    void clear();

    QString statusText() const;
    QPlainTextEdit *sourceEditor() const { return m_source; }
    QListWidget *diagnosticsList() const { return m_diagnostics; }
    QTableWidget *resourceTable() const { return m_resources; }
    QTableWidget *correctnessTable() const { return m_correctness; }
    QTableWidget *timingTable() const { return m_timing; }
    QChart *chart() const { return m_chart; }
    QTabWidget *tabs() const { return m_tabs; }
    /// What an empty Resources, Correctness or Timing tab says in place of its table ("" while it shows one).
    QString resourcesNote() const { return emptyNote(m_resourcesNote); }
    QString correctnessNote() const { return emptyNote(m_correctnessNote); }
    QString timingNote() const { return emptyNote(m_timingNote); }

    /// Lines of source the Source tab keeps in view, however long the compiler's message list.
    static constexpr int MinSourceLines = 10;

private:
    void showSource(const KernelVerdict &verdict);
    void showResources(const KernelVerdict &verdict);
    void showCorrectness(const KernelVerdict &verdict);
    void showTiming(const KernelVerdict &verdict);
    void explainEmptyTabs(const KernelVerdict &verdict);
    /// Shows @p note (saying @p why) in place of its tab's table, or the table when @p why is "".
    static void setEmptyNote(QLabel *note, const QString &why);
    static QString emptyNote(const QLabel *note);

    QLabel *m_status;
    QTabWidget *m_tabs;
    QPlainTextEdit *m_source;
    QListWidget *m_diagnostics;
    QTableWidget *m_resources;
    QTableWidget *m_correctness;
    QTableWidget *m_timing;
    QLabel *m_resourcesNote;
    QLabel *m_correctnessNote;
    QLabel *m_timingNote;
    QSplitter *m_sourceSplit;
    QChart *m_chart;
};

} // namespace sf
