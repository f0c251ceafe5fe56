// Reading Claude Code JSONL lines into records (ImportClaudeCode.cpp places them): the fast simdjson reader
// for the common lines (ImportClaudeCodeLines.cpp), QJsonDocument for the rest.

#include "trace/ClaudeCodeRecords_p.h"

#include <QJsonDocument>

namespace sf::trace_import {

namespace {

using namespace Qt::StringLiterals;

TokenUsage anthropicUsage(const QJsonObject &usage)
{
    TokenUsage u;
    u.uncachedInput = intField(usage, "input_tokens"_L1);
    u.cacheRead = intField(usage, "cache_read_input_tokens"_L1);
    u.output = intField(usage, "output_tokens"_L1);
    const QJsonObject creation = usage.value("cache_creation"_L1).toObject();
    if (!creation.isEmpty()) {
        u.cacheWrite5m = intField(creation, "ephemeral_5m_input_tokens"_L1);
        u.cacheWrite1h = intField(creation, "ephemeral_1h_input_tokens"_L1);
    } else {
        u.cacheWrite5m = intField(usage, "cache_creation_input_tokens"_L1);
    }
    u.reasoning = intField(usage.value("output_tokens_details"_L1).toObject(), "thinking_tokens"_L1);
    return u;
}

void convertContent(const QJsonValue &content, bool fromUser, bool isMeta, RecordStore *store, Record *record,
                    QString *spawnedAgentId)
{
    TraceTextStore &texts = *store->texts;
    const StepKind textKind = isMeta ? StepKind::System : (fromUser ? StepKind::UserText : StepKind::AssistantText);
    if (content.isString()) {
        const QString text = content.toString();
        if (!text.isEmpty())
            store->addStep(record, {textKind, false, texts.add(text), {}, {}, {}});
        return;
    }
    for (const QJsonValue &value : content.toArray()) {
        const QJsonObject block = value.toObject();
        const QString type = block.value("type"_L1).toString();
        if (type == "text"_L1) {
            const QString text = block.value("text"_L1).toString();
            if (!text.isEmpty())
                store->addStep(record, {textKind, false, texts.add(text), {}, {}, {}});
        } else if (type == "thinking"_L1) {
            QString text = block.value("thinking"_L1).toString();
            if (text.isEmpty())
                text = QStringLiteral("(thinking not recorded)");
            store->addStep(record, {StepKind::Thinking, false, texts.add(text), {}, {}, {}});
        } else if (type == "redacted_thinking"_L1) {
            store->addStep(record, {StepKind::Thinking, false, texts.add("(redacted thinking)"), {}, {}, {}});
        } else if (type == "tool_use"_L1 || type == "server_tool_use"_L1) {
            store->addStep(record, {StepKind::ToolCall,
                                    false,
                                    {},
                                    texts.add(block.value("id"_L1).toString()),
                                    texts.add(block.value("name"_L1).toString()),
                                    texts.add(compactJson(block.value("input"_L1)))});
        } else if (type == "tool_result"_L1 || type.endsWith("_tool_result"_L1)) {
            const TraceText text = texts.add(contentText(block.value("content"_L1)));
            store->addStep(record, {StepKind::ToolResult,
                                    block.value("is_error"_L1).toBool(),
                                    text,
                                    texts.add(block.value("tool_use_id"_L1).toString()),
                                    {},
                                    {}});
            if (spawnedAgentId->isEmpty())
                *spawnedAgentId = QString::fromUtf8(agentIdIn(text.utf8()));
        } else if (type == "image"_L1 || type == "document"_L1) {
            const QJsonObject source = block.value("source"_L1).toObject();
            store->addStep(
                record, {StepKind::Image, false, texts.add(source.value("media_type"_L1).toString(type)), {}, {}, {}});
        }
        // Other block types (future ones included) carry nothing to show.
    }
}

/// Converts a user/assistant record's "message"; returns false when the record has none.
bool convertMessage(const QJsonObject &object, RecordStore *store, Record *record)
{
    const QJsonObject message = object.value("message"_L1).toObject();
    if (message.isEmpty())
        return false;
    const bool fromUser = record->role == RecordRole::User;
    QString spawnedAgentId;
    convertContent(message.value("content"_L1), fromUser, object.value("isMeta"_L1).toBool(), store, record,
                   &spawnedAgentId);
    if (fromUser) {
        const auto first = store->steps.cbegin() + record->firstStep;
        const bool hasResult = std::any_of(first, first + record->stepCount,
                                           [](const PendingStep &s) { return s.kind == StepKind::ToolResult; });
        if (hasResult)
            record->role = RecordRole::Tool;
        record->newTurn = !hasResult;
        const QJsonObject toolUseResult = object.value("toolUseResult"_L1).toObject();
        if (const QString agent = toolUseResult.value("agentId"_L1).toString(); !agent.isEmpty())
            spawnedAgentId = agent;
        record->spawnedAgentId = store->scratch.add(spawnedAgentId);
        return true;
    }
    record->spawnedAgentId = store->scratch.add(spawnedAgentId);
    record->model = message.value("model"_L1).toString();
    record->messageId = store->scratch.add(message.value("id"_L1).toString());
    const QJsonValue usage = message.value("usage"_L1);
    if (usage.isObject())
        record->usage = anthropicUsage(usage.toObject());
    return true;
}

QString systemText(const QJsonObject &object, bool *isError)
{
    const QString subtype = object.value("subtype"_L1).toString();
    *isError = subtype == "api_error"_L1 || object.value("level"_L1).toString() == "error"_L1;
    QString text = object.value("content"_L1).toString();
    if (subtype == "compact_boundary"_L1) {
        const QJsonObject meta = object.value("compactMetadata"_L1).toObject();
        text = QStringLiteral("Conversation compacted (%1): %2 tokens before")
                   .arg(meta.value("trigger"_L1).toString(), QString::number(intField(meta, "preTokens"_L1)));
    } else if (subtype == "turn_duration"_L1) {
        text = QStringLiteral("Turn took %1 s").arg(double(intField(object, "durationMs"_L1)) / 1000.0, 0, 'f', 1);
    } else if (subtype == "init"_L1) {
        text = QStringLiteral("Session started: model %1, %2 tools, in %3")
                   .arg(object.value("model"_L1).toString())
                   .arg(object.value("tools"_L1).toArray().size())
                   .arg(object.value("cwd"_L1).toString());
    }
    if (text.isEmpty())
        text = compactJson(object.value("error"_L1));
    return subtype.isEmpty() ? text : QStringLiteral("[%1] %2").arg(subtype, text);
}

/// As QByteArray::trimmed().isEmpty(), without the copy.
bool isBlank(std::string_view line)
{
    return std::all_of(line.cbegin(), line.cend(), [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); });
}

} // namespace

