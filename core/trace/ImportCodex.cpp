// OpenAI Codex CLI rollout JSONL (reference/traces.md 2.3).

#include "trace/TraceImport_p.h"

#include <QFileInfo>
#include <QJsonDocument>

namespace sf::trace_import {

namespace {

using namespace Qt::StringLiterals;

QString codexContentText(const QJsonArray &content)
{
    QStringList parts;
    for (const QJsonValue &value : content) {
        const QJsonObject part = value.toObject();
        const QString type = part.value("type"_L1).toString();
        if (part.contains("text"_L1))
            parts.append(part.value("text"_L1).toString());
        else if (type.contains("image"_L1))
            parts.append(QStringLiteral("[image]"));
    }
    return parts.join(u'\n');
}

/// The exit code in the header Codex 0.1xx's exec_command puts before a command's output ("Chunk ID: ...\nWall time:
/// ...\nProcess exited with code 1\n...\nOutput:\n"), or -1 when there is none (the command still runs).
int codexHeaderExitCode(const QString &text)
{
    static const QLatin1StringView marker("Process exited with code ");
    const qsizetype output = text.indexOf("\nOutput:"_L1);
    const qsizetype at = text.indexOf(marker);
    if (at < 0 || (output >= 0 && at > output) || (at > 0 && text.at(at - 1) != u'\n'))
        return -1;
    const qsizetype end = text.indexOf(u'\n', at);
    bool ok = false;
    const int code = QStringView(text).mid(at + marker.size(), end < 0 ? -1 : end - at - marker.size()).toInt(&ok);
    return ok ? code : -1;
}

/// A function_call_output's "output": often JSON {output, metadata{exit_code}}, or text under a header that names the
/// exit code; a non-zero exit is an error.
QString codexOutput(const QJsonValue &value, bool *isError)
{
    *isError = false;
    QString text = value.isString() ? value.toString() : contentText(value);
    if (value.isObject())
        text = value.toObject().value("content"_L1).toString(text);
    if (!text.startsWith(u'{')) {
        *isError = codexHeaderExitCode(text) > 0;
        return text;
    }
    const QJsonObject object = QJsonDocument::fromJson(text.toUtf8()).object();
    if (!object.contains("output"_L1))
        return text;
    const QJsonValue exitCode = object.value("metadata"_L1).toObject().value("exit_code"_L1);
    *isError = exitCode.isDouble() && exitCode.toInt() != 0;
    return object.value("output"_L1).toString();
}

} // namespace

bool isBareCodexItem(const QJsonObject &object)
{
    static const QStringList itemTypes = {
        u"message"_s,          u"function_call"_s,    u"function_call_output"_s,   u"reasoning"_s,
        u"local_shell_call"_s, u"custom_tool_call"_s, u"custom_tool_call_output"_s};
    return !object.contains("payload"_L1) && itemTypes.contains(object.value("type"_L1).toString()) &&
           (object.contains("role"_L1) || object.contains("call_id"_L1) || object.contains("summary"_L1) ||
            object.contains("content"_L1));
}

bool importCodex(const QString &path, Progress &progress, Trace *trace, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    addThread(trace, QFileInfo(path).completeBaseName(), QStringLiteral("Main session"));
    ThreadBuilder builder(trace, 0);
    LineReader reader(&file);
    QByteArray bytes;
    qint64 lineNumber = 0;
    QString model;
    qint64 lastTotal = -1;
    for (;;) {
        const auto status = reader.next(&bytes, &lineNumber);
        if (status == LineReader::Status::End)
            break;
        if (!progress.update(reader.position()))
            return false;
        if (status == LineReader::Status::TooLong) {
            trace->skip(lineNumber, QStringLiteral("line longer than %1 MiB").arg(LineReader::MaxLineBytes >> 20));
            continue;
        }
        if (bytes.trimmed().isEmpty())
            continue;
        QJsonParseError parseError{};
        const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
        if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
            trace->skip(lineNumber, parseError.error != QJsonParseError::NoError
                                        ? QStringLiteral("not valid JSON (%1 at byte %2)")
                                              .arg(parseError.errorString())
                                              .arg(parseError.offset + 1)
                                        : QStringLiteral("not a JSON object"));
            continue;
        }
        const QJsonObject object = doc.object();
        QString type = object.value("type"_L1).toString();
        QJsonObject payload = object.value("payload"_L1).toObject();
        const QString timestamp = object.value("timestamp"_L1).toString();
        // Codex before session_meta wrote its records bare: a header {id, timestamp, instructions}, then response
        // items ({type: message | function_call | ...}) without an envelope, and {record_type: "state"} lines.
        if (!object.value("payload"_L1).isObject()) {
            if (object.contains("record_type"_L1))
                continue;
            if (isBareCodexItem(object)) {
                payload = object;
                type = u"response_item"_s;
            } else if (type.isEmpty() && object.contains("id"_L1) && object.contains("timestamp"_L1)) {
                payload = object;
                type = u"session_meta"_s;
            }
        }
        if (type.isEmpty() || payload.isEmpty()) {
            trace->skip(lineNumber, QStringLiteral("record without \"type\" and \"payload\""));
            continue;
        }
        const QString itemType = payload.value("type"_L1).toString();
        if (type == "session_meta"_L1) {
            const QString cwd = payload.value("cwd"_L1).toString();
            trace->threads[0].id = payload.value("id"_L1).toString(trace->threads[0].id);
            if (trace->title.isEmpty() && !cwd.isEmpty())
                trace->title = QStringLiteral("Codex session in %1").arg(cwd);
        } else if (type == "turn_context"_L1) {
            model = payload.value("model"_L1).toString(model);
        } else if (type == "compacted"_L1) {
            builder.beginTurn(u"system"_s, lineNumber);
            builder.addStep(StepKind::System, QStringLiteral("Conversation compacted"), lineNumber);
        } else if (type == "event_msg"_L1 && itemType == "token_count"_L1) {
            const QJsonObject info = payload.value("info"_L1).toObject();
            const QJsonObject last = info.value("last_token_usage"_L1).toObject();
            const qint64 total = intField(info.value("total_token_usage"_L1).toObject(), "total_tokens"_L1);
            if (last.isEmpty() || total == lastTotal)
                continue; // Codex repeats a token_count when nothing new was used
            lastTotal = total;
            TokenUsage usage;
            usage.cacheRead = intField(last, "cached_input_tokens"_L1);
            usage.uncachedInput = std::max<qint64>(0, intField(last, "input_tokens"_L1) - usage.cacheRead);
            usage.output = intField(last, "output_tokens"_L1);
            usage.reasoning = intField(last, "reasoning_output_tokens"_L1);
            // The count belongs to the latest assistant turn that has none yet.
            auto &turns = trace->threads[0].turns;
            for (auto it = turns.rbegin(); it != turns.rend(); ++it) {
                if (it->role == "assistant"_L1) {
                    if (!it->usage)
                        it->usage = usage;
                    break;
                }
            }
        } else if (type == "event_msg"_L1 && (itemType == "turn_aborted"_L1 || itemType == "error"_L1)) {
            builder.beginTurn(u"system"_s, lineNumber);
            builder
                .addStep(StepKind::System,
                         QStringLiteral("[%1] %2").arg(
                             itemType, payload.value("message"_L1).toString(payload.value("reason"_L1).toString())),
                         lineNumber)
                .isError = true;
        } else if (type == "response_item"_L1) {
            auto assistantTurn = [&]() -> TraceTurn & {
                TraceTurn &turn = builder.turnFor(u"assistant"_s, lineNumber);
                if (turn.model.isEmpty())
                    turn.model = model;
                if (turn.timestamp.isEmpty())
                    turn.timestamp = builder.store(timestamp);
                return turn;
            };
            if (itemType == "message"_L1) {
                const QString role = payload.value("role"_L1).toString();
                const QString text = codexContentText(payload.value("content"_L1).toArray());
                if (role == "assistant"_L1) {
                    assistantTurn();
                    builder.addStep(StepKind::AssistantText, text, lineNumber);
                } else {
                    const bool isUser = role == "user"_L1;
                    builder.beginTurn(isUser ? u"user"_s : u"system"_s, lineNumber).timestamp =
                        builder.store(timestamp);
                    builder.addStep(isUser ? StepKind::UserText : StepKind::System, text, lineNumber);
                }
            } else if (itemType == "reasoning"_L1) {
                QString text = codexContentText(payload.value("summary"_L1).toArray());
                const QString content = codexContentText(payload.value("content"_L1).toArray());
                if (!content.isEmpty())
                    text = text.isEmpty() ? content : text + u"\n\n"_s + content;
                assistantTurn();
                builder.addStep(StepKind::Thinking, text.isEmpty() ? QStringLiteral("(encrypted reasoning)") : text,
                                lineNumber);
            } else if (itemType == "function_call"_L1 || itemType == "custom_tool_call"_L1) {
                assistantTurn();
                const QJsonValue input = payload.value(itemType == "function_call"_L1 ? "arguments"_L1 : "input"_L1);
                builder.addToolCall(payload.value("call_id"_L1).toString(), payload.value("name"_L1).toString(),
                                    input.isString() ? jsonTextAsCompact(input.toString()) : compactJson(input),
                                    lineNumber);
            } else if (itemType == "local_shell_call"_L1 || itemType == "web_search_call"_L1) {
                assistantTurn();
                const QJsonValue action = payload.value("action"_L1);
                builder.addToolCall(payload.value("call_id"_L1).toString(payload.value("id"_L1).toString()),
                                    itemType == "local_shell_call"_L1 ? u"local_shell"_s : u"web_search"_s,
                                    compactJson(action), lineNumber);
            } else if (itemType.endsWith("_output"_L1)) {
                bool isError = false;
                const QString text = codexOutput(payload.value("output"_L1), &isError);
                builder.turnFor(u"tool"_s, lineNumber);
                builder.addToolResult(payload.value("call_id"_L1).toString(), text, isError, lineNumber);
            }
        }
        // Other event_msg kinds repeat response items (user_message, agent_message) or carry UI state.
    }
    finishTrace(trace);
    return true;
}

} // namespace sf::trace_import
