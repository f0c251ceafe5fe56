// JSON documents of messages: OpenAI chat messages, fast-agent history, smolagents steps
// (reference/traces.md 2.2, 2.4, 2.5).

#include "trace/TraceImport_p.h"
#include "usage/OpenAiUsage.h"

#include <QJsonDocument>

namespace sf::trace_import {

namespace {

using namespace Qt::StringLiterals;

QJsonArray messagesOf(const QJsonValue &root)
{
    return root.isArray() ? root.toArray() : root.toObject().value("messages"_L1).toArray();
}

void addContentSteps(ThreadBuilder &builder, const QJsonValue &content, StepKind textKind)
{
    if (content.isString() || content.isNull() || content.isUndefined()) {
        if (!content.toString().isEmpty())
            builder.addStep(textKind, content.toString(), 0);
        return;
    }
    for (const QJsonValue &value : content.toArray()) {
        const QJsonObject part = value.toObject();
        const QString type = part.value("type"_L1).toString();
        if (type.contains("image"_L1))
            builder.addStep(StepKind::Image, part.value("mimeType"_L1).toString(type), 0);
        else if (type == "reasoning"_L1 || type == "thinking"_L1)
            builder.addStep(StepKind::Thinking, part.value(type).toString(part.value("text"_L1).toString()), 0);
        else if (!part.value("text"_L1).toString().isEmpty())
            builder.addStep(textKind, part.value("text"_L1).toString(), 0);
        else if (value.isString())
            builder.addStep(textKind, value.toString(), 0);
    }
}

/// fast-agent's first usage layout (before 0.10): {"turn": {input_tokens, output_tokens, cache_usage, ...}}.
TokenUsage fastAgentUsageV1(const QJsonObject &usage, QString *model)
{
    TokenUsage u;
    u.cacheRead = intField(usage.value("cache_usage"_L1).toObject(), "cache_hit_tokens"_L1);
    // effective_input_tokens is what was billed at the full rate; without it, input less cache hits.
    u.uncachedInput = usage.contains("effective_input_tokens"_L1)
                          ? intField(usage, "effective_input_tokens"_L1)
                          : std::max<qint64>(0, intField(usage, "input_tokens"_L1) - u.cacheRead);
    u.output = intField(usage, "output_tokens"_L1);
    u.reasoning = intField(usage, "reasoning_tokens"_L1);
    *model = usage.value("model"_L1).toString();
    return u;
}

/// fast-agent.usage/v2 (fast-agent 0.10.48, what upskill installs): one entry per provider attempt of the response,
/// retries included, each {prompt: {total, uncached, cache_read, cache_write}, completion: {total, reasoning}}. Every
/// attempt was billed, so they add up; the model is the last attempt's.
TokenUsage fastAgentUsageV2(const QJsonObject &report, QString *model)
{
    TokenUsage u;
    for (const QJsonValue &value : report.value("provider_attempts"_L1).toArray()) {
        const QJsonObject attempt = value.toObject();
        const QJsonObject prompt = attempt.value("prompt"_L1).toObject();
        const QJsonObject completion = attempt.value("completion"_L1).toObject();
        const qint64 cacheRead = intField(prompt, "cache_read"_L1);
        const qint64 cacheWrite = intField(prompt, "cache_write"_L1);
        u.cacheRead += cacheRead;
        u.cacheWrite5m += cacheWrite;
        // Anthropic reports the uncached part; OpenAI-style schemas only the total, which holds the cached part.
        u.uncachedInput += prompt.contains("uncached"_L1)
                               ? intField(prompt, "uncached"_L1)
                               : std::max<qint64>(0, intField(prompt, "total"_L1) - cacheRead - cacheWrite);
        u.output += intField(completion, "total"_L1);
        u.reasoning += intField(completion, "reasoning"_L1);
        *model = attempt.value("model"_L1).toString(*model);
    }
    return u;
}

/// The text of a fast-agent channel: its text blocks joined.
QString channelText(const QJsonObject &channels, QLatin1StringView name)
{
    return contentText(channels.value(name));
}

} // namespace

bool importOpenAiMessages(const QJsonValue &root, Trace *trace, QString *error)
{
    const QJsonArray messages = messagesOf(root);
    addThread(trace, QString(), QStringLiteral("Conversation"));
    ThreadBuilder builder(trace, 0);
    const QString model = root.toObject().value("model"_L1).toString();
    for (int i = 0; i < messages.size(); ++i) {
        const QJsonObject message = messages.at(i).toObject();
        const QString role = message.value("role"_L1).toString();
        if (role.isEmpty()) {
            trace->skip(0, QStringLiteral("message %1 has no \"role\"").arg(i + 1));
            continue;
        }
        if (role == "system"_L1 || role == "developer"_L1) {
            builder.beginTurn(u"system"_s, 0);
            addContentSteps(builder, message.value("content"_L1), StepKind::System);
        } else if (role == "user"_L1) {
            builder.beginTurn(role, 0);
            addContentSteps(builder, message.value("content"_L1), StepKind::UserText);
        } else if (role == "assistant"_L1) {
            TraceTurn &turn = builder.beginTurn(role, 0);
            turn.model = message.value("model"_L1).toString(model);
            if (message.value("usage"_L1).isObject())
                turn.usage = openAiChatUsage(message.value("usage"_L1).toObject());
            const QString reasoning = message.value("reasoning_content"_L1).toString();
            if (!reasoning.isEmpty())
                builder.addStep(StepKind::Thinking, reasoning, 0);
            addContentSteps(builder, message.value("content"_L1), StepKind::AssistantText);
            for (const QJsonValue &call : message.value("tool_calls"_L1).toArray()) {
                const QJsonObject function = call.toObject().value("function"_L1).toObject();
                const QJsonValue arguments = function.value("arguments"_L1);
                builder.addToolCall(
                    call.toObject().value("id"_L1).toString(), function.value("name"_L1).toString(),
                    arguments.isString() ? jsonTextAsCompact(arguments.toString()) : compactJson(arguments), 0);
            }
        } else if (role == "tool"_L1 || role == "function"_L1) {
            builder.turnFor(u"tool"_s, 0);
            TraceStep &step = builder.addToolResult(message.value("tool_call_id"_L1).toString(),
                                                    contentText(message.value("content"_L1)), false, 0);
            step.toolName = builder.store(message.value("name"_L1).toString());
        } else {
            trace->skip(0, QStringLiteral("message %1 has an unknown role \"%2\"").arg(i + 1).arg(role));
        }
    }
    if (trace->threads[0].steps.empty() && messages.isEmpty()) {
        *error = QStringLiteral("no messages");
        return false;
    }
    finishTrace(trace);
    return true;
}

bool importFastAgent(const QJsonValue &root, Trace *trace, QString *error)
{
    const QJsonArray messages = messagesOf(root);
    if (messages.isEmpty()) {
        *error = QStringLiteral("no messages");
        return false;
    }
    addThread(trace, QString(), QStringLiteral("Conversation"));
    ThreadBuilder builder(trace, 0);
    for (int i = 0; i < messages.size(); ++i) {
        const QJsonObject message = messages.at(i).toObject();
        const QString role = message.value("role"_L1).toString();
        const QJsonObject channels = message.value("channels"_L1).toObject();
        if (role == "user"_L1) {
            const QJsonObject results = message.value("tool_results"_L1).toObject();
            if (!results.isEmpty()) {
                builder.beginTurn(u"tool"_s, 0);
                for (auto it = results.begin(); it != results.end(); ++it) {
                    const QJsonObject result = it.value().toObject();
                    builder.addToolResult(it.key(), contentText(result.value("content"_L1)),
                                          result.value("isError"_L1).toBool(), 0);
                }
            }
            const QJsonArray content = message.value("content"_L1).toArray();
            if (!content.isEmpty()) {
                builder.beginTurn(role, 0);
                addContentSteps(builder, content, StepKind::UserText);
            }
        } else if (role == "assistant"_L1) {
            TraceTurn &turn = builder.beginTurn(role, 0);
            const QString usageText = channelText(channels, "fast-agent-usage"_L1);
            if (!usageText.isEmpty()) {
                const QJsonObject report = QJsonDocument::fromJson(usageText.toUtf8()).object();
                if (report.contains("provider_attempts"_L1))
                    turn.usage = fastAgentUsageV2(report, &turn.model);
                else
                    turn.usage = fastAgentUsageV1(report.value("turn"_L1).toObject(), &turn.model);
            }
            const QString reasoning = channelText(channels, "reasoning"_L1);
            if (!reasoning.isEmpty())
                builder.addStep(StepKind::Thinking, reasoning, 0);
            addContentSteps(builder, message.value("content"_L1), StepKind::AssistantText);
            const QJsonObject calls = message.value("tool_calls"_L1).toObject();
            for (auto it = calls.begin(); it != calls.end(); ++it) {
                const QJsonObject params = it.value().toObject().value("params"_L1).toObject();
                builder.addToolCall(it.key(), params.value("name"_L1).toString(),
                                    compactJson(params.value("arguments"_L1)), 0);
            }
            if (message.value("stop_reason"_L1).toString() == "error"_L1)
                builder.addStep(StepKind::System, QStringLiteral("The model call ended with an error"), 0).isError =
                    true;
        } else {
            trace->skip(0, QStringLiteral("message %1 has an unknown role \"%2\"").arg(i + 1).arg(role));
        }
    }
    finishTrace(trace);
    return true;
}

bool importSmolagents(const QJsonValue &root, Trace *trace, QString *error)
{
    const QJsonArray steps = root.isArray() ? root.toArray() : root.toObject().value("steps"_L1).toArray();
    if (steps.isEmpty()) {
        *error = QStringLiteral("no steps");
        return false;
    }
    addThread(trace, QString(), QStringLiteral("Agent run"));
    ThreadBuilder builder(trace, 0);
    for (int i = 0; i < steps.size(); ++i) {
        const QJsonObject step = steps.at(i).toObject();
        if (step.contains("system_prompt"_L1)) {
            builder.beginTurn(u"system"_s, 0);
            builder.addStep(StepKind::System, step.value("system_prompt"_L1).toString(), 0);
        } else if (step.contains("task"_L1)) {
            builder.beginTurn(u"user"_s, 0);
            builder.addStep(StepKind::UserText, step.value("task"_L1).toString(), 0);
        } else if (step.contains("plan"_L1) || step.contains("step_number"_L1) || step.contains("model_output"_L1)) {
            TraceTurn &turn = builder.beginTurn(u"assistant"_s, 0);
            const QJsonObject usage = step.value("token_usage"_L1).toObject();
            if (!usage.isEmpty()) {
                TokenUsage u;
                u.uncachedInput = intField(usage, "input_tokens"_L1);
                u.output = intField(usage, "output_tokens"_L1);
                turn.usage = u;
            }
            turn.timestamp = builder.store(
                QString::number(step.value("timing"_L1).toObject().value("start_time"_L1).toDouble(), 'f', 3));
            if (step.contains("plan"_L1)) {
                builder.addStep(StepKind::AssistantText, step.value("plan"_L1).toString(), 0);
                continue;
            }
            QString output = step.value("model_output"_L1).toString();
            if (output.isEmpty())
                output = contentText(step.value("model_output_message"_L1).toObject().value("content"_L1));
            if (!output.isEmpty())
                builder.addStep(StepKind::AssistantText, output, 0);
            QString firstId;
            for (const QJsonValue &value : step.value("tool_calls"_L1).toArray()) {
                const QJsonObject call = value.toObject();
                const QJsonObject function = call.value("function"_L1).toObject();
                const QJsonValue arguments = function.value("arguments"_L1);
                const QString id = call.value("id"_L1).toString();
                if (firstId.isEmpty())
                    firstId = id.isEmpty() ? QStringLiteral("step-%1").arg(i) : id;
                builder.addToolCall(
                    id.isEmpty() ? firstId : id, function.value("name"_L1).toString(),
                    arguments.isString() ? jsonTextAsCompact(arguments.toString()) : compactJson(arguments), 0);
            }
            const QJsonValue errorValue = step.value("error"_L1);
            const QString observations = step.value("observations"_L1).toString();
            const QString errorText =
                errorValue.isObject() ? errorValue.toObject().value("message"_L1).toString() : errorValue.toString();
            if (!observations.isEmpty() || !errorText.isEmpty()) {
                builder.beginTurn(u"tool"_s, 0);
                builder.addToolResult(firstId, errorText.isEmpty() ? observations : errorText, !errorText.isEmpty(), 0);
            }
        } else if (step.contains("output"_L1)) {
            builder.beginTurn(u"assistant"_s, 0);
            builder.addStep(StepKind::AssistantText,
                            QStringLiteral("Final answer: %1").arg(contentText(step.value("output"_L1))), 0);
        } else {
            trace->skip(0, QStringLiteral("step %1 is of no known kind").arg(i + 1));
        }
    }
    finishTrace(trace);
    return true;
}

} // namespace sf::trace_import
