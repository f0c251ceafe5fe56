#pragma once

#include "eval/RunAnalysis.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace sf {

class TwoPassRatesModel;

/// Compare's view of a run graded statement by statement (an imported skill-creator workspace): a sentence on why
/// Skillforge's case pass rate and skill-creator's statement pass rate differ, and both per model and arm
/// (TwoPassRatesModel). Hidden for runs without statements.
class TwoPassRatesPanel final : public QWidget
{
    Q_OBJECT

public:
    explicit TwoPassRatesPanel(QWidget *parent = nullptr);

    /// Shows the statement-graded arms of @p runs (named @p names, else by their labels) over @p splits; hides the
    /// panel when there are none.
    void setRuns(const QList<const RunAnalysis *> &runs, const QStringList &splits, const QStringList &names = {});

    TwoPassRatesModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }

private:
    QLabel *m_caption;
    TwoPassRatesModel *m_model;
    QTableView *m_view;
};

} // namespace sf
