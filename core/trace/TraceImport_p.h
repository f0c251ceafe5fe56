#pragma once

// Shared machinery of the importers: progress and cancel, a bounded line reader, a builder that appends
// turns and steps, and JSON helpers. Each format lives in its own Import*.cpp.

#include "trace/TraceImport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QLoggingCategory>
#include <memory>
#include <string_view>

Q_DECLARE_LOGGING_CATEGORY(lcTrace)

namespace sf::trace_import {

/// Progress reporting and cancellation for one import.
class Progress
{
public:
    Progress(const TraceImportOptions &options, qint64 total)
        : m_callback(options.progress)
        , m_total(total)
    {
    }
    /// Reports @p done bytes now and then; false once the user cancelled.
    bool update(qint64 done)
    {
        if (m_cancelled)
            return false;
        if (m_callback && done - m_lastReported >= ReportEvery) {
            m_lastReported = done;
            m_cancelled = !m_callback(done, m_total);
        }
        return !m_cancelled;
    }
    bool cancelled() const { return m_cancelled; }
    /// The file is read again from its start.
    void restart() { m_lastReported = 0; }

private:
    static constexpr qint64 ReportEvery = 256 * 1024;
    std::function<bool(qint64, qint64)> m_callback;
    qint64 m_total = 0;
    qint64 m_lastReported = 0;
    bool m_cancelled = false;
};

/// Reads a file line by line through one growing buffer; a line longer than the limit is reported as
/// such and passed over without ever being held in memory whole.
class LineReader
{
public:
    enum class Status
    {
        Line,
        TooLong,
        End
    };
    static constexpr qint64 MaxLineBytes = 256 * 1024 * 1024;
    /// Readable bytes that follow every line view: simdjson parses a line in place when they are there.
    static constexpr qsizetype Padding = 64;

    /// Reads @p file from where it stands: to its end, or at most @p limit bytes when limit >= 0.
    explicit LineReader(QFile *file, qint64 limit = -1)
        : m_file(file)
        , m_unread(limit)
    {
    }
    /// The next line without its end-of-line, copied; *lineNumber is 1-based.
    Status next(QByteArray *line, qint64 *lineNumber);
    /// The next line as a view into the reader's buffer, valid until the next call, with Padding readable
    /// bytes after it; *lineNumber is 1-based.
    Status nextView(std::string_view *line, qint64 *lineNumber);
    qint64 position() const { return m_consumed; }

private:
    bool fill();

    QFile *m_file;
    std::unique_ptr<char[]> m_buffer;
    qsizetype m_capacity = 0; ///< bytes allocated, Padding included
    qsizetype m_size = 0;     ///< bytes of the file held, from the buffer's start
    qsizetype m_start = 0;    ///< where the next line starts
    qint64 m_consumed = 0;
    qint64 m_line = 0;
    qint64 m_unread = -1; ///< bytes left to read, or -1: up to the file's end
    bool m_eof = false;
};

/// Appends turns and steps to one thread, keeping each turn's steps contiguous.
class ThreadBuilder
{
public:
    ThreadBuilder(Trace *trace, int thread)
        : m_trace(trace)
        , m_thread(thread)
    {
    }
    TraceThread &thread() const { return m_trace->threads[size_t(m_thread)]; }
    int index() const { return m_thread; }
    /// Starts a new turn; steps added afterwards belong to it.
    TraceTurn &beginTurn(const QString &role, qint64 line);
    /// The open turn when it has @p role, else a new one.
    TraceTurn &turnFor(const QString &role, qint64 line);
    TraceTurn *currentTurn() const;
    /// A step whose text is already in the trace's store.
    TraceStep &addStep(StepKind kind, TraceText text, qint64 line);
    TraceStep &addStep(StepKind kind, const QString &text, qint64 line);
    TraceStep &addToolCall(const QString &id, const QString &name, const QString &input, qint64 line);
    TraceStep &addToolResult(const QString &id, const QString &content, bool isError, qint64 line);
    TraceText store(const QString &text) const { return m_trace->store(text); }

private:
    Trace *m_trace;
    int m_thread;
};

/// Adds a new thread to @p trace and returns its index.
int addThread(Trace *trace, const QString &id, const QString &title, int parentThread = -1);

/// After an import: pairs tool results with their calls by id (in any order), gives results their call's
/// name, and drops turns left without steps or usage.
void finishTrace(Trace *trace);

// JSON helpers
QString compactJson(const QJsonValue &value);
/// A tool input written as a JSON string (OpenAI, Codex) as compact JSON; text that is not JSON stays.
QString jsonTextAsCompact(const QString &text);
/// The text of a content value: a string, or the text parts of a block list (other parts named).
QString contentText(const QJsonValue &content);
qint64 intField(const QJsonObject &object, QLatin1StringView key);
/// Parses a whole JSON document; on error sets *error to "file:line:col: message".
bool parseJsonDocument(const QByteArray &data, const QString &path, QJsonValue *value, QString *error);
/// Reads a whole file up to a size limit; false with *error set on failure.
bool readWholeFile(const QString &path, QByteArray *data, QString *error);

// Formats (each in its own file). They fill @p trace, return false with *error on a fatal problem.
/// The Claude Code readers parse files of at least @p twoThreadsFromBytes on two threads (TraceImportOptions).
bool importClaudeCode(const QString &path, qint64 twoThreadsFromBytes, Progress &progress, Trace *trace,
                      QString *error);
bool importClaudeStreamJson(const QString &path, qint64 twoThreadsFromBytes, Progress &progress, Trace *trace,
                            QString *error);
/// claude-code-transcripts' {"loglines": [records]}: read as the session file they came from.
bool importClaudeCodeLoglines(const QString &path, Progress &progress, Trace *trace, QString *error);
bool importCodex(const QString &path, Progress &progress, Trace *trace, QString *error);
/// A response item written bare, as Codex did before it wrapped records in {type, payload}.
bool isBareCodexItem(const QJsonObject &object);
bool importOpenAiMessages(const QJsonValue &root, Trace *trace, QString *error);
bool importFastAgent(const QJsonValue &root, Trace *trace, QString *error);
bool importSmolagents(const QJsonValue &root, Trace *trace, QString *error);
bool importSmolagentsAnswers(const QString &path, Trace *trace, QString *error);
bool importAtif(const QJsonValue &root, const QString &path, Trace *trace, QString *error);
/// Harbor's exported traces (`*.traces.json`, a JSON list, or the same rows as JSON Lines).
bool importHarborTraces(const QString &path, Trace *trace, QString *error);
/// A row of harbor's exported traces: {conversations: [{role, content}...], ...}.
bool isHarborTraceRecord(const QJsonObject &record);
bool importInspectJson(const QJsonValue &root, Trace *trace, QString *error);
bool importInspectEval(const QString &path, Progress &progress, Trace *trace, QString *error);
/// One inspect_ai sample (from a .json log or an .eval entry) as a thread.
void importInspectSample(const QJsonObject &sample, Trace *trace);

/// Which JSON document format @p root looks like, or empty.
QString detectJsonDocumentFormat(const QJsonValue &root);
/// Which JSON Lines format a first record looks like, or empty.
QString detectJsonLinesFormat(const QJsonObject &first);
/// Why JSON Lines whose first records are @p records were read as no known format: what they look like, and
/// what they lack. For a refusal.
QString describeUnknownJsonLines(const QList<QJsonObject> &records);

} // namespace sf::trace_import
