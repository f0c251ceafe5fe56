#pragma once

#include "trace/Trace.h"
#include "trace/TraceCost.h"

#include <QJsonObject>

namespace sf {

/// Which steps of a trace to export: all, or a selection as (thread, step) pairs in trace order.
using StepSelection = std::vector<std::pair<int, int>>;

/// The trace (or the selected steps) as Markdown: one heading per turn, tool calls with their input as
/// fenced JSON, results fenced, thinking quoted. Subagent threads follow the main thread.
QString traceToMarkdown(const Trace &trace, const StepSelection &selection = {});

/// The main thread as OpenAI chat messages (tool calls with JSON-string arguments, tool messages).
QJsonArray traceToOpenAiMessages(const Trace &trace);

/// The trace as an ATIF trajectory (Harbor's Agent Trajectory Interchange Format, v1.4): the main thread's turns as
/// steps (tool results as the observation of the agent step that called them), subagent threads as embedded
/// trajectories that the delegating call's result references; usage as metrics, prompt_tokens counting cached input.
QJsonObject traceToAtif(const Trace &trace);

/// The figures `skillforge trace stats --json` prints, with the cost by the pricing table.
QJsonObject traceStatsJson(const Trace &trace, const TraceStats &stats, const TraceCost &cost);

/// Token usage as {uncached_input, cache_read, cache_write_5m, cache_write_1h, output, reasoning}.
QJsonObject usageJson(const TokenUsage &usage);

} // namespace sf
