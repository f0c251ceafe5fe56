#pragma once

#include "eval/RunAnalysis.h"

#include <QAbstractTableModel>
#include <QSortFilterProxyModel>
#include <memory>

namespace sf {

/// A run's case matrix as a table: rows are cases, then one column per model and arm with the pass count over
/// repeats as text and a colour from failing to passing; errors are named in the cell. The first columns hold
/// the case, its split and its flips (from the run's summary, never recomputed). A with-skill cell whose judged
/// repeats never loaded the skill (an agent CLI or the agentic loop chose not to) is a silent bypass, marked ○ (◐ when
/// only some repeats skipped it): its outcome says nothing about the skill's content.
class CaseMatrixModel final : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Role
    {
        SortRole = Qt::UserRole + 1, ///< numbers sort as numbers; a cell without a judged repeat sorts lowest
        FlippedRole,
        FailureRole,
        ErrorRole,
        SplitRole, ///< "train" or "heldout"
        /// A cell: its judged repeats that never loaded the skill; the fixed columns: those of the whole row.
        SilentBypassRole,
    };
    enum FixedColumn
    {
        CaseNameColumn,
        SplitColumn,
        FlipsColumn,
        FirstCellColumn
    };

    explicit CaseMatrixModel(QObject *parent = nullptr);

    void setAnalysis(std::shared_ptr<const RunAnalysis> analysis);
    const RunAnalysis *analysis() const { return m_analysis.get(); }
    /// The matrix column behind table column @p column, or nullptr for the fixed columns.
    const CaseColumn *matrixColumn(int column) const;
    /// The cell behind @p index, or nullptr.
    const CaseCell *cellAt(const QModelIndex &index) const;
    /// Colours follow the palette: call after it changes.
    void refreshColours();

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString cellTooltip(const CaseRow &row, const CaseCell &cell, const CaseColumn &column) const;
    int silentBypasses(const CaseCell &cell) const;

    std::shared_ptr<const RunAnalysis> m_analysis;
};

/// Which cases of the matrix are shown; rows keep the source order unless sorted.
class CaseMatrixFilter final : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    enum class Show
    {
        All,
        Failures,
        Flipped,
        Errors,
        HeldOut,
        SilentBypass
    };

    explicit CaseMatrixFilter(QObject *parent = nullptr);
    void setShow(Show show);
    Show show() const { return m_show; }
    /// Only rows of these splits ("train", "heldout"); empty: every split.
    void setSplits(const QStringList &splits);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const override;

private:
    Show m_show = Show::All;
    QStringList m_splits;
};

/// The table as CSV: a header row, then the rows as @p model shows them (display text; fields quoted when needed).
QString tableToCsv(const QAbstractItemModel &model);

} // namespace sf
