#pragma once

// The records a Claude Code JSONL line becomes before placement (ImportClaudeCode.cpp), and the fast
// reader of the common ones (ImportClaudeCodeLines.cpp).

#include "trace/TraceImport_p.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sf::trace_import {

/// A step of a record, its texts in the trace's store, waiting for its record to be placed.
struct PendingStep
{
    StepKind kind = StepKind::System;
    bool isError = false;
    TraceText text, toolId, toolName, input;
};

enum class RecordRole : quint8
{
    User,
    Assistant,
    Tool,
    System
};
QString recordRoleName(RecordRole role); ///< as TraceTurn::role spells it

/// One user/assistant/system record, converted but not yet placed into the trace's threads.
/// Its own strings live in RecordStore::scratch and its steps in RecordStore::steps.
struct Record
{
    qint64 line = 0;
    TraceText uuid, parentUuid, messageId, requestId, timestamp;
    TraceText threadKey;      ///< empty: the main thread; otherwise the sidechain or parent_tool_use_id
    TraceText spawnedAgentId; ///< a tool result that names the subagent it ran
    QString model, skill;     ///< shared with the records before when they repeat
    RecordRole role = RecordRole::User;
    bool newTurn = false; ///< a user prompt always starts its own turn
    std::optional<TokenUsage> usage;
    int firstStep = 0; ///< in RecordStore::steps
    int stepCount = 0;
};

/// Where the records of an import keep what they carry: step texts go straight into the trace's store,
/// and what only placement needs (ids, parents, timestamps) into a scratch store dropped after it. One
/// growing vector holds every record's steps, instead of a small vector per record.
struct RecordStore
{
    explicit RecordStore(TraceTextStore *traceTexts)
        : texts(traceTexts)
    {
    }
    TraceTextStore *texts;
    TraceTextStore scratch;
    std::vector<PendingStep> steps;

    void addStep(Record *record, const PendingStep &step)
    {
        steps.push_back(step);
        ++record->stepCount;
    }
    /// Forgets the steps of a record that is read again another way.
    void dropSteps(Record *record)
    {
        steps.resize(size_t(record->firstStep));
        record->stepCount = 0;
    }
};

/// What reading one file gave besides its records, and where each record goes.
struct FileResult
{
    /// Takes each record as it is read; false stops the reading, with `stopped` set.
    std::function<bool(Record &)> take;
    qint64 bytesRead = 0; ///< of the part read, up to the record being taken
    qint64 lines = 0;     ///< lines of the part read, up to the record being taken
    QString title;
    int titleRank = 0;
    bool stopped = false;
};

/// A part of a file: [begin, end) in bytes, where end < 0 is the file's end. A part starts at a line's start.
struct ByteRange
{
    qint64 begin = 0;
    qint64 end = -1;
};

/// Reads the lines of @p range of one Claude Code JSONL file (or stream-json when @p streamJson) into records
/// handed to out->take, their texts and steps into @p store. Lines are numbered from the part's start. Lines
/// it cannot use go to trace->skip(), prefixed with @p skipPrefix unless it is empty (the main file).
bool readRecords(const QString &path, ByteRange range, const QString &skipPrefix, bool streamJson, Progress *progress,
                 Trace *trace, RecordStore *store, FileResult *out, QString *error);

/// Reads all of @p path's records into out->take, in file order, as readRecords() does. A file of at least
/// @p twoThreadsFromBytes is read on two threads where there are two cores (0: always, negative: never): its
/// second part is parsed on another thread while this one reads and places the first. What the two
/// readings give is the same.
bool readRecordsInTwoParts(const QString &path, qint64 twoThreadsFromBytes, bool streamJson, Progress &progress,
                           Trace *trace, RecordStore *store, FileResult *out, QString *error);

/// The agent id a tool result's text names ("agentId: <id>"), or empty.
std::string_view agentIdIn(std::string_view text);

/// Reads Claude Code user and assistant lines (nearly every line of a session) with simdjson, copying
/// only what the trace keeps, as UTF-8, into the record store. Every other line, and any line it has a doubt about (not
/// valid JSON to simdjson, very long, a value Qt would read differently), it hands back to the
/// QJsonDocument reader, which stays the one definition of what a line means.
class ClaudeLineReader
{
public:
    enum class Outcome
    {
        Record,  ///< *record is filled
        Ignored, ///< a valid record of a type that carries nothing to show
        Slow     ///< read this line with QJsonDocument
    };
    /// Lines longer than this go the QJsonDocument way: simdjson's buffers grow to about 14 times the
    /// longest line parsed, and a session's rare huge lines are not worth that memory.
    static constexpr qsizetype MaxLineBytes = 2 * 1024 * 1024;

    ClaudeLineReader();
    ~ClaudeLineReader();
    ClaudeLineReader(const ClaudeLineReader &) = delete;
    ClaudeLineReader &operator=(const ClaudeLineReader &) = delete;

    /// @p line must be followed by LineReader::Padding readable bytes. @p record has its line and
    /// firstStep set; on Slow it has no steps in @p store.
    Outcome read(std::string_view line, bool streamJson, bool isMainFile, RecordStore *store, Record *record);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace sf::trace_import
