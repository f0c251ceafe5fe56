// Format detection and dispatch, plain text, and upskill run folders.

#include "trace/TraceImport.h"

#include "trace/TraceImport_p.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QStringDecoder>
#include <algorithm>

namespace sf {

using namespace Qt::StringLiterals;
using namespace trace_import;

namespace {

constexpr qint64 HeadBytes = 64 * 1024;
constexpr qint64 DetectLineBytes = 64 * 1024 * 1024;

const QStringList &formats()
{
    static const QStringList names = {
        u"claude-code"_s,   u"claude-stream-json"_s, u"codex"_s,       u"openai-messages"_s, u"fast-agent"_s,
        u"smolagents"_s,    u"smolagents-answers"_s, u"atif"_s,        u"harbor-traces"_s,   u"inspect-json"_s,
        u"inspect-eval"_s,  u"upskill-run"_s,        u"claude-code-loglines"_s, u"text"_s};
    return names;
}

/// What a JSON file that is not a trace looks like, and where it belongs; empty when it is nothing known.
QString describeNonTraceJson(const QJsonValue &root)
{
    const QJsonObject object = root.toObject();
    const QJsonObject first = root.toArray().first().toObject();
    if (object.value("evals"_L1).isArray() || (first.contains("prompt"_L1) && first.contains("expected_output"_L1)))
        return u"a skill-creator evals.json (test cases), not a trace: use it as a test suite (eval --tests FILE, or "
               "New Evaluation's Test suite)"_s;
    if (object.contains("run_summary"_L1) || (object.value("runs"_L1).isArray() && object.contains("metadata"_L1)))
        return u"a skill-creator benchmark.json (a benchmark's results), not a trace"_s;
    if ((object.contains("expectations"_L1) || object.contains("assertion_results"_L1)) &&
        object.contains("summary"_L1))
        return u"a skill-creator grading.json (one run's graded expectations), not a trace"_s;
    if (object.contains("total_tokens"_L1) && object.contains("duration_ms"_L1))
        return u"a skill-creator timing.json (one run's tokens and time), not a trace"_s;
    if (first.contains("query"_L1) && first.contains("should_trigger"_L1))
        return u"a trigger query set ({query, should_trigger}), not a trace"_s;
    if (object.value("cases"_L1).isArray() || (first.contains("input"_L1) && first.contains("expected"_L1)))
        return u"a test suite (upskill's test cases), not a trace: use it with eval --tests FILE"_s;
    if (object.contains("run_id"_L1) && object.contains("skill"_L1) && object.contains("models"_L1))
        return u"a Skillforge run.json, not a trace: its run folder opens in the Runs and Compare views"_s;
    return {};
}

/// Whether nothing but whitespace is left in @p file from where it stands; leaves it where it was.
bool onlyWhitespaceFollows(QFile *file)
{
    const qint64 at = file->pos();
    bool blank = true;
    while (blank && !file->atEnd()) {
        const QByteArray chunk = file->read(HeadBytes);
        blank = chunk.isEmpty() || std::all_of(chunk.cbegin(), chunk.cend(),
                                               [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; });
        if (chunk.isEmpty())
            break;
    }
    file->seek(at);
    return blank;
}

bool isJsonLinesFormat(const QString &format)
{
    return format == "claude-code"_L1 || format == "claude-stream-json"_L1 || format == "codex"_L1;
}

QString triedList()
{
    return formats().join(u", "_s);
}

/// Appends the threads of @p other (imported from another file) to @p trace.
void appendThreads(Trace *trace, Trace &&other, const QString &fileName)
{
    const int offset = int(trace->threads.size());
    for (TraceThread &thread : other.threads) {
        if (thread.parentThread >= 0)
            thread.parentThread += offset;
        for (TraceStep &step : thread.steps)
            if (step.childThread >= 0)
                step.childThread += offset;
        if (thread.parentThread < 0)
            thread.title = fileName;
        trace->threads.push_back(std::move(thread));
    }
    for (const SkippedRecord &skipped : other.skipped)
        trace->skip(skipped.line, QStringLiteral("%1: %2").arg(fileName, skipped.reason));
    if (!trace->reportedCostUsd)
        trace->reportedCostUsd = other.reportedCostUsd;
    for (const QString &note : std::as_const(other.notes))
        trace->notes.append(QStringLiteral("%1: %2").arg(fileName, note));
    trace->texts->keepAlive(std::move(other.texts)); // the moved steps' texts live there
}

bool importText(const QString &path, Trace *trace, QString *error)
{
    QByteArray data;
    if (!readWholeFile(path, &data, error))
        return false;
    QStringDecoder decoder(QStringDecoder::Utf8);
    const QString text = decoder.decode(data);
    if (decoder.hasError() || data.contains('\0')) {
        *error = QStringLiteral("%1: not a trace in any known format, and not UTF-8 text (tried: %2)")
                     .arg(path, triedList());
        return false;
    }
    addThread(trace, QString(), QFileInfo(path).fileName());
    ThreadBuilder builder(trace, 0);
    builder.beginTurn(u"user"_s, 1);
    builder.addStep(StepKind::UserText, text, 1);
    trace->title = text.section(u'\n', 0, 0).left(120).trimmed();
    finishTrace(trace);
    return true;
}

Result<Trace> importFolder(const QString &path, const TraceImportOptions &options)
{
    const QDir dir(path);
    QStringList files;
    if (dir.exists(u"results.json"_s)) {
        files.append(dir.filePath(u"results.json"_s));
    } else if (dir.exists(u"run_result.json"_s)) {
        QFile file(dir.filePath(u"run_result.json"_s));
        const QJsonObject run =
            file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object() : QJsonObject();
        const QString history = run.value("session_history_file"_L1).toString();
        if (history.isEmpty())
            return Result<Trace>::failure(QStringLiteral("%1: run_result.json names no session_history_file")
                                              .arg(dir.filePath(u"run_result.json"_s)));
        files.append(QFileInfo(history).isAbsolute() ? history : dir.filePath(history));
    } else {
        for (const QString &name : dir.entryList({u"history_*.json"_s}, QDir::Files, QDir::Name))
            if (!name.endsWith("_previous.json"_L1))
                files.append(dir.filePath(name));
    }
    if (files.isEmpty())
        return Result<Trace>::failure(
            QStringLiteral("%1: a folder, but not an upskill run or fast-agent session (no results.json, "
                           "run_result.json or history_*.json)")
                .arg(path));
    Trace trace;
    trace.path = path;
    trace.format = u"upskill-run"_s;
    trace.title = dir.dirName();
    for (const QString &file : files) {
        TraceImportOptions fileOptions = options;
        fileOptions.format.clear();
        Result<Trace> part = importTrace(file, fileOptions);
        if (!part)
            return part;
        appendThreads(&trace, std::move(*part.value), QFileInfo(file).fileName());
    }
    return Result<Trace>::success(std::move(trace));
}

} // namespace

QStringList traceFormats()
{
    return formats();
}

QString traceImportCancelledMessage()
{
    return QStringLiteral("import cancelled");
}

namespace trace_import {

QString detectJsonLinesFormat(const QJsonObject &first)
{
    static const QStringList codexTypes = {u"session_meta"_s, u"response_item"_s, u"turn_context"_s, u"event_msg"_s,
                                           u"compacted"_s};
    const QString type = first.value("type"_L1).toString();
    if (first.value("payload"_L1).isObject() && codexTypes.contains(type))
        return u"codex"_s;
    // Older Codex sessions: a bare header {id, timestamp, instructions | git}, or bare response items.
    if (type.isEmpty() && first.contains("id"_L1) && first.contains("timestamp"_L1) &&
        (first.contains("instructions"_L1) || first.contains("git"_L1)))
        return u"codex"_s;
    if (isBareCodexItem(first))
        return u"codex"_s;
    if (isHarborTraceRecord(first))
        return u"harbor-traces"_s;
    if (first.contains("session_id"_L1) || first.contains("parent_tool_use_id"_L1) || type == "stream_event"_L1)
        return u"claude-stream-json"_s;
    // smolagents' benchmark answers: one question's run per line.
    if (first.contains("intermediate_steps"_L1) && (first.contains("question"_L1) || first.contains("answer"_L1)))
        return u"smolagents-answers"_s;
    if (first.contains("sessionId"_L1) || first.contains("parentUuid"_L1) || first.contains("leafUuid"_L1) ||
        (first.contains("uuid"_L1) && !type.isEmpty()))
        return u"claude-code"_s;
    // Claude Code records stripped of their ids (shared or trimmed sessions): {type, message: {role, content}}. The
    // reader goes by the record's type, so a message with content and no role reads as well.
    const QJsonObject message = first.value("message"_L1).toObject();
    if ((type == "user"_L1 || type == "assistant"_L1) &&
        (message.contains("role"_L1) || message.contains("content"_L1)))
        return u"claude-code"_s;
    return QString();
}

QString detectJsonDocumentFormat(const QJsonValue &root)
{
    const QJsonObject object = root.toObject();
    if (object.value("schema_version"_L1).toString().startsWith("ATIF"_L1))
        return u"atif"_s;
    // claude-code-transcripts' export: the session's records as {"loglines": [...]}.
    if (object.value("loglines"_L1).isArray())
        return u"claude-code-loglines"_s;
    if (object.value("eval"_L1).isObject() && (object.contains("samples"_L1) || object.contains("version"_L1)))
        return u"inspect-json"_s;
    if (isHarborTraceRecord(root.toArray().first().toObject()))
        return u"harbor-traces"_s;
    const QJsonArray list = root.isArray()                ? root.toArray()
                            : object.contains("steps"_L1) ? object.value("steps"_L1).toArray()
                                                          : object.value("messages"_L1).toArray();
    if (list.isEmpty())
        return QString();
    bool roles = false, smol = false, fast = false, allContentLists = true, toolRole = false;
    for (const QJsonValue &value : list) {
        const QJsonObject item = value.toObject();
        if (item.contains("step_number"_L1) || item.contains("system_prompt"_L1) || item.contains("model_output"_L1) ||
            item.contains("observations"_L1) || (item.contains("task"_L1) && !item.contains("role"_L1)))
            smol = true;
        if (item.contains("role"_L1))
            roles = true;
        if (item.contains("channels"_L1) || item.value("tool_calls"_L1).isObject() ||
            item.contains("tool_results"_L1) || item.contains("is_template"_L1))
            fast = true;
        allContentLists = allContentLists && item.value("content"_L1).isArray();
        toolRole = toolRole || item.value("role"_L1).toString() == "tool"_L1;
    }
    if (smol && !roles)
        return u"smolagents"_s;
    if (!roles)
        return QString();
    if (fast || (object.contains("messages"_L1) && allContentLists && !toolRole))
        return u"fast-agent"_s;
    return u"openai-messages"_s;
}

} // namespace trace_import

QString detectTraceFormat(const QString &path, QString *why)
{
    auto fail = [&](const QString &reason) {
        if (why)
            *why = reason;
        return QString();
    };
    const QFileInfo info(path);
    if (info.isDir())
        return u"upskill-run"_s;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("%1: %2").arg(path, file.errorString()));
    const QByteArray head = file.read(HeadBytes);
    if (head.startsWith("PK\x03\x04"))
        return u"inspect-eval"_s;
    const QByteArray trimmed = head.trimmed();
    const bool bom = trimmed.startsWith("\xEF\xBB\xBF");
    const char first = trimmed.isEmpty() ? '\0' : trimmed.at(bom ? 3 : 0);
    if (first == '{') {
        // JSON Lines: judge by the first records that parse (a broken line is passed over). Whole lines are
        // read, since a first prompt can be far longer than the head.
        file.seek(0);
        QList<QJsonObject> records;
        for (int i = 0; i < 20 && !file.atEnd(); ++i) {
            const QByteArray line = file.readLine(DetectLineBytes);
            const QJsonObject object = QJsonDocument::fromJson(line).object();
            if (object.isEmpty())
                continue;
            // A file that holds one JSON object is a JSON document however it is laid out: judged as one first,
            // so that a document written on one line (json.dump without indent) reads as it does indented.
            if (records.isEmpty() && onlyWhitespaceFollows(&file))
                if (const QString format = detectJsonDocumentFormat(object); !format.isEmpty())
                    return format;
            records.append(object);
            if (const QString format = detectJsonLinesFormat(object); !format.isEmpty())
                return format;
        }
        // Several JSON values, one a line: JSON Lines in no shape known, which a whole-document parse would only
        // report as garbage after the first line.
        if (records.size() >= 2)
            return fail(QStringLiteral("%1: %2 (tried: %3)").arg(path, describeUnknownJsonLines(records), triedList()));
    }
    // A NUL byte in a JSON Lines file is one bad line; anywhere else it means binary data.
    if (head.contains('\0') && first != '{')
        return fail(
            QStringLiteral("%1: binary data, not a trace in any known format (tried: %2)").arg(path, triedList()));
    if (first == '{' || first == '[') {
        file.close();
        QByteArray data;
        QString error;
        if (!readWholeFile(path, &data, &error))
            return fail(error);
        QJsonValue root;
        if (!parseJsonDocument(data, path, &root, &error))
            return fail(QStringLiteral("%1 (tried: %2)").arg(error, triedList()));
        const QString format = detectJsonDocumentFormat(root);
        if (format.isEmpty()) {
            // Files that sit beside traces (test suites, skill-creator's workspace files) are named for what
            // they are, with where they belong.
            if (const QString what = describeNonTraceJson(root); !what.isEmpty())
                return fail(QStringLiteral("%1: %2").arg(path, what));
            return fail(
                QStringLiteral("%1: JSON, but not a trace in any known format (tried: %2)").arg(path, triedList()));
        }
        return format;
    }
    QStringDecoder decoder(QStringDecoder::Utf8);
    (void)decoder.decode(head.left(head.size() - 4)); // the cut may split a character at the end
    if (decoder.hasError())
        return fail(QStringLiteral("%1: neither a trace in any known format nor UTF-8 text (tried: %2)")
                        .arg(path, triedList()));
    return u"text"_s;
}

