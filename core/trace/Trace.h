#pragma once

#include "llm/ChatTypes.h"

#include <QHash>
#include <QList>
#include <QString>
#include <optional>
#include <vector>

namespace sf {

/// What one step of a conversation is; the viewer gives each its own look and filter.
enum class StepKind : quint8
{
    UserText,
    AssistantText,
    Thinking,
    ToolCall,
    ToolResult,
    Image,
    System
};
inline constexpr int StepKindCount = 7;

QString stepKindName(StepKind kind); ///< "user", "assistant", "thinking", "tool_call", ...
std::optional<StepKind> stepKindFromName(const QString &name);

/// One step: a text, a thought, a tool call or its result, an image placeholder or a system event.
struct TraceStep
{
    StepKind kind = StepKind::System;
    bool isError = false; ///< a tool result or system event that reports a failure
    int turn = -1;        ///< index of the turn in the thread
    int paired = -1;      ///< a call's result step, or a result's call step, in the same thread
    int childThread = -1; ///< a call that spawned a subagent: the subagent's thread index
    qint64 line = 0;      ///< 1-based source line (JSON Lines) or 0
    QString text;         ///< text, thinking, result content, system description, image media type
    QString toolId;       ///< tool call and tool result
    QString toolName;     ///< tool call; results get their call's name when paired
    QString input;        ///< tool call input as compact JSON
};

/// One message-level unit: a user prompt, one assistant response (however many lines it was written
/// as), the tool results sent back, or a system event. Steps of a turn are contiguous in the thread.
struct TraceTurn
{
    QString role; ///< "user", "assistant", "tool" or "system"
    QString model;
    QString timestamp; ///< as written by the source (ISO 8601 where the source has one)
    QString messageId;
    QString attributionSkill;        ///< Claude Code: the skill the turn ran under
    std::optional<TokenUsage> usage; ///< assistant turns whose source reports usage
    qint64 firstLine = 0;
    qint64 lastLine = 0;
    int firstStep = 0;
    int stepCount = 0;
};

/// The main conversation or a subagent's; a subagent thread names the thread and call that spawned it.
struct TraceThread
{
    QString id;
    QString title;
    int parentThread = -1;
    int parentStep = -1;
    std::vector<TraceTurn> turns;
    std::vector<TraceStep> steps;
};

/// A line or record the importer could not use, and why.
struct SkippedRecord
{
    qint64 line = 0;
    QString reason;
};

/// A whole imported session in the normalized model of design.md: threads of turns of steps, with usage
/// in separate buckets per assistant turn, the source format, and what was skipped.
struct Trace
{
    QString path;
    QString format; ///< a name from traceFormats()
    QString title;
    std::vector<TraceThread> threads;      ///< [0] is the main thread
    std::vector<SkippedRecord> skipped;    ///< at most MaxSkippedListed entries
    qint64 skippedCount = 0;               ///< all skipped records, listed or not
    std::optional<double> reportedCostUsd; ///< a cost the source itself logged (stream-json's result)

    static constexpr int MaxSkippedListed = 1000;

    void skip(qint64 line, const QString &reason);
    qint64 stepCount() const;
    qint64 turnCount() const;
    TokenUsage totalUsage() const;
};

/// Counts of one trace, as `skillforge trace stats` prints them.
struct TraceStats
{
    int threads = 0;
    qint64 turns = 0;
    qint64 steps = 0;
    qint64 stepsByKind[StepKindCount] = {};
    QList<QPair<QString, qint64>> toolCalls; ///< by name, most frequent first
    qint64 toolErrors = 0;
    TokenUsage usage;
    qint64 assistantTurnsWithUsage = 0;
    QStringList models;
    QStringList skills; ///< attributionSkill values seen

    static TraceStats of(const Trace &trace);
};

} // namespace sf
