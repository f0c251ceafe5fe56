// Claude Code session JSONL (with subagents/ files) and headless stream-json (reference/traces.md 2.1).

#include "trace/ClaudeCodeRecords_p.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>

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

void convertContent(const QJsonValue &content, bool fromUser, bool isMeta, Record *record)
{
    if (content.isString()) {
        const QString text = content.toString();
        if (!text.isEmpty())
            record->steps.push_back(
                {isMeta ? StepKind::System : (fromUser ? StepKind::UserText : StepKind::AssistantText),
                 false,
                 text,
                 {},
                 {},
                 {}});
        return;
    }
    for (const QJsonValue &value : content.toArray()) {
        const QJsonObject block = value.toObject();
        const QString type = block.value("type"_L1).toString();
        if (type == "text"_L1) {
            const QString text = block.value("text"_L1).toString();
            if (!text.isEmpty())
                record->steps.push_back(
                    {isMeta ? StepKind::System : (fromUser ? StepKind::UserText : StepKind::AssistantText),
                     false,
                     text,
                     {},
                     {},
                     {}});
        } else if (type == "thinking"_L1) {
            QString text = block.value("thinking"_L1).toString();
            if (text.isEmpty())
                text = QStringLiteral("(thinking not recorded)");
            record->steps.push_back({StepKind::Thinking, false, text, {}, {}, {}});
        } else if (type == "redacted_thinking"_L1) {
            record->steps.push_back({StepKind::Thinking, false, QStringLiteral("(redacted thinking)"), {}, {}, {}});
        } else if (type == "tool_use"_L1 || type == "server_tool_use"_L1) {
            record->steps.push_back({StepKind::ToolCall,
                                     false,
                                     {},
                                     block.value("id"_L1).toString(),
                                     block.value("name"_L1).toString(),
                                     compactJson(block.value("input"_L1))});
        } else if (type == "tool_result"_L1 || type.endsWith("_tool_result"_L1)) {
            const QString text = contentText(block.value("content"_L1));
            record->steps.push_back({StepKind::ToolResult,
                                     block.value("is_error"_L1).toBool(),
                                     text,
                                     block.value("tool_use_id"_L1).toString(),
                                     {},
                                     {}});
            if (record->spawnedAgentId.isEmpty())
                record->spawnedAgentId = agentIdIn(text);
        } else if (type == "image"_L1 || type == "document"_L1) {
            const QJsonObject source = block.value("source"_L1).toObject();
            record->steps.push_back({StepKind::Image, false, source.value("media_type"_L1).toString(type), {}, {}, {}});
        }
        // Other block types (future ones included) carry nothing to show.
    }
}

