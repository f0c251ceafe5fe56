#include "trace/Trace.h"

#include <algorithm>
#include <array>

namespace sf {

namespace {

constexpr std::array<QLatin1StringView, StepKindCount> KindNames = {
    QLatin1StringView("user"),      QLatin1StringView("assistant"),   QLatin1StringView("thinking"),
    QLatin1StringView("tool_call"), QLatin1StringView("tool_result"), QLatin1StringView("image"),
    QLatin1StringView("system")};

} // namespace

QString stepKindName(StepKind kind)
{
    return KindNames[size_t(kind)];
}

std::optional<StepKind> stepKindFromName(const QString &name)
{
    for (size_t i = 0; i < KindNames.size(); ++i)
        if (name == KindNames[i])
            return StepKind(i);
    return std::nullopt;
}

void Trace::skip(qint64 line, const QString &reason)
{
    ++skippedCount;
    if (skipped.size() < size_t(MaxSkippedListed))
        skipped.push_back({line, reason});
}

qint64 Trace::stepCount() const
{
    qint64 n = 0;
    for (const TraceThread &thread : threads)
        n += qint64(thread.steps.size());
    return n;
}

qint64 Trace::turnCount() const
{
    qint64 n = 0;
    for (const TraceThread &thread : threads)
        n += qint64(thread.turns.size());
    return n;
}

TokenUsage Trace::totalUsage() const
{
    TokenUsage total;
    for (const TraceThread &thread : threads)
        for (const TraceTurn &turn : thread.turns)
            if (turn.usage)
                total += *turn.usage;
    return total;
}

TraceStats TraceStats::of(const Trace &trace)
{
    TraceStats stats;
    stats.threads = int(trace.threads.size());
    QHash<QString, qint64> tools;
    for (const TraceThread &thread : trace.threads) {
        stats.turns += qint64(thread.turns.size());
        stats.steps += qint64(thread.steps.size());
        for (const TraceStep &step : thread.steps) {
            ++stats.stepsByKind[size_t(step.kind)];
            if (step.kind == StepKind::ToolCall)
                ++tools[step.toolName];
            else if (step.kind == StepKind::ToolResult && step.isError)
                ++stats.toolErrors;
        }
        for (const TraceTurn &turn : thread.turns) {
            if (turn.usage) {
                stats.usage += *turn.usage;
                ++stats.assistantTurnsWithUsage;
            }
            if (!turn.model.isEmpty() && !stats.models.contains(turn.model))
                stats.models.append(turn.model);
            if (!turn.attributionSkill.isEmpty() && !stats.skills.contains(turn.attributionSkill))
                stats.skills.append(turn.attributionSkill);
        }
    }
    for (auto it = tools.cbegin(); it != tools.cend(); ++it)
        stats.toolCalls.append({it.key(), it.value()});
    std::sort(stats.toolCalls.begin(), stats.toolCalls.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    return stats;
}

} // namespace sf