bool readRecords(const QString &path, ByteRange range, const QString &skipPrefix, bool streamJson, Progress *progress,
                 Trace *trace, RecordStore *store, FileResult *out, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || (range.begin > 0 && !file.seek(range.begin))) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    LineReader reader(&file, range.end < 0 ? -1 : range.end - range.begin);
    ClaudeLineReader fast;
    std::string_view view;
    qint64 lineNumber = 0;
    const bool isMainFile = skipPrefix.isEmpty();
    auto skip = [&](const QString &reason) {
        trace->skip(lineNumber, isMainFile ? reason : skipPrefix + u": "_s + reason);
    };
    for (;;) {
        const auto status = reader.nextView(&view, &lineNumber);
        if (status == LineReader::Status::End)
            break;
        out->lines = lineNumber;
        if (progress && !progress->update(reader.position()))
            return false;
        if (status == LineReader::Status::TooLong) {
            skip(QStringLiteral("line longer than %1 MiB").arg(LineReader::MaxLineBytes >> 20));
            continue;
        }
        if (isBlank(view))
            continue;
        Record record;
        record.line = lineNumber;
        record.firstStep = int(store->steps.size());
        const auto outcome = fast.read(view, streamJson, isMainFile, store, &record);
        out->bytesRead = reader.position();
        if (outcome == ClaudeLineReader::Outcome::Record && !out->take(record)) {
            out->stopped = true;
            return true;
        }
        if (outcome != ClaudeLineReader::Outcome::Slow)
            continue;
        const QByteArray bytes(view.data(), qsizetype(view.size()));
        QJsonParseError parseError{};
        const QJsonDocument doc = QJsonDocument::fromJson(bytes, &parseError);
        if (parseError.error != QJsonParseError::NoError || !doc.isObject()) {
            skip(parseError.error != QJsonParseError::NoError ? QStringLiteral("not valid JSON (%1 at byte %2)")
                                                                    .arg(parseError.errorString())
                                                                    .arg(parseError.offset + 1)
                                                              : QStringLiteral("not a JSON object"));
            continue;
        }
        const QJsonObject object = doc.object();
        const QString type = object.value("type"_L1).toString();
        if (type.isEmpty()) {
            skip(QStringLiteral("record without a \"type\""));
            continue;
        }
        auto setTitle = [out](const QString &title, int rank) {
            if (!title.isEmpty() && rank >= out->titleRank) {
                out->title = title;
                out->titleRank = rank;
            }
        };
        if (type == "summary"_L1) {
            setTitle(object.value("summary"_L1).toString(), 1);
            continue;
        }
        if (type == "ai-title"_L1) {
            setTitle(object.value("aiTitle"_L1).toString(), 2);
            continue;
        }
        if (type == "cost-state"_L1) {
            // What Claude Code itself priced the session at so far (the CLI's total_cost_usd); the last line wins.
            const QJsonValue cost = object.value("totalCostUSD"_L1);
            if (isMainFile && cost.isDouble())
                trace->reportedCostUsd = cost.toDouble();
            continue;
        }
        if (type == "custom-title"_L1) {
            setTitle(object.value("customTitle"_L1).toString(object.value("title"_L1).toString()), 3);
            continue;
        }
        TraceTextStore &scratch = store->scratch;
        record.uuid = scratch.add(object.value("uuid"_L1).toString());
        QString parent = object.value("parentUuid"_L1).toString();
        if (parent.isEmpty())
            parent = object.value("logicalParentUuid"_L1).toString();
        record.parentUuid = scratch.add(parent);
        record.timestamp = scratch.add(object.value("timestamp"_L1).toString());
        record.requestId = scratch.add(object.value("requestId"_L1).toString());
        record.skill = object.value("attributionSkill"_L1).toString();
        if (streamJson)
            record.threadKey = scratch.add(object.value("parent_tool_use_id"_L1).toString());
        else if (isMainFile && object.value("isSidechain"_L1).toBool())
            record.threadKey = scratch.add("sidechain");
        if (type == "user"_L1 || type == "assistant"_L1) {
            record.role = type == "user"_L1 ? RecordRole::User : RecordRole::Assistant;
            if (!convertMessage(object, store, &record)) {
                skip(QStringLiteral("%1 record without a \"message\"").arg(type));
                continue;
            }
        } else if (type == "system"_L1) {
            record.role = RecordRole::System;
            bool isError = false;
            const QString text = systemText(object, &isError);
            store->addStep(&record, {StepKind::System, isError, store->texts->add(text), {}, {}, {}});
            if (streamJson)
                record.model = object.value("model"_L1).toString();
        } else if (type == "result"_L1 && streamJson) {
            record.role = RecordRole::System;
            const QJsonValue cost = object.value("total_cost_usd"_L1);
            if (cost.isDouble())
                trace->reportedCostUsd = cost.toDouble();
            const bool isError = object.value("is_error"_L1).toBool();
            QString text = QStringLiteral("[result %1] %2 turns in %3 s")
                               .arg(object.value("subtype"_L1).toString())
                               .arg(intField(object, "num_turns"_L1))
                               .arg(double(intField(object, "duration_ms"_L1)) / 1000.0, 0, 'f', 1);
            if (cost.isDouble())
                text += QStringLiteral(", cost $%1").arg(cost.toDouble(), 0, 'f', 4);
            store->addStep(&record, {StepKind::System, isError, store->texts->add(text), {}, {}, {}});
        } else {
            continue; // bookkeeping records (queue-operation, file-history-*, progress, ...) and unknown types
        }
        if (!out->take(record)) {
            out->stopped = true;
            return true;
        }
    }
    return true;
}

} // namespace sf::trace_import