/// Converts a user/assistant record's "message"; returns false when the record has none.
bool convertMessage(const QJsonObject &object, Record *record)
{
    const QJsonObject message = object.value("message"_L1).toObject();
    if (message.isEmpty())
        return false;
    const bool fromUser = record->role == "user"_L1;
    convertContent(message.value("content"_L1), fromUser, object.value("isMeta"_L1).toBool(), record);
    if (fromUser) {
        const bool hasResult = std::any_of(record->steps.cbegin(), record->steps.cend(),
                                           [](const PendingStep &s) { return s.kind == StepKind::ToolResult; });
        if (hasResult)
            record->role = u"tool"_s;
        record->newTurn = !hasResult;
        const QJsonObject toolUseResult = object.value("toolUseResult"_L1).toObject();
        if (const QString agent = toolUseResult.value("agentId"_L1).toString(); !agent.isEmpty())
            record->spawnedAgentId = agent;
        return true;
    }
    record->model = message.value("model"_L1).toString();
    record->messageId = message.value("id"_L1).toString();
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

/// Places the records' steps into threads: assistant lines with the same message id join one turn,
/// consecutive tool results share a turn, and usage counts once per message id + request id.
class Placer
{
public:
    explicit Placer(Trace *trace)
        : m_trace(trace)
    {
    }

    int threadFor(const QString &key, const QString &title)
    {
        if (key.isEmpty())
            return 0;
        const auto it = m_threads.constFind(key);
        if (it != m_threads.cend())
            return *it;
        const int index = addThread(m_trace, key, title, 0);
        m_threads.insert(key, index);
        return index;
    }

    void place(Record &record, int threadIndex)
    {
        ThreadBuilder builder(m_trace, threadIndex);
        TraceTurn *turn = builder.currentTurn();
        if (record.role == "assistant"_L1) {
            if (!turn || turn->role != "assistant"_L1 || record.messageId.isEmpty() ||
                turn->messageId != record.messageId)
                turn = &builder.beginTurn(record.role, record.line);
            turn->lastLine = std::max(turn->lastLine, record.line);
            turn->messageId = record.messageId;
            if (turn->model.isEmpty())
                turn->model = record.model;
            if (turn->attributionSkill.isEmpty())
                turn->attributionSkill = record.skill;
        } else if (record.newTurn || record.role == "system"_L1) {
            turn = &builder.beginTurn(record.role, record.line);
        } else {
            turn = &builder.turnFor(record.role, record.line);
        }
        if (turn->timestamp.isEmpty())
            turn->timestamp = record.timestamp;
        const int turnIndex = int(builder.thread().turns.size()) - 1;
        if (record.usage)
            addUsage(record, threadIndex, turnIndex);
        for (PendingStep &pending : record.steps) {
            TraceStep &step = builder.addStep(pending.kind, std::move(pending.text), record.line);
            step.isError = pending.isError;
            step.toolId = std::move(pending.toolId);
            step.toolName = std::move(pending.toolName);
            step.input = std::move(pending.input);
            if (step.kind == StepKind::ToolResult && !record.spawnedAgentId.isEmpty())
                m_spawningResults.insert(record.spawnedAgentId, {threadIndex, int(builder.thread().steps.size()) - 1});
        }
    }

    /// The step (thread, index) of the tool result that names @p agentId, if any.
    std::optional<std::pair<int, int>> spawningResult(const QString &agentId) const
    {
        const auto it = m_spawningResults.constFind(agentId);
        return it == m_spawningResults.cend() ? std::nullopt : std::optional(*it);
    }

private:
    void addUsage(const Record &record, int threadIndex, int turnIndex)
    {
        const QString key = record.messageId.isEmpty() ? QString() : record.messageId + u':' + record.requestId;
        if (key.isEmpty()) {
            m_trace->threads[size_t(threadIndex)].turns[size_t(turnIndex)].usage = record.usage;
            return;
        }
        const auto owner = m_usageOwners.constFind(key);
        if (owner == m_usageOwners.cend()) {
            m_usageOwners.insert(key, {threadIndex, turnIndex});
            m_trace->threads[size_t(threadIndex)].turns[size_t(turnIndex)].usage = record.usage;
            return;
        }
        // The same response written again (one line per content block, or a streaming partial): keep the
        // line with the most output, never add it twice.
        std::optional<TokenUsage> &kept = m_trace->threads[size_t(owner->first)].turns[size_t(owner->second)].usage;
        if (!kept || record.usage->output > kept->output)
            kept = record.usage;
    }

    Trace *m_trace;
    QHash<QString, int> m_threads;
    QHash<QString, std::pair<int, int>> m_usageOwners;
    QHash<QString, std::pair<int, int>> m_spawningResults;
};

/// Orders records so that each comes after its parent (parentUuid, or logicalParentUuid after a
/// compaction); children keep file order. Files written in order stay as they are.
std::vector<int> parentOrder(const std::vector<Record> &records)
{
    std::vector<int> order(records.size());
    QHash<QString, int> byUuid;
    byUuid.reserve(qsizetype(records.size()));
    for (int i = 0; i < int(records.size()); ++i)
        if (!records[size_t(i)].uuid.isEmpty())
            byUuid.insert(records[size_t(i)].uuid, i);
    std::vector<int> parent(records.size(), -1);
    bool inOrder = true;
    for (int i = 0; i < int(records.size()); ++i) {
        order[size_t(i)] = i;
        const QString &p = records[size_t(i)].parentUuid;
        if (p.isEmpty())
            continue;
        const int index = byUuid.value(p, -1);
        if (index >= 0 && index != i) {
            parent[size_t(i)] = index;
            inOrder = inOrder && index < i;
        }
    }
    if (inOrder)
        return order;
    std::vector<std::vector<int>> children(records.size());
    std::vector<int> roots;
    for (int i = 0; i < int(records.size()); ++i)
        (parent[size_t(i)] >= 0 ? children[size_t(parent[size_t(i)])] : roots).push_back(i);
    order.clear();
    std::vector<bool> seen(records.size(), false);
    std::vector<int> stack(roots.rbegin(), roots.rend());
    while (!stack.empty()) {
        const int i = stack.back();
        stack.pop_back();
        if (seen[size_t(i)])
            continue;
        seen[size_t(i)] = true;
        order.push_back(i);
        const auto &kids = children[size_t(i)];
        stack.insert(stack.end(), kids.rbegin(), kids.rend());
    }
    // A parent cycle leaves records unreached; they still belong in the trace, in file order.
    for (int i = 0; i < int(records.size()); ++i)
        if (!seen[size_t(i)])
            order.push_back(i);
    return order;
}

/// As QByteArray::trimmed().isEmpty(), without the copy.
bool isBlank(std::string_view line)
{
    return std::all_of(line.cbegin(), line.cend(), [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); });
}

