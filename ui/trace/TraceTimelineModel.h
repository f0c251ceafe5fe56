#pragma once

#include "trace/Trace.h"
#include "trace/TraceCost.h"

#include <QAbstractItemModel>
#include <QSet>
#include <memory>

namespace sf {

/**
 * A trace as a tree for the timeline: the main thread's steps at the top level, each subagent's steps
 * under the tool call that spawned it, and, when a trace has several independent threads (inspect_ai
 * samples), one header row per thread. Texts are made only when a row is painted, so a million steps
 * cost no more than the trace itself.
 */
class TraceTimelineModel final : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Columns
    {
        StepColumn,
        TokensColumn,
        TotalColumn,
        CostColumn,      ///< the turn's cost by the pricing table; empty when its model has no price
        TotalCostColumn, ///< the priced turns' cost so far in the thread
        ModelColumn,
        ColumnCount
    };
    enum Roles
    {
        KindRole = Qt::UserRole + 1, ///< StepKind as int; -1 on a thread header
        ErrorRole,
        ThreadRole,
        StepRole, ///< -1 on a thread header
        ToolNameRole,
        FullTextRole, ///< the whole text, or a call's input, unfolded
        KeptRole      ///< true on a step kept for skill generation
    };

    explicit TraceTimelineModel(QObject *parent = nullptr);

    void setTrace(std::shared_ptr<const Trace> trace);
    const Trace *trace() const { return m_trace.get(); }
    std::shared_ptr<const Trace> sharedTrace() const { return m_trace; }

    /// Whether thinking shows its text in the timeline (folded by default).
    void setThinkingExpanded(bool expanded);
    bool thinkingExpanded() const { return m_thinkingExpanded; }

    /// The steps kept for skill generation (thread, step): marked in the timeline.
    void setKeptSteps(const std::vector<std::pair<int, int>> &steps);
    bool isKept(int thread, int step) const;

    QModelIndex indexFor(int thread, int step, int column = 0) const;
    /// The (thread, step) of row @p row under @p parent without building an index (step -1: a header).
    std::pair<int, int> stepAt(int row, const QModelIndex &parent) const;
    /// Every step in display order (depth first), for find and selection export.
    const std::vector<std::pair<int, int>> &displayOrder() const { return m_order; }
    /// The running total of tokens in the thread up to and including @p turn.
    qint64 runningTotal(int thread, int turn) const;
    /// The trace's cost by the pricing table, per turn and in total.
    const TraceCost &cost() const { return m_cost; }

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;

private:
    struct Ref
    {
        int thread = -1;
        int step = -1; ///< -1: the thread's header row
    };
    Ref refOf(const QModelIndex &index) const;
    QModelIndex makeIndex(int row, int column, Ref ref) const;
    /// The thread whose steps are the children of @p ref (-1 when none).
    int childThreadOf(Ref ref) const;
    QString stepSummary(const TraceStep &step) const;

    std::shared_ptr<const Trace> m_trace;
    std::vector<int> m_rootThreads; ///< threads without a spawning call
    bool m_headers = false;
    bool m_thinkingExpanded = false;
    std::vector<std::vector<qint64>> m_running; ///< per thread, per turn
    TraceCost m_cost;
    std::vector<std::pair<int, int>> m_order;
    QSet<quint64> m_kept; ///< thread << 32 | step
};

/// Compact token count: 950, 12.3k, 4.5M.
QString shortCount(qint64 value);

} // namespace sf
