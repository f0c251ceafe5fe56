#include "trace/TraceTimelineModel.h"

#include "common/Plural.h"

#include <QLocale>

namespace sf {

using namespace Qt::StringLiterals;

namespace {

// internalId packs the thread (high bits) and the step + 1 (low 40 bits; 0 means the header row).
constexpr int StepBits = 40;
constexpr quintptr StepMask = (quintptr(1) << StepBits) - 1;

/// The start of @p text on one line; only that start is converted, however long the text.
QString oneLine(TraceText text, qsizetype limit = 300)
{
    QString line = text.left(limit + 1);
    const bool cut = line.size() > limit;
    line.truncate(limit);
    line.replace(u'\n', u" ⏎ "_s);
    line.replace(u'\t', u' ');
    return cut ? line + u'…' : line;
}

} // namespace

QString shortCount(qint64 value)
{
    if (value < 1000)
        return QString::number(value);
    if (value < 1000000)
        return QString::number(double(value) / 1000.0, 'f', value < 10000 ? 1 : 0) + u'k';
    return QString::number(double(value) / 1000000.0, 'f', value < 10000000 ? 2 : 1) + u'M';
}

TraceTimelineModel::TraceTimelineModel(QObject *parent)
    : QAbstractItemModel(parent)
{
}

void TraceTimelineModel::setTrace(std::shared_ptr<const Trace> trace)
{
    beginResetModel();
    m_trace = std::move(trace);
    m_kept.clear();
    m_rootThreads.clear();
    m_running.clear();
    m_order.clear();
    m_cost = {};
    if (m_trace) {
        m_cost = TraceCost::of(*m_trace);
        for (int t = 0; t < int(m_trace->threads.size()); ++t) {
            const TraceThread &thread = m_trace->threads[size_t(t)];
            if (thread.parentStep < 0 || thread.parentThread < 0)
                m_rootThreads.push_back(t);
            std::vector<qint64> running;
            running.reserve(thread.turns.size());
            qint64 total = 0;
            for (const TraceTurn &turn : thread.turns) {
                if (turn.usage)
                    total += turn.usage->totalInput() + turn.usage->output;
                running.push_back(total);
            }
            m_running.push_back(std::move(running));
        }
        m_headers = m_rootThreads.size() > 1;
        m_order.reserve(size_t(m_trace->stepCount()));
        // Depth first, iteratively: a subagent's steps right after the call that spawned it.
        std::vector<std::pair<int, int>> stack;
        for (auto it = m_rootThreads.rbegin(); it != m_rootThreads.rend(); ++it)
            stack.emplace_back(*it, 0);
        while (!stack.empty()) {
            auto &[t, s] = stack.back();
            const TraceThread &thread = m_trace->threads[size_t(t)];
            if (s >= int(thread.steps.size())) {
                stack.pop_back();
                continue;
            }
            const int step = s++;
            const int thisThread = t;
            m_order.emplace_back(thisThread, step);
            const int child = thread.steps[size_t(step)].childThread;
            if (child > 0 && child < int(m_trace->threads.size()))
                stack.emplace_back(child, 0);
        }
    }
    endResetModel();
}

void TraceTimelineModel::setThinkingExpanded(bool expanded)
{
    if (expanded == m_thinkingExpanded)
        return;
    m_thinkingExpanded = expanded;
    // Texts are produced on demand, so telling the views to repaint is enough.
    Q_EMIT layoutAboutToBeChanged();
    Q_EMIT layoutChanged();
}

namespace {

quint64 keyOf(int thread, int step)
{
    return (quint64(quint32(thread)) << 32) | quint32(step);
}

} // namespace

void TraceTimelineModel::setKeptSteps(const std::vector<std::pair<int, int>> &steps)
{
    QSet<quint64> kept;
    for (const auto &[thread, step] : steps)
        kept.insert(keyOf(thread, step));
    // Only the rows whose mark changes are repainted.
    const QSet<quint64> changed = (kept - m_kept) + (m_kept - kept);
    m_kept = kept;
    for (const quint64 key : changed) {
        const QModelIndex row = indexFor(int(key >> 32), int(key & 0xffffffffu), StepColumn);
        if (row.isValid())
            Q_EMIT dataChanged(row, row, {KeptRole});
    }
}

bool TraceTimelineModel::isKept(int thread, int step) const
{
    return m_kept.contains(keyOf(thread, step));
}

qint64 TraceTimelineModel::runningTotal(int thread, int turn) const
{
    if (thread < 0 || thread >= int(m_running.size()) || turn < 0 || turn >= int(m_running[size_t(thread)].size()))
        return 0;
    return m_running[size_t(thread)][size_t(turn)];
}

TraceTimelineModel::Ref TraceTimelineModel::refOf(const QModelIndex &index) const
{
    if (!index.isValid())
        return {};
    const quintptr id = index.internalId();
    return {int(id >> StepBits), int(id & StepMask) - 1};
}

QModelIndex TraceTimelineModel::makeIndex(int row, int column, Ref ref) const
{
    return createIndex(row, column, (quintptr(ref.thread) << StepBits) | quintptr(ref.step + 1));
}

int TraceTimelineModel::childThreadOf(Ref ref) const
{
    if (!m_trace || ref.thread < 0)
        return -1;
    if (ref.step < 0)
        return ref.thread;
    const int child = m_trace->threads[size_t(ref.thread)].steps[size_t(ref.step)].childThread;
    return child > 0 && child < int(m_trace->threads.size()) ? child : -1;
}

QModelIndex TraceTimelineModel::indexFor(int thread, int step, int column) const
{
    if (!m_trace || thread < 0 || thread >= int(m_trace->threads.size()))
        return {};
    if (step < 0) {
        const auto it = std::find(m_rootThreads.begin(), m_rootThreads.end(), thread);
        return m_headers && it != m_rootThreads.end() ? makeIndex(int(it - m_rootThreads.begin()), column, {thread, -1})
                                                      : QModelIndex();
    }
    if (step >= int(m_trace->threads[size_t(thread)].steps.size()))
        return {};
    return makeIndex(step, column, {thread, step});
}

std::pair<int, int> TraceTimelineModel::stepAt(int row, const QModelIndex &parent) const
{
    if (!parent.isValid())
        return m_headers ? std::make_pair(m_rootThreads[size_t(row)], -1) : std::make_pair(0, row);
    return {childThreadOf(refOf(parent)), row};
}

QModelIndex TraceTimelineModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!m_trace || row < 0 || column < 0 || column >= ColumnCount || parent.column() > 0)
        return {};
    if (!parent.isValid()) {
        if (m_headers)
            return row < int(m_rootThreads.size()) ? makeIndex(row, column, {m_rootThreads[size_t(row)], -1})
                                                   : QModelIndex();
        if (m_trace->threads.empty() || row >= int(m_trace->threads[0].steps.size()))
            return {};
        return makeIndex(row, column, {0, row});
    }
    const int child = childThreadOf(refOf(parent));
    if (child < 0 || row >= int(m_trace->threads[size_t(child)].steps.size()))
        return {};
    return makeIndex(row, column, {child, row});
}

