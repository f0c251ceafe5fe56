#include "trace/TraceExport.h"

#include "common/MarkdownFence.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace sf {

using namespace Qt::StringLiterals;

namespace {

QString prettyJson(const QString &compact)
{
    const QJsonDocument doc = QJsonDocument::fromJson(compact.toUtf8());
    return doc.isNull() ? compact : QString::fromUtf8(doc.toJson(QJsonDocument::Indented)).trimmed();
}

void appendStep(QString &out, const TraceStep &step)
{
    switch (step.kind) {
    case StepKind::UserText:
    case StepKind::AssistantText:
        out += step.text.toString() + u"\n\n"_s;
        break;
    case StepKind::Thinking:
        out += u"> *Thinking:* "_s + step.text.toString().replace(u'\n', u"\n> "_s) + u"\n\n"_s;
        break;
    case StepKind::ToolCall:
        out += QStringLiteral("**Tool call `%1`** (%2)\n\n").arg(step.toolName.toString(), step.toolId.toString()) +
               fencedMarkdown(prettyJson(step.input.toString()), u"json"_s) + u'\n';
        break;
    case StepKind::ToolResult:
        out += QStringLiteral("**Tool result%1%2**\n\n")
                   .arg(step.toolName.isEmpty() ? QString() : QStringLiteral(" `%1`").arg(step.toolName.toString()),
                        step.isError ? u" (error)"_s : QString()) +
               fencedMarkdown(step.text.toString()) + u'\n';
        break;
    case StepKind::Image:
        out += QStringLiteral("*[image: %1]*\n\n").arg(step.text.toString());
        break;
    case StepKind::System:
        out += QStringLiteral("*%1%2*\n\n").arg(step.isError ? u"Error: "_s : QString(), step.text.toString());
        break;
    }
}

QString roleHeading(const TraceTurn &turn)
{
    QString heading = turn.role.isEmpty() ? u"Turn"_s : turn.role.at(0).toUpper() + turn.role.mid(1);
    if (!turn.model.isEmpty())
        heading += QStringLiteral(" (%1)").arg(turn.model);
    return heading;
}

} // namespace

QJsonObject usageJson(const TokenUsage &usage)
{
    return QJsonObject{{u"uncached_input"_s, usage.uncachedInput},
                       {u"cache_read"_s, usage.cacheRead},
                       {u"cache_write_5m"_s, usage.cacheWrite5m},
                       {u"cache_write_1h"_s, usage.cacheWrite1h},
                       {u"output"_s, usage.output},
                       {u"reasoning"_s, usage.reasoning}};
}

QString traceToMarkdown(const Trace &trace, const StepSelection &selection)
{
    QString out;
    if (selection.empty() && !trace.title.isEmpty())
        out += u"# "_s + trace.title + u"\n\n"_s;
    auto emitStep = [&](int threadIndex, int stepIndex, int *lastThread, int *lastTurn) {
        const TraceThread &thread = trace.threads[size_t(threadIndex)];
        const TraceStep &step = thread.steps[size_t(stepIndex)];
        if (threadIndex != *lastThread) {
            if (trace.threads.size() > 1)
                out += QStringLiteral("## %1\n\n").arg(thread.title.isEmpty() ? thread.id : thread.title);
            *lastThread = threadIndex;
            *lastTurn = -1;
        }
        if (step.turn != *lastTurn) {
            out += QStringLiteral("### %1\n\n").arg(roleHeading(thread.turns[size_t(step.turn)]));
            *lastTurn = step.turn;
        }
        appendStep(out, step);
    };
    int lastThread = -1, lastTurn = -1;
    if (selection.empty()) {
        for (int t = 0; t < int(trace.threads.size()); ++t)
            for (int s = 0; s < int(trace.threads[size_t(t)].steps.size()); ++s)
                emitStep(t, s, &lastThread, &lastTurn);
    } else {
        for (const auto &[t, s] : selection)
            if (t >= 0 && t < int(trace.threads.size()) && s >= 0 && s < int(trace.threads[size_t(t)].steps.size()))
                emitStep(t, s, &lastThread, &lastTurn);
    }
    return out;
}

