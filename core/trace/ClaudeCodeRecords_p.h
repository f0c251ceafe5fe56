#pragma once

// The records a Claude Code JSONL line becomes before placement (ImportClaudeCode.cpp), and the fast
// reader of the common ones (ImportClaudeCodeLines.cpp).

#include "trace/TraceImport_p.h"

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