QModelIndex TraceTimelineModel::parent(const QModelIndex &child) const
{
    const Ref ref = refOf(child);
    if (!m_trace || ref.thread < 0 || ref.step < 0)
        return {};
    const TraceThread &thread = m_trace->threads[size_t(ref.thread)];
    const bool isRoot = thread.parentStep < 0 || thread.parentThread < 0;
    if (isRoot)
        return m_headers ? indexFor(ref.thread, -1) : QModelIndex();
    return makeIndex(thread.parentStep, 0, {thread.parentThread, thread.parentStep});
}

int TraceTimelineModel::rowCount(const QModelIndex &parent) const
{
    if (!m_trace || parent.column() > 0)
        return 0;
    if (!parent.isValid())
        return m_headers ? int(m_rootThreads.size())
                         : (m_trace->threads.empty() ? 0 : int(m_trace->threads[0].steps.size()));
    const int child = childThreadOf(refOf(parent));
    return child < 0 ? 0 : int(m_trace->threads[size_t(child)].steps.size());
}

bool TraceTimelineModel::hasChildren(const QModelIndex &parent) const
{
    return rowCount(parent) > 0;
}

int TraceTimelineModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QString TraceTimelineModel::stepSummary(const TraceStep &step) const
{
    switch (step.kind) {
    case StepKind::ToolCall:
        return step.toolName.toString() + u"  "_s + oneLine(step.input, 200);
    case StepKind::ToolResult:
        return (step.toolName.isEmpty() ? QString() : step.toolName.toString() + u" → "_s) + oneLine(step.text);
    case StepKind::Thinking:
        return m_thinkingExpanded ? oneLine(step.text)
                                  : plural(step.text.characterCount(), tr("Thinking (1 character, folded)"), tr("Thinking (%n characters, folded)"));
    case StepKind::Image:
        return tr("[image: %1]").arg(step.text.toString());
    default:
        return oneLine(step.text);
    }
}

