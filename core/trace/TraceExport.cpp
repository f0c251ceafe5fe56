#include "trace/TraceExport.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace sf {

using namespace Qt::StringLiterals;

namespace {

/// A fence longer than any backtick run inside @p text, so the text cannot close it.
QString fenceFor(const QString &text)
{
    int longest = 0, run = 0;
    for (QChar c : text) {
        run = c == u'`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return QString(std::max(3, longest + 1), u'`');
}

QString fenced(const QString &text, const QString &language = {})
{
    const QString fence = fenceFor(text);
    return fence + language + u'\n' + text + (text.endsWith(u'\n') ? QString() : u"\n"_s) + fence + u'\n';
}

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
               fenced(prettyJson(step.input.toString()), u"json"_s) + u'\n';
        break;
    case StepKind::ToolResult:
        out += QStringLiteral("**Tool result%1%2**\n\n")
                   .arg(step.toolName.isEmpty() ? QString() : QStringLiteral(" `%1`").arg(step.toolName.toString()),
                        step.isError ? u" (error)"_s : QString()) +
               fenced(step.text.toString()) + u'\n';
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
                     {u"skipped"_s, skipped}};
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
