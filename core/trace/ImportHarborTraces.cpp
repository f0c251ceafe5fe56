// Harbor's exported traces (harbor.utils.traces_utils, `harbor traces export`): rows of {conversations: [{role,
// content}], agent, model, model_provider, date, task, episode, run_id, trial_name, result, trace_source?}, written
// as a JSON list (the *.traces.json beside a job's trajectories) or as JSON Lines (a dataset's to_json). Each row is
// one episode: the conversation up to one agent step, so a trial's episode N repeats episodes 0..N-1 before it.
// An assistant message is harbor's rendering of an ATIF agent step: "<think>reasoning</think>", the message, and
// each tool call as "<tool_call>\n{"name": ..., "arguments": ...}\n</tool_call>"; observations come back as user
// messages. The rows carry no token counts.

#include "trace/TraceImport_p.h"

#include <QJsonDocument>
#include <QRegularExpression>

namespace sf::trace_import {

namespace {

using namespace Qt::StringLiterals;

struct Row
{
    QJsonObject record;
    qint64 line = 0; ///< JSON Lines: the row's line; a JSON list: 0
};

/// The rows of a JSON list or of JSON Lines; a line that is not a JSON object is skipped and listed.
bool readRows(const QString &path, Trace *trace, std::vector<Row> *rows, QString *error)
{
    QByteArray data;
    if (!readWholeFile(path, &data, error))
        return false;
    if (data.trimmed().startsWith('[')) {
        QJsonValue root;
        if (!parseJsonDocument(data, path, &root, error))
            return false;
        for (const QJsonValue &value : root.toArray())
            rows->push_back({value.toObject(), 0});
        return true;
    }
    qint64 lineNumber = 0;
    for (const QByteArray &line : data.split('\n')) {
        ++lineNumber;
        if (line.trimmed().isEmpty())
            continue;
        QJsonParseError parseError{};
        const QJsonDocument doc = QJsonDocument::fromJson(line, &parseError);
        if (!doc.isObject()) {
            trace->skip(lineNumber, parseError.error != QJsonParseError::NoError
                                        ? u"not valid JSON (%1)"_s.arg(parseError.errorString())
                                        : u"not a JSON object"_s);
            continue;
        }
        rows->push_back({doc.object(), lineNumber});
    }
    return true;
}

bool sameTrial(const QJsonObject &a, const QJsonObject &b)
{
    for (QLatin1StringView key : {"run_id"_L1, "trial_name"_L1, "trace_source"_L1, "agent"_L1})
        if (a.value(key) != b.value(key))
            return false;
    return true;
}

/// Whether @p shorter's messages begin @p longer's: an earlier episode of the same trial.
bool isPrefix(const QJsonArray &shorter, const QJsonArray &longer)
{
    if (shorter.size() > longer.size())
        return false;
    for (qsizetype i = 0; i < shorter.size(); ++i)
        if (shorter.at(i) != longer.at(i))
            return false;
    return true;
}

/// One assistant message as harbor wrote it: thinking, text and tool calls as steps of their own.
void addAssistantSteps(ThreadBuilder &builder, const QString &content, qint64 line)
{
    static const QRegularExpression tags(u"<think>(.*?)</think>|<tool_call>(.*?)</tool_call>"_s,
                                         QRegularExpression::DotMatchesEverythingOption);
    auto addText = [&](QStringView text) {
        if (const QString trimmed = text.trimmed().toString(); !trimmed.isEmpty())
            builder.addStep(StepKind::AssistantText, trimmed, line);
    };
    qsizetype at = 0;
    for (auto it = tags.globalMatch(content); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        addText(QStringView(content).mid(at, match.capturedStart() - at));
        at = match.capturedEnd();
        if (match.captured(0).startsWith("<think>"_L1)) {
            builder.addStep(StepKind::Thinking, match.captured(1).trimmed(), line);
            continue;
        }
        const QJsonObject call = QJsonDocument::fromJson(match.captured(2).trimmed().toUtf8()).object();
        if (call.contains("name"_L1)) // harbor's calls have no id: nothing pairs them with the observation
            builder.addToolCall(QString(), call.value("name"_L1).toString(), compactJson(call.value("arguments"_L1)),
                                line);
        else
            addText(match.captured(0)); // not the JSON harbor writes: kept as the text it is
    }
    addText(QStringView(content).mid(at));
}

void readConversation(Trace *trace, const Row &row)
{
    const QJsonObject &record = row.record;
    QStringList title;
    for (QLatin1StringView key : {"trial_name"_L1, "episode"_L1, "trace_source"_L1})
        if (const QString value = record.value(key).toString(); !value.isEmpty())
            title.append(value);
    // Trials share episode names; the thread's id names both.
    const QString id =
        QStringList({record.value("trial_name"_L1).toString(), record.value("episode"_L1).toString()}).join(u'/');
    const int thread = addThread(trace, id, title.join(u" · "_s));
    ThreadBuilder builder(trace, thread);
    const QString model = record.value("model"_L1).toString();
    for (const QJsonValue &value : record.value("conversations"_L1).toArray()) {
        const QJsonObject message = value.toObject();
        const QString role = message.value("role"_L1).toString();
        const QString content = contentText(message.value("content"_L1));
        if (role == "assistant"_L1) {
            builder.beginTurn(role, row.line).model = model;
            addAssistantSteps(builder, content, row.line);
        } else if (role == "user"_L1) {
            builder.beginTurn(role, row.line);
            builder.addStep(StepKind::UserText, content, row.line);
        } else if (role == "system"_L1) {
            builder.beginTurn(role, row.line);
            builder.addStep(StepKind::System, content, row.line);
        } else {
            trace->skip(row.line, u"%1: a message with role \"%2\", which harbor's traces do not write"_s.arg(
                                      title.join(u" · "_s), role));
        }
    }
}

} // namespace

bool isHarborTraceRecord(const QJsonObject &record)
{
    const QJsonArray conversations = record.value("conversations"_L1).toArray();
    return !conversations.isEmpty() && conversations.first().toObject().contains("role"_L1);
}

bool importHarborTraces(const QString &path, Trace *trace, QString *error)
{
    std::vector<Row> rows;
    if (!readRows(path, trace, &rows, error))
        return false;
    qint64 read = 0, repeated = 0;
    for (size_t i = 0; i < rows.size(); ++i) {
        const QJsonObject &record = rows[i].record;
        if (!record.value("conversations"_L1).isArray()) {
            trace->skip(rows[i].line, u"row %1 has no \"conversations\" list"_s.arg(i + 1));
            continue;
        }
        // Episode N holds episodes 0..N-1 of its trial: each conversation is read once, as its longest episode.
        if (i + 1 < rows.size() && sameTrial(record, rows[i + 1].record) &&
            isPrefix(record.value("conversations"_L1).toArray(),
                     rows[i + 1].record.value("conversations"_L1).toArray())) {
            ++repeated;
            continue;
        }
        readConversation(trace, rows[i]);
        ++read;
    }
    if (read == 0) {
        *error = u"no row with a \"conversations\" list of {role, content} messages"_s;
        return false;
    }
    const QJsonObject first = rows.front().record;
    const QString agent = first.value("agent"_L1).toString(), model = first.value("model"_L1).toString();
    trace->title = first.value("task"_L1).toString();
    if (trace->title.isEmpty())
        trace->title = model.isEmpty() ? agent : u"%1 — %2"_s.arg(agent, model);
    if (repeated > 0)
        trace->notes.append(u"%1 of %2 rows are earlier episodes that a later row of the same trial repeats in full: "
                            "each conversation is read once, as its last episode"_s.arg(repeated)
                                .arg(qint64(rows.size())));
    trace->notes.append(u"harbor's exported traces carry no token counts; the trajectory.json they were exported "
                        "from has them"_s);
    finishTrace(trace);
    return true;
}

} // namespace sf::trace_import
