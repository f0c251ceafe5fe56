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

struct PendingStep
{
    StepKind kind = StepKind::System;
    bool isError = false;
    QString text, toolId, toolName, input;
};

/// One user/assistant/system record, converted but not yet placed: placement waits for parentUuid order.
struct Record
{
    qint64 line = 0;
    QString uuid, parentUuid, role, model, messageId, requestId, timestamp, skill;
    QString threadKey;      ///< "" main thread; otherwise the sidechain or parent_tool_use_id
    QString spawnedAgentId; ///< a tool result that names the subagent it ran
    bool newTurn = false;   ///< a user prompt always starts its own turn
    std::optional<TokenUsage> usage;
    std::vector<PendingStep> steps;
};

/// The agent id a tool result's text names ("agentId: <id>"), or empty.
QString agentIdIn(const QString &text);

/// Reads Claude Code user and assistant lines (nearly every line of a session) with simdjson, building
/// Qt strings only for what the trace keeps. Every other line, and any line it has a doubt about (not
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

    /// @p line must be followed by LineReader::Padding readable bytes.
    Outcome read(std::string_view line, bool streamJson, bool isMainFile, Record *record);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

} // namespace sf::trace_import