struct FileResult
{
    std::vector<Record> records;
    QString title;
    int titleRank = 0;
};

/// Reads one Claude Code JSONL file into records (or stream-json when @p streamJson).
bool readRecords(const QString &path, const QString &skipPrefix, bool streamJson, Progress *progress, Trace *trace,
                 FileResult *out, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return false;
    }
    LineReader reader(&file);
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
        if (progress && !progress->update(reader.position()))
            return false;
        if (status == LineReader::Status::TooLong) {
            skip(QStringLiteral("line longer than %1 MiB").arg(LineReader::MaxLineBytes >> 20));
            continue;
        }
        if (isBlank(view))
            continue;
        {
            Record record;
            record.line = lineNumber;
            const auto outcome = fast.read(view, streamJson, isMainFile, &record);
            if (outcome == ClaudeLineReader::Outcome::Record)
                out->records.push_back(std::move(record));
            if (outcome != ClaudeLineReader::Outcome::Slow)
                continue;
        }
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
        if (type == "custom-title"_L1) {
            setTitle(object.value("customTitle"_L1).toString(object.value("title"_L1).toString()), 3);
            continue;
        }
        Record record;
        record.line = lineNumber;
        record.uuid = object.value("uuid"_L1).toString();
        record.parentUuid = object.value("parentUuid"_L1).toString();
        if (record.parentUuid.isEmpty())
            record.parentUuid = object.value("logicalParentUuid"_L1).toString();
        record.timestamp = object.value("timestamp"_L1).toString();
        record.requestId = object.value("requestId"_L1).toString();
        record.skill = object.value("attributionSkill"_L1).toString();
        if (streamJson)
            record.threadKey = object.value("parent_tool_use_id"_L1).toString();
        else if (isMainFile && object.value("isSidechain"_L1).toBool())
            record.threadKey = u"sidechain"_s;
        if (type == "user"_L1 || type == "assistant"_L1) {
            record.role = type;
            if (!convertMessage(object, &record)) {
                skip(QStringLiteral("%1 record without a \"message\"").arg(type));
                continue;
            }
        } else if (type == "system"_L1) {
            record.role = type;
            bool isError = false;
            record.steps.push_back({StepKind::System, false, systemText(object, &isError), {}, {}, {}});
            record.steps.back().isError = isError;
            if (streamJson && record.model.isEmpty())
                record.model = object.value("model"_L1).toString();
        } else if (type == "result"_L1 && streamJson) {
            record.role = u"system"_s;
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
            record.steps.push_back({StepKind::System, isError, text, {}, {}, {}});
        } else {
            continue; // bookkeeping records (queue-operation, file-history-*, progress, ...) and unknown types
        }
        out->records.push_back(std::move(record));
    }
    return true;
}

QString subagentTitle(const QString &jsonlPath, const std::vector<Record> &records)
{
    QFile meta(jsonlPath.chopped(QStringLiteral(".jsonl").size()) + QStringLiteral(".meta.json"));
    if (meta.size() < 1024 * 1024 && meta.open(QIODevice::ReadOnly)) {
        const QJsonObject object = QJsonDocument::fromJson(meta.readAll()).object();
        const QString type = object.value("agentType"_L1).toString();
        const QString description = object.value("description"_L1).toString();
        if (!type.isEmpty() || !description.isEmpty())
            return QStringList{type, description}.filter(QRegularExpression(u"."_s)).join(u": "_s);
    }
    for (const Record &record : records)
        for (const PendingStep &step : record.steps)
            if (step.kind == StepKind::UserText)
                return step.text.left(80).simplified();
    return QFileInfo(jsonlPath).completeBaseName();
}