Result<Trace> importTrace(const QString &path, const TraceImportOptions &options)
{
    QString format = options.format;
    if (!format.isEmpty() && !formats().contains(format))
        return Result<Trace>::failure(QStringLiteral("unknown trace format '%1' (known: %2)").arg(format, triedList()));
    const bool detected = format.isEmpty();
    if (detected) {
        QString why;
        format = detectTraceFormat(path, &why);
        if (format.isEmpty())
            return Result<Trace>::failure(why);
    }
    if (format == "upskill-run"_L1)
        return importFolder(path, options);
    if (QFileInfo(path).isDir())
        return Result<Trace>::failure(QStringLiteral("%1: a folder, not a %2 file").arg(path, format));

    Trace trace;
    trace.path = path;
    trace.format = format;
    Progress progress(options, QFileInfo(path).size());
    QString error;
    bool ok = false;
    if (format == "claude-code"_L1) {
        ok = importClaudeCode(path, options.twoThreadsFromBytes, progress, &trace, &error);
    } else if (format == "claude-stream-json"_L1) {
        ok = importClaudeStreamJson(path, options.twoThreadsFromBytes, progress, &trace, &error);
    } else if (format == "codex"_L1) {
        ok = importCodex(path, progress, &trace, &error);
    } else if (format == "inspect-eval"_L1) {
        ok = importInspectEval(path, progress, &trace, &error);
    } else if (format == "text"_L1) {
        ok = importText(path, &trace, &error);
    } else if (format == "claude-code-loglines"_L1) {
        ok = importClaudeCodeLoglines(path, progress, &trace, &error);
    } else if (format == "harbor-traces"_L1) {
        ok = importHarborTraces(path, &trace, &error);
        if (!ok)
            error = QStringLiteral("%1: not %2: %3").arg(path, format, error);
    } else if (format == "smolagents-answers"_L1) {
        ok = importSmolagentsAnswers(path, &trace, &error);
        if (!ok)
            error = QStringLiteral("%1: not %2: %3").arg(path, format, error);
    } else {
        QByteArray data;
        QJsonValue root;
        ok = readWholeFile(path, &data, &error) && parseJsonDocument(data, path, &root, &error);
        data.clear();
        if (ok) {
            if (format == "openai-messages"_L1)
                ok = importOpenAiMessages(root, &trace, &error);
            else if (format == "fast-agent"_L1)
                ok = importFastAgent(root, &trace, &error);
            else if (format == "smolagents"_L1)
                ok = importSmolagents(root, &trace, &error);
            else if (format == "atif"_L1)
                ok = importAtif(root, path, &trace, &error);
            else
                ok = importInspectJson(root, &trace, &error);
            if (!ok)
                error = QStringLiteral("%1: not %2: %3").arg(path, format, error);
        }
    }
    if (progress.cancelled())
        return Result<Trace>::failure(traceImportCancelledMessage());
    if (!ok)
        return Result<Trace>::failure(error);
    if (isJsonLinesFormat(format) && trace.stepCount() == 0 && trace.skippedCount > 0) {
        const SkippedRecord &firstSkip = trace.skipped.front();
        return Result<Trace>::failure(
            QStringLiteral("%1: read as %2 (%3), but no record could be used; line %4: %5")
                .arg(path, format, detected ? QStringLiteral("detected from content") : QStringLiteral("as asked"))
                .arg(firstSkip.line)
                .arg(firstSkip.reason));
    }
    return Result<Trace>::success(std::move(trace));
}

} // namespace sf