QVariant TraceTimelineModel::data(const QModelIndex &index, int role) const
{
    const Ref ref = refOf(index);
    if (!m_trace || ref.thread < 0 || ref.thread >= int(m_trace->threads.size()))
        return {};
    const TraceThread &thread = m_trace->threads[size_t(ref.thread)];
    if (role == ThreadRole)
        return ref.thread;
    if (role == StepRole)
        return ref.step;
    if (ref.step < 0) {
        if (role == KindRole)
            return -1;
        if (role == Qt::DisplayRole && index.column() == StepColumn)
            return plural(thread.steps.size(), tr("%1 — 1 step"), tr("%1 — %n steps"))
                .arg(thread.title.isEmpty() ? thread.id : thread.title);
        return {};
    }
    const TraceStep &step = thread.steps[size_t(ref.step)];
    const TraceTurn *turn =
        step.turn >= 0 && step.turn < int(thread.turns.size()) ? &thread.turns[size_t(step.turn)] : nullptr;
    const bool firstOfTurn = turn && turn->firstStep == ref.step;
    switch (role) {
    case KindRole:
        return int(step.kind);
    case ErrorRole:
        return step.isError;
    case ToolNameRole:
        return step.toolName.toString();
    case FullTextRole:
        return (step.kind == StepKind::ToolCall ? step.input : step.text).toString();
    case KeptRole:
        return isKept(ref.thread, ref.step);
    case Qt::ToolTipRole:
        if (index.column() == TokensColumn && firstOfTurn && turn->usage) {
            const QLocale locale;
            const TokenUsage &u = *turn->usage;
            return tr("Uncached input %1\nCache read %2\nCache write 5m %3\nCache write 1h %4\nOutput %5 "
                      "(reasoning %6)")
                .arg(locale.toString(u.uncachedInput), locale.toString(u.cacheRead), locale.toString(u.cacheWrite5m),
                     locale.toString(u.cacheWrite1h), locale.toString(u.output), locale.toString(u.reasoning));
        }
        if ((index.column() == CostColumn || index.column() == TotalCostColumn) && firstOfTurn && turn->usage) {
            if (!m_cost.turn(ref.thread, step.turn))
                return tr("No price for model \"%1\" in the pricing table: this turn's cost is not known and not "
                          "counted")
                    .arg(turn->model);
            return tr("Priced as %1").arg(m_cost.priceSource(ref.thread, step.turn));
        }
        if (index.column() == StepColumn && (step.line > 0 || isKept(ref.thread, ref.step))) {
            QStringList tip;
            if (isKept(ref.thread, ref.step))
                tip << tr("Kept for skill generation");
            if (step.line > 0)
                tip << tr("Source line %1").arg(step.line);
            return tip.join(u'\n');
        }
        return {};
    case Qt::DisplayRole:
        switch (index.column()) {
        case StepColumn:
            return stepSummary(step);
        case TokensColumn:
            if (firstOfTurn && turn->usage)
                return tr("in %1 · out %2").arg(shortCount(turn->usage->totalInput()), shortCount(turn->usage->output));
            return {};
        case TotalColumn:
            if (firstOfTurn && turn->usage)
                return shortCount(runningTotal(ref.thread, step.turn));
            return {};
        case CostColumn:
            if (firstOfTurn && turn->usage)
                if (const std::optional<double> usd = m_cost.turn(ref.thread, step.turn))
                    return formatUsd(*usd);
            return {};
        case TotalCostColumn:
            if (firstOfTurn && turn->usage)
                if (const std::optional<double> usd = m_cost.runningTotal(ref.thread, step.turn))
                    return formatUsd(*usd);
            return {};
        case ModelColumn:
            return firstOfTurn ? turn->model : QString();
        }
        return {};
    default:
        return {};
    }
}

QVariant TraceTimelineModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case StepColumn:
        return tr("Step");
    case TokensColumn:
        return tr("Tokens");
    case TotalColumn:
        return tr("Running total");
    case CostColumn:
        return tr("Cost");
    case TotalCostColumn:
        return tr("Cost so far");
    case ModelColumn:
        return tr("Model");
    }
    return {};
}

} // namespace sf