QJsonArray traceToOpenAiMessages(const Trace &trace)
{
    QJsonArray messages;
    if (trace.threads.empty())
        return messages;
    const TraceThread &thread = trace.threads.front();
    for (const TraceTurn &turn : thread.turns) {
        QStringList texts;
        QJsonArray toolCalls;
        for (int i = turn.firstStep; i < turn.firstStep + turn.stepCount; ++i) {
            const TraceStep &step = thread.steps[size_t(i)];
            switch (step.kind) {
            case StepKind::ToolResult:
                messages.append(QJsonObject{{u"role"_s, u"tool"_s},
                                            {u"tool_call_id"_s, step.toolId.toString()},
                                            {u"content"_s, step.text.toString()}});
                break;
            case StepKind::ToolCall:
                toolCalls.append(QJsonObject{
                    {u"id"_s, step.toolId.toString()},
                    {u"type"_s, u"function"_s},
                    {u"function"_s,
                     QJsonObject{{u"name"_s, step.toolName.toString()},
                                 {u"arguments"_s, step.input.isEmpty() ? u"{}"_s : step.input.toString()}}}});
                break;
            case StepKind::Thinking:
                break; // reasoning is not part of the chat messages a model is sent back
            case StepKind::Image:
                texts.append(QStringLiteral("[image: %1]").arg(step.text.toString()));
                break;
            default:
                texts.append(step.text.toString());
            }
        }
        if (turn.role == "tool"_L1 || (texts.isEmpty() && toolCalls.isEmpty()))
            continue;
        const QString role = turn.role == "user"_L1 || turn.role == "system"_L1 ? turn.role : u"assistant"_s;
        QJsonObject message{{u"role"_s, role}};
        message.insert(u"content"_s, texts.isEmpty() ? QJsonValue() : QJsonValue(texts.join(u"\n\n"_s)));
        if (!toolCalls.isEmpty())
            message.insert(u"tool_calls"_s, toolCalls);
        messages.append(message);
    }
    return messages;
}

namespace {

QString sessionIdOf(const Trace &trace, int thread)
{
    const QString id = trace.threads[size_t(thread)].id;
    return id.isEmpty() ? u"thread-%1"_s.arg(thread) : id;
}

QJsonValue atifArguments(const TraceText &input)
{
    // ATIF's arguments are an object: a call's input that is one already stays as it is.
    const QJsonDocument parsed = QJsonDocument::fromJson(input.toString().toUtf8());
    if (parsed.isObject())
        return parsed.object();
    return input.isEmpty() ? QJsonObject() : QJsonObject{{u"input"_s, input.toString()}};
}

QJsonObject atifTrajectory(const Trace &trace, int thread, QString *firstModel)
{
    const TraceThread &t = trace.threads[size_t(thread)];
    QJsonArray steps;
    int lastAgent = -1; // the step a tool turn's results belong to
    for (const TraceTurn &turn : t.turns) {
        QStringList texts, thoughts;
        QJsonArray calls, results;
        for (int i = turn.firstStep; i < turn.firstStep + turn.stepCount; ++i) {
            const TraceStep &step = t.steps[size_t(i)];
            switch (step.kind) {
            case StepKind::ToolCall:
                calls.append(QJsonObject{{u"tool_call_id"_s, step.toolId.toString()},
                                         {u"function_name"_s, step.toolName.toString()},
                                         {u"arguments"_s, atifArguments(step.input)}});
                break;
            case StepKind::ToolResult: {
                QJsonObject result{{u"source_call_id"_s, step.toolId.toString()}, {u"content"_s, step.text.toString()}};
                const int call = step.paired;
                if (call >= 0 && t.steps[size_t(call)].childThread >= 0)
                    result.insert(u"subagent_trajectory_ref"_s,
                                  QJsonArray{QJsonObject{
                                      {u"session_id"_s, sessionIdOf(trace, t.steps[size_t(call)].childThread)}}});
                results.append(result);
                break;
            }
            case StepKind::Thinking: thoughts.append(step.text.toString()); break;
            case StepKind::Image: texts.append(u"[image: %1]"_s.arg(step.text.toString())); break;
            default: texts.append(step.text.toString());
            }
        }
        if (turn.role == "tool"_L1 && lastAgent >= 0) {
            QJsonObject agent = steps[lastAgent].toObject();
            QJsonObject observation = agent.value(u"observation"_s).toObject();
            QJsonArray all = observation.value(u"results"_s).toArray();
            for (const QJsonValue &r : std::as_const(results))
                all.append(r);
            observation.insert(u"results"_s, all);
            agent.insert(u"observation"_s, observation);
            steps[lastAgent] = agent;
            continue;
        }
        const QString source = turn.role == "user"_L1 ? u"user"_s : turn.role == "assistant"_L1 ? u"agent"_s : u"system"_s;
        QJsonObject step{{u"step_id"_s, steps.size() + 1}, {u"source"_s, source},
                         {u"message"_s, texts.join(u"\n\n"_s)}};
        if (!turn.timestamp.isEmpty())
            step.insert(u"timestamp"_s, turn.timestamp.toString());
        if (source == "agent"_L1) {
            if (!turn.model.isEmpty()) {
                step.insert(u"model_name"_s, turn.model);
                if (firstModel->isEmpty())
                    *firstModel = turn.model;
            }
            if (!thoughts.isEmpty())
                step.insert(u"reasoning_content"_s, thoughts.join(u"\n\n"_s));
            if (!calls.isEmpty())
                step.insert(u"tool_calls"_s, calls);
            if (turn.usage) {
                const TokenUsage &u = *turn.usage;
                QJsonObject metrics{{u"prompt_tokens"_s, u.totalInput()},
                                    {u"completion_tokens"_s, u.output},
                                    {u"cached_tokens"_s, u.cacheRead}};
                QJsonObject extra;
                if (u.reasoning > 0)
                    extra.insert(u"reasoning_tokens"_s, u.reasoning);
                if (u.cacheWrite5m + u.cacheWrite1h > 0)
                    extra.insert(u"cache_creation_input_tokens"_s, u.cacheWrite5m + u.cacheWrite1h);
                if (!extra.isEmpty())
                    metrics.insert(u"extra"_s, extra);
                step.insert(u"metrics"_s, metrics);
            }
            lastAgent = int(steps.size());
        } else if (!results.isEmpty()) {
            step.insert(u"observation"_s, QJsonObject{{u"results"_s, results}});
        }
        steps.append(step);
    }
    return QJsonObject{{u"schema_version"_s, u"ATIF-v1.4"_s},
                       {u"session_id"_s, sessionIdOf(trace, thread)},
                       {u"agent"_s, QJsonObject{{u"name"_s, t.title.isEmpty() ? trace.format : t.title},
                                                {u"version"_s, u"unknown"_s}}},
                       {u"steps"_s, steps}};
}

} // namespace

