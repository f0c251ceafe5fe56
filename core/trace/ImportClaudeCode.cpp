// Claude Code session JSONL (with subagents/ files) and headless stream-json (reference/traces.md 2.1).

#include "trace/ClaudeCodeRecords_p.h"
#include "trace/FlatIndex_p.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryFile>
#include <climits>

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

/// Places the records' steps into threads: assistant lines with the same message id join one turn,
/// consecutive tool results share a turn, and usage counts once per message id + request id. It copies
/// what it remembers of a record, so a record's scratch texts may go once it is placed.
class Placer
{
public:
    explicit Placer(Trace *trace)
        : m_trace(trace)
    {
    }

    int threadFor(TraceText key, const QString &title)
    {
        if (key.isEmpty())
            return 0;
        const auto it = m_threads.constFind(key.bytes());
        if (it != m_threads.cend())
            return *it;
        const int index = addThread(m_trace, key.toString(), title, 0);
        m_threads.insert(m_keys.add(key.utf8()).bytes(), index);
        return index;
    }

    void place(const Record &record, const RecordStore &store, int threadIndex)
    {
        TraceTextStore &texts = *m_trace->texts;
        ThreadBuilder builder(m_trace, threadIndex);
        TraceTurn *turn = builder.currentTurn();
        if (record.role == RecordRole::Assistant) {
            if (!turn || turn->role != m_assistant || record.messageId.isEmpty() ||
                turn->messageId.utf8() != record.messageId.utf8()) {
                turn = &builder.beginTurn(m_assistant, record.line);
                turn->messageId = texts.add(record.messageId.utf8());
            }
            turn->lastLine = std::max(turn->lastLine, record.line);
            if (turn->model.isEmpty())
                turn->model = record.model;
            if (turn->attributionSkill.isEmpty())
                turn->attributionSkill = record.skill;
        } else if (record.newTurn || record.role == RecordRole::System) {
            turn = &builder.beginTurn(recordRoleName(record.role), record.line);
        } else {
            turn = &builder.turnFor(recordRoleName(record.role), record.line);
        }
        if (turn->timestamp.isEmpty())
            turn->timestamp = texts.add(record.timestamp.utf8());
        const int turnIndex = int(builder.thread().turns.size()) - 1;
        if (record.usage)
            addUsage(record, threadIndex, turnIndex);
        const QString spawnedAgentId = record.spawnedAgentId.isEmpty() ? QString() : record.spawnedAgentId.toString();
        for (int i = record.firstStep; i < record.firstStep + record.stepCount; ++i) {
            const PendingStep &pending = store.steps[size_t(i)];
            TraceStep &step = builder.addStep(pending.kind, pending.text, record.line);
            step.isError = pending.isError;
            step.toolId = pending.toolId;
            step.toolName = pending.toolName;
            step.input = pending.input;
            if (step.kind == StepKind::ToolResult && !spawnedAgentId.isEmpty())
                m_spawningResults.insert(spawnedAgentId, {threadIndex, int(builder.thread().steps.size()) - 1});
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
        if (record.messageId.isEmpty()) {
            m_trace->threads[size_t(threadIndex)].turns[size_t(turnIndex)].usage = record.usage;
            return;
        }
        // One response is its message id and request id; the key spells the id's length first, so that no two
        // pairs of ids make the same key.
        const std::string_view messageId = record.messageId.utf8(), requestId = record.requestId.utf8();
        const auto length = quint32(messageId.size());
        m_key.assign(reinterpret_cast<const char *>(&length), sizeof length);
        m_key.append(messageId);
        m_key.append(requestId);
        const int owner = m_usageOwners.value(m_key);
        if (owner < 0) {
            m_usageOwners.insert(m_keys.add(m_key).utf8(), int(m_owners.size()));
            m_owners.emplace_back(threadIndex, turnIndex);
            m_trace->threads[size_t(threadIndex)].turns[size_t(turnIndex)].usage = record.usage;
            return;
        }
        // The same response written again (one line per content block, or a streaming partial): keep the
        // line with the most output, never add it twice.
        const auto [ownerThread, ownerTurn] = m_owners[size_t(owner)];
        std::optional<TokenUsage> &kept = m_trace->threads[size_t(ownerThread)].turns[size_t(ownerTurn)].usage;
        if (!kept || record.usage->output > kept->output)
            kept = record.usage;
    }

    Trace *m_trace;
    const QString m_assistant = u"assistant"_s;
    TraceTextStore m_keys; ///< the thread keys and response keys below point here
    QHash<QByteArrayView, int> m_threads;
    TextIndex m_usageOwners;                   ///< response key to its index in m_owners
    std::vector<std::pair<int, int>> m_owners; ///< (thread, turn) that holds a response's usage
    std::string m_key;                         ///< the response key being looked up
    QHash<QString, std::pair<int, int>> m_spawningResults;
};

/// Orders records so that each comes after its parent (parentUuid, or logicalParentUuid after a
/// compaction); children keep file order. Files written in order stay as they are.
std::vector<int> parentOrder(const std::vector<Record> &records)
{
    std::vector<int> order(records.size());
    QHash<QByteArrayView, int> byUuid;
    byUuid.reserve(qsizetype(records.size()));
    for (int i = 0; i < int(records.size()); ++i)
        if (!records[size_t(i)].uuid.isEmpty())
            byUuid.insert(records[size_t(i)].uuid.bytes(), i);
    std::vector<int> parent(records.size(), -1);
    bool inOrder = true;
    for (int i = 0; i < int(records.size()); ++i) {
        order[size_t(i)] = i;
        const TraceText p = records[size_t(i)].parentUuid;
        if (p.isEmpty())
            continue;
        const int index = byUuid.value(p.bytes(), -1);
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
    /// Takes each record as it is read; false stops the reading, with `stopped` set.
    std::function<bool(Record &)> take;
    qint64 bytesRead = 0; ///< of the file, up to the record being taken
    QString title;
    int titleRank = 0;
    bool stopped = false;
};

/// Whether records taken one by one come in parent order, so that placing each as it is read gives what
/// parentOrder() would: true while no record's uuid has been named as a parent by an earlier record (that
/// parent then comes later, or is written twice and the later one counts). Works on hashes; a collision
/// only costs a needless ordered reading.
class FileOrderCheck
{
public:
    bool accept(const Record &record)
    {
        if (!record.uuid.isEmpty() && m_parents.contains(idHash(record.uuid.utf8())))
            return false;
        if (!record.parentUuid.isEmpty())
            m_parents.insert(idHash(record.parentUuid.utf8()));
        return true;
    }

private:
    HashSet m_parents;
};

/// Reads one Claude Code JSONL file into records (or stream-json when @p streamJson), their texts and
/// steps into @p store.
bool readRecords(const QString &path, const QString &skipPrefix, bool streamJson, Progress *progress, Trace *trace,
                 RecordStore *store, FileResult *out, QString *error)
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

QString subagentTitle(const QString &jsonlPath, const TraceThread &thread)
{
    QFile meta(jsonlPath.chopped(QStringLiteral(".jsonl").size()) + QStringLiteral(".meta.json"));
    if (meta.size() < 1024 * 1024 && meta.open(QIODevice::ReadOnly)) {
        const QJsonObject object = QJsonDocument::fromJson(meta.readAll()).object();
        const QString type = object.value("agentType"_L1).toString();
        const QString description = object.value("description"_L1).toString();
        if (!type.isEmpty() || !description.isEmpty())
            return QStringList{type, description}.filter(QRegularExpression(u"."_s)).join(u": "_s);
    }
    for (const TraceStep &step : thread.steps)
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

/// Reads a file whole, then places its records in parentOrder(); @p thread < 0 places the main file's
/// (into the main thread or a sidechain).
bool readAndPlaceInParentOrder(const QString &path, const QString &skipPrefix, Progress *progress, Trace *trace,
                               Placer *placer, int thread, RecordStore *store, FileResult *file, QString *error)
{
    std::vector<Record> records;
    file->take = [&records](Record &record) {
        records.push_back(std::move(record));
        return true;
    };
    if (!readRecords(path, skipPrefix, false, progress, trace, store, file, error))
        return false;
    for (int index : parentOrder(records)) {
        const Record &record = records[size_t(index)];
        placer->place(record, *store,
                      thread >= 0 ? thread : placer->threadFor(record.threadKey, QStringLiteral("Sidechain")));
    }
    return true;
}

/// One Claude Code import: the trace, where records keep their texts, and the placer they go through.
class ClaudeImport
{
public:
    ClaudeImport(Trace *trace, const QString &mainPath)
        : m_trace(trace)
        , m_mainId(QFileInfo(mainPath).completeBaseName())
    {
        start();
    }

    /// The main session file. Claude Code writes each record after its parent, so records are placed as
    /// they are read and only the placed trace is held. A file that breaks that order (FileOrderCheck) is
    /// read again, whole, and ordered first.
    bool readMainFile(const QString &path, Progress &progress, QString *error)
    {
        FileResult file;
        FileOrderCheck order;
        const qint64 fileBytes = QFileInfo(path).size();
        file.take = [&](Record &record) {
            if (!order.accept(record))
                return false;
            const int thread = m_placer->threadFor(record.threadKey, QStringLiteral("Sidechain"));
            if (thread == 0)
                reserveAhead(&m_trace->threads[0], file.bytesRead, fileBytes);
            m_placer->place(record, *m_store, thread);
            m_store->steps.clear();
            m_store->scratch.clear();
            return true;
        };
        if (!readRecords(path, QString(), false, &progress, m_trace, m_store.get(), &file, error))
            return false;
        if (file.stopped) {
            Trace fresh;
            fresh.path = m_trace->path;
            fresh.format = m_trace->format;
            *m_trace = std::move(fresh);
            start();
            progress.restart();
            file = FileResult();
            if (!readAndPlaceInParentOrder(path, QString(), &progress, m_trace, m_placer.get(), -1, m_store.get(),
                                           &file, error))
                return false;
        }
        m_trace->title = file.title;
        m_store->steps = {};
        m_store->scratch.clear();
        return true;
    }

    /// A subagent's file, as a thread of its own; false (and nothing added) when it cannot be read.
    bool readSubagentFile(const QString &path, const QString &agentId, QString *error)
    {
        const int thread = addThread(m_trace, agentId, QString(), 0);
        FileResult file;
        const bool read = readAndPlaceInParentOrder(path, QFileInfo(path).fileName(), nullptr, m_trace, m_placer.get(),
                                                    thread, m_store.get(), &file, error);
        m_store->steps.clear(); // placed: the placer keeps what it needs of them
        m_store->scratch.clear();
        if (!read) {
            m_trace->threads.pop_back();
            return false;
        }
        m_trace->threads[size_t(thread)].title = subagentTitle(path, m_trace->threads[size_t(thread)]);
        return true;
    }

    const Placer &placer() const { return *m_placer; }

private:
    /// Before a full vector of the main thread would double: room for as many as the whole file will likely
    /// bring, judged by what the part read so far brought (and never less than double, so growth stays
    /// geometric). Doubling a large session's steps and turns over and over touches twice their memory;
    /// capacity reserved and never reached is never touched.
    static void reserveAhead(TraceThread *thread, qint64 bytesRead, qint64 fileBytes)
    {
        auto grow = [&](auto &items) {
            if (items.capacity() - items.size() >= 16 || bytesRead <= 0 || items.size() < 64)
                return;
            const double projected = double(items.size()) * double(fileBytes) / double(bytesRead) * 1.1;
            items.reserve(std::max(items.size() * 2, size_t(std::min(projected, double(INT_MAX)))));
        };
        grow(thread->steps);
        grow(thread->turns);
    }

    void start()
    {
        m_store = std::make_unique<RecordStore>(m_trace->texts.get());
        m_placer = std::make_unique<Placer>(m_trace);
        addThread(m_trace, m_mainId, QStringLiteral("Main session"));
    }

    Trace *m_trace;
    QString m_mainId;
    std::unique_ptr<RecordStore> m_store;
    std::unique_ptr<Placer> m_placer;
};

} // namespace

bool importClaudeCode(const QString &path, Progress &progress, Trace *trace, QString *error)
{
    ClaudeImport import(trace, path);
    if (!import.readMainFile(path, progress, error))
        return false;

    // Subagents live next to the session: <sessionId>/subagents/agent-<id>.jsonl.
    const QFileInfo info(path);
    const QDir dir(info.dir().filePath(info.completeBaseName() + QStringLiteral("/subagents")));
    std::vector<std::pair<int, QString>> subagents;
    for (const QString &name : dir.entryList({QStringLiteral("*.jsonl")}, QDir::Files, QDir::Name)) {
        QString agentId = QFileInfo(name).completeBaseName();
        if (agentId.startsWith("agent-"_L1))
            agentId.remove(0, 6);
        QString subError;
        if (!import.readSubagentFile(dir.filePath(name), agentId, &subError)) {
            trace->skip(0, subError);
            continue;
        }
        subagents.emplace_back(int(trace->threads.size()) - 1, agentId);
    }
    finishTrace(trace);
    for (const auto &[thread, agentId] : subagents)
        linkSubagent(trace, thread, agentId, import.placer());
    return true;
}

bool importClaudeStreamJson(const QString &path, Progress &progress, Trace *trace, QString *error)
{
    // stream-json is in the order it happened: each record is placed as it is read.
    RecordStore store(trace->texts.get());
    addThread(trace, QFileInfo(path).completeBaseName(), QStringLiteral("Main session"));
    Placer placer(trace);
    FileResult result;
    result.take = [&](Record &record) {
        placer.place(record, store, placer.threadFor(record.threadKey, QStringLiteral("Subagent")));
        store.steps.clear();
        store.scratch.clear();
        return true;
    };
    if (!readRecords(path, QString(), true, &progress, trace, &store, &result, error))
        return false;
    finishTrace(trace);
    // A subagent's records name the Task call that spawned it (parent_tool_use_id).
    TraceThread &main = trace->threads[0];
    for (int thread = 1; thread < int(trace->threads.size()); ++thread) {
        const QByteArray id = trace->threads[size_t(thread)].id.toUtf8();
        for (int i = 0; i < int(main.steps.size()); ++i) {
            TraceStep &step = main.steps[size_t(i)];
            if (step.kind == StepKind::ToolCall && step.toolId.bytes() == QByteArrayView(id)) {
                step.childThread = thread;
                trace->threads[size_t(thread)].parentStep = i;
                break;
            }
        }
    }
    return true;
}

bool importClaudeCodeLoglines(const QString &path, Progress &progress, Trace *trace, QString *error)
{
    QByteArray data;
    QJsonValue root;
    if (!readWholeFile(path, &data, error) || !parseJsonDocument(data, path, &root, error))
        return false;
    // The records go back to the JSON Lines they were, in a temporary file the Claude Code reader takes as is.
    QTemporaryFile lines(QDir::temp().filePath(u"skillforge-loglines-XXXXXX.jsonl"_s));
    if (!lines.open()) {
        *error = u"%1: cannot write a temporary file: %2"_s.arg(path, lines.errorString());
        return false;
    }
    for (const QJsonValue &record : root.toObject().value("loglines"_L1).toArray())
        lines.write(QJsonDocument(record.toObject()).toJson(QJsonDocument::Compact) + '\n');
    lines.flush();
    data.clear();
    if (!importClaudeCode(lines.fileName(), progress, trace, error))
        return false;
    trace->path = path;
    if (!trace->threads.empty() && trace->threads[0].id == QFileInfo(lines.fileName()).completeBaseName())
        trace->threads[0].id = QFileInfo(path).completeBaseName();
    return true;
}

} // namespace sf::trace_import
