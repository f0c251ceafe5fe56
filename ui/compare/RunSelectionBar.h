#pragma once

#include "common/RunList.h"

#include <QWidget>

class QComboBox;
class QPushButton;

namespace sf {

/// Compare's toolbar: the run shown, a second run to show beside it (any run but the first), which cases count, and
/// Export Report…. Runs are listed by name, newest first; a long name is elided in its box, whole in the list and in
/// its tooltip, so no name widens the window.
class RunSelectionBar final : public QWidget
{
    Q_OBJECT

public:
    enum class Split
    {
        All,
        Train,
        HeldOut,
        Apart
    };

    explicit RunSelectionBar(QWidget *parent = nullptr);

    /// Lists @p runs (newest first), keeping the chosen runs where they are still listed; emits nothing.
    void setRuns(const QList<RunListEntry> &runs);
    const QList<RunListEntry> &runs() const { return m_runs; }
    /// The name @p dir is listed under, or "".
    QString nameOf(const QString &dir) const;

    /// The chosen run's folder, and the compared one's ("" for none).
    QString run() const;
    QString comparedRun() const;
    /// Chooses both ("" for no second run; the run itself is no second run); emits selectionChanged() once.
    void select(const QString &run, const QString &comparedWith);

    /// Offers train and held-out apart only when the shown run has held-out cases; keeps the choice where it can.
    void setHeldOutAvailable(bool available);
    Split split() const;
    void setSplit(Split split);

    QComboBox *runCombo() const { return m_runCombo; }
    QComboBox *compareCombo() const { return m_compareCombo; }
    QComboBox *splitCombo() const { return m_splitCombo; }
    QPushButton *exportButton() const { return m_exportButton; }

Q_SIGNALS:
    /// The run or the compared run changed.
    void selectionChanged();
    void splitChanged();
    void exportRequested();

private:
    /// "Compare with" lists every run but the chosen one.
    void fillCompareCombo(const QString &select);

    QList<RunListEntry> m_runs;
    QComboBox *m_runCombo;
    QComboBox *m_compareCombo;
    QComboBox *m_splitCombo;
    QPushButton *m_exportButton;
};

} // namespace sf