QJsonObject traceToAtif(const Trace &trace)
{
    if (trace.threads.empty())
        return {};
    QString model;
    QJsonObject root = atifTrajectory(trace, 0, &model);
    QJsonObject agent{{u"name"_s, trace.format.isEmpty() ? u"unknown"_s : trace.format},
                      {u"version"_s, u"unknown"_s},
                      {u"extra"_s, QJsonObject{{u"exported_by"_s, u"skillforge"_s}, {u"source_file"_s, trace.path}}}};
    QJsonArray subagents;
    for (int thread = 1; thread < int(trace.threads.size()); ++thread)
        subagents.append(atifTrajectory(trace, thread, &model)); // references to them are by session id
    if (!model.isEmpty())
        agent.insert(u"model_name"_s, model);
    root.insert(u"agent"_s, agent);
    if (!subagents.isEmpty())
        root.insert(u"subagent_trajectories"_s, subagents);
    const TokenUsage total = trace.totalUsage();
    QJsonObject final{{u"total_prompt_tokens"_s, total.totalInput()},
                      {u"total_completion_tokens"_s, total.output},
                      {u"total_cached_tokens"_s, total.cacheRead}};
    if (trace.reportedCostUsd)
        final.insert(u"total_cost_usd"_s, *trace.reportedCostUsd);
    root.insert(u"final_metrics"_s, final);
    return root;
}

QJsonObject traceStatsJson(const Trace &trace, const TraceStats &stats, const TraceCost &cost)
{
    QJsonObject kinds;
    for (int k = 0; k < StepKindCount; ++k)
        kinds.insert(stepKindName(StepKind(k)), stats.stepsByKind[k]);
    QJsonObject tools;
    for (const auto &[name, count] : stats.toolCalls)
        tools.insert(name, count);
    QJsonArray skipped;
    for (const SkippedRecord &record : trace.skipped)
        skipped.append(QJsonObject{{u"line"_s, record.line}, {u"reason"_s, record.reason}});
    QJsonObject usage = usageJson(stats.usage);
    usage.insert(u"total_input"_s, stats.usage.totalInput());
    QJsonObject json{{u"file"_s, trace.path},
                     {u"format"_s, trace.format},
                     {u"title"_s, trace.title},
                     {u"threads"_s, stats.threads},
                     {u"turns"_s, stats.turns},
                     {u"steps"_s, stats.steps},
                     {u"steps_by_kind"_s, kinds},
                     {u"tool_calls"_s, tools},
                     {u"tool_errors"_s, stats.toolErrors},
                     {u"tokens"_s, usage},
                     {u"models"_s, QJsonArray::fromStringList(stats.models)},
                     {u"skills"_s, QJsonArray::fromStringList(stats.skills)},
                     {u"skipped_count"_s, trace.skippedCount},
                     {u"skipped"_s, skipped},
                     {u"notes"_s, QJsonArray::fromStringList(trace.notes)}};
    // cost_usd: what the source itself logged. priced_cost_usd: by the pricing table, null when no turn's
    // model has a price (never 0 for "unknown").
    json.insert(u"cost_usd"_s, trace.reportedCostUsd ? QJsonValue(*trace.reportedCostUsd) : QJsonValue());
    json.insert(u"priced_cost_usd"_s, cost.hasCost() ? QJsonValue(cost.totalUsd) : QJsonValue());
    json.insert(u"priced_turns"_s, cost.pricedTurns);
    json.insert(u"unpriced_turns"_s, cost.unpricedTurns);
    json.insert(u"unpriced_models"_s, QJsonArray::fromStringList(cost.unpricedModels));
    return json;
}

} // namespace sf