/// Attaches subagent thread @p thread to the call that spawned it: the call whose result names its
/// agent id, else the first Task/Agent call of the main thread that has no subagent yet.
void linkSubagent(Trace *trace, int thread, const QString &agentId, const Placer &placer)
{
    TraceThread &main = trace->threads[0];
    int callStep = -1;
    if (const auto result = placer.spawningResult(agentId); result && result->first == 0)
        callStep = main.steps[size_t(result->second)].paired;
    if (callStep >= 0 && main.steps[size_t(callStep)].childThread >= 0)
        callStep = -1; // one call spawns one subagent; a second claimant stays a thread of its own
    if (callStep < 0) {
        for (int i = 0; i < int(main.steps.size()); ++i) {
            const TraceStep &step = main.steps[size_t(i)];
            if (step.kind == StepKind::ToolCall && step.childThread < 0 &&
                (step.toolName == "Task"_L1 || step.toolName == "Agent"_L1)) {
                callStep = i;
                break;
            }
        }
    }
    trace->threads[size_t(thread)].parentThread = 0;
    if (callStep >= 0) {
        trace->threads[size_t(thread)].parentStep = callStep;
        main.steps[size_t(callStep)].childThread = thread;
    }
}

} // namespace

bool importClaudeCode(const QString &path, Progress &progress, Trace *trace, QString *error)
{
    FileResult main;
    if (!readRecords(path, QString(), false, &progress, trace, &main, error))
        return false;
    trace->title = main.title;
    addThread(trace, QFileInfo(path).completeBaseName(), QStringLiteral("Main session"));
    // The main thread's steps are all known now: its vector is sized once instead of doubling, which on a
    // large session spares copies and tens of megabytes of spare capacity.
    size_t mainSteps = 0;
    for (const Record &record : main.records)
        if (record.threadKey.isEmpty())
            mainSteps += record.steps.size();
    trace->threads[0].steps.reserve(mainSteps);
    Placer placer(trace);
    for (int index : parentOrder(main.records)) {
        Record &record = main.records[size_t(index)];
        placer.place(record, placer.threadFor(record.threadKey, QStringLiteral("Sidechain")));
    }
    main.records = {};

    // Subagents live next to the session: <sessionId>/subagents/agent-<id>.jsonl.
    const QFileInfo info(path);
    const QDir dir(info.dir().filePath(info.completeBaseName() + QStringLiteral("/subagents")));
    std::vector<std::pair<int, QString>> subagents;
    for (const QString &name : dir.entryList({QStringLiteral("*.jsonl")}, QDir::Files, QDir::Name)) {
        FileResult sub;
        QString subError;
        if (!readRecords(dir.filePath(name), name, false, nullptr, trace, &sub, &subError)) {
            trace->skip(0, subError);
            continue;
        }
        QString agentId = QFileInfo(name).completeBaseName();
        if (agentId.startsWith("agent-"_L1))
            agentId.remove(0, 6);
        const int thread = addThread(trace, agentId, subagentTitle(dir.filePath(name), sub.records), 0);
        for (int index : parentOrder(sub.records))
            placer.place(sub.records[size_t(index)], thread);
        subagents.emplace_back(thread, agentId);
    }
    finishTrace(trace);
    for (const auto &[thread, agentId] : subagents)
        linkSubagent(trace, thread, agentId, placer);
    return true;
}

bool importClaudeStreamJson(const QString &path, Progress &progress, Trace *trace, QString *error)
{
    FileResult result;
    if (!readRecords(path, QString(), true, &progress, trace, &result, error))
        return false;
    addThread(trace, QFileInfo(path).completeBaseName(), QStringLiteral("Main session"));
    Placer placer(trace);
    for (Record &record : result.records)
        placer.place(record, placer.threadFor(record.threadKey, QStringLiteral("Subagent")));
    finishTrace(trace);
    // A subagent's records name the Task call that spawned it (parent_tool_use_id).
    TraceThread &main = trace->threads[0];
    for (int thread = 1; thread < int(trace->threads.size()); ++thread) {
        for (int i = 0; i < int(main.steps.size()); ++i) {
            TraceStep &step = main.steps[size_t(i)];
            if (step.kind == StepKind::ToolCall && step.toolId == trace->threads[size_t(thread)].id) {
                step.childThread = thread;
                trace->threads[size_t(thread)].parentStep = i;
                break;
            }
        }
    }
    return true;
}

} // namespace sf::trace_import
