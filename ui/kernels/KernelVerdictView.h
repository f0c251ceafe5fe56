#pragma once

#include "kernels/KernelVerdict.h"

#include <QWidget>

class QChart;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QTableWidget;
class QTabWidget;

namespace sf {

/**
 * Shows one kernel verdict: the status line, the candidate's source with compiler errors marked on
 * their lines, ptxas's resource table, correctness per shape and seed, the timing table, and a chart
 * of speedup over the baseline and fraction of the speed-of-light bound per shape.
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

private:
    void showSource(const KernelVerdict &verdict);
    void showResources(const KernelVerdict &verdict);
    void showCorrectness(const KernelVerdict &verdict);
    void showTiming(const KernelVerdict &verdict);

    QLabel *m_status;
    QTabWidget *m_tabs;
    QPlainTextEdit *m_source;
    QListWidget *m_diagnostics;
    QTableWidget *m_resources;
    QTableWidget *m_correctness;
    QTableWidget *m_timing;
    QChart *m_chart;
};

} // namespace sf
