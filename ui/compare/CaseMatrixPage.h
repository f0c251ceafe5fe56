#pragma once

#include "eval/RunAnalysis.h"

#include <QWidget>
#include <memory>

class QComboBox;
class QPushButton;
class QTableView;

namespace sf {

class CaseDetailDialog;
class CaseMatrixFilter;
class CaseMatrixModel;

/// Compare's "Case matrix" tab: every case by model and arm (CaseMatrixModel), flipped cases first, with filters
/// (failures, flipped, errors, held-out, silent bypasses) and Copy as CSV (also Ctrl+C). A click on a case opens its
/// transcripts without and with the skill side by side (CaseDetailDialog).
class CaseMatrixPage final : public QWidget
{
    Q_OBJECT

public:
    explicit CaseMatrixPage(QWidget *parent = nullptr);

    /// Shows the cases of @p run (null: none) over @p splits ("all", or "train" and/or "heldout").
    void showRun(const std::shared_ptr<const RunAnalysis> &run, const QStringList &splits);
    /// Colours the cells again (the palette changed).
    void refreshColours();
    /// Opens the transcripts of the cell at @p index of the shown (filtered) table.
    void openCell(const QModelIndex &index);
    /// The matrix as shown (filter and order) as CSV; also what Ctrl+C copies.
    QString csv() const;

    CaseMatrixModel *model() const { return m_matrix; }
    CaseMatrixFilter *filter() const { return m_filter; }
    QTableView *view() const { return m_view; }
    QComboBox *filterCombo() const { return m_filterCombo; }
    CaseDetailDialog *detailDialog() const { return m_detail; }

Q_SIGNALS:
    /// The case detail asks for a CLI session in the Trace view.
    void traceRequested(const QString &path);

private:
    std::shared_ptr<const RunAnalysis> m_run;
    CaseMatrixModel *m_matrix;
    CaseMatrixFilter *m_filter;
    QTableView *m_view;
    QComboBox *m_filterCombo;
    QPushButton *m_copyButton;
    CaseDetailDialog *m_detail;
};

} // namespace sf
