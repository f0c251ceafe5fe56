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
    if (!readRecords(path, {}, skipPrefix, false, progress, trace, store, file, error))
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
    bool readMainFile(const QString &path, qint64 twoThreadsFromBytes, Progress &progress, QString *error)
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
        if (!readRecordsInTwoParts(path, twoThreadsFromBytes, false, progress, m_trace, m_store.get(), &file, error))
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

bool importClaudeCode(const QString &path, qint64 twoThreadsFromBytes, Progress &progress, Trace *trace, QString *error)
{
    ClaudeImport import(trace, path);
    if (!import.readMainFile(path, twoThreadsFromBytes, progress, error))
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

bool importClaudeStreamJson(const QString &path, qint64 twoThreadsFromBytes, Progress &progress, Trace *trace,
                            QString *error)
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
    if (!readRecordsInTwoParts(path, twoThreadsFromBytes, true, progress, trace, &store, &result, error))
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
    if (!importClaudeCode(lines.fileName(), TraceImportOptions().twoThreadsFromBytes, progress, trace, error))
        return false;
    trace->path = path;
    if (!trace->threads.empty() && trace->threads[0].id == QFileInfo(lines.fileName()).completeBaseName())
        trace->threads[0].id = QFileInfo(path).completeBaseName();
    return true;
}

} // namespace sf::trace_import
