#include "trace/TraceFilterModel.h"

#include "trace/TraceTimelineModel.h"

namespace sf {

TraceFilterModel::TraceFilterModel(QObject *parent)
    : QSortFilterProxyModel(parent)
{
    m_kinds.set();
    setRecursiveFilteringEnabled(true);
}

void TraceFilterModel::setKindVisible(StepKind kind, bool visible)
{
    if (m_kinds.test(size_t(kind)) == visible)
        return;
    m_kinds.set(size_t(kind), visible);
    refilter();
}

void TraceFilterModel::setToolName(const QString &name)
{
    if (name == m_toolName)
        return;
    m_toolName = name;
    m_toolNameUtf8 = name.toUtf8();
    refilter();
}

void TraceFilterModel::refilter()
{
    // invalidateRowsFilter() removes each run of newly hidden rows separately, which is quadratic when a kind
    // is spread over a million rows; dropping the mapping and filtering again is linear.
    invalidate();
}

bool TraceFilterModel::acceptsStep(const TraceStep &step) const
{
    if (!m_kinds.test(size_t(step.kind)))
        return false;
    if (m_toolName.isEmpty())
        return true;
    return (step.kind == StepKind::ToolCall || step.kind == StepKind::ToolResult) &&
           step.toolName.bytes() == QByteArrayView(m_toolNameUtf8);
}

bool TraceFilterModel::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (m_kinds.all() && m_toolName.isEmpty())
        return true;
    // Called once per row, so for a million steps: no QModelIndex or QVariant on the way.
    const auto *timeline = static_cast<const TraceTimelineModel *>(sourceModel());
    const auto [thread, step] = timeline->stepAt(sourceRow, sourceParent);
    if (step < 0 || thread < 0)
        return true;
    return acceptsStep(timeline->trace()->threads[size_t(thread)].steps[size_t(step)]);
}

} // namespace sf
