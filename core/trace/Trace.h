#pragma once

#include "usage/TokenUsage.h"

#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <string_view>
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

/// UTF-8 text held in a trace's TraceTextStore. A view: valid while the trace it came from, or a copy of
/// that trace, lives. Trace text is stored this way rather than as QString because a session is mostly
/// text, and UTF-16 doubled it: half the memory, and no conversion on import.
class TraceText
{
public:
    TraceText() = default;

    std::string_view utf8() const { return {m_data, size_t(m_size)}; }
    QByteArrayView bytes() const { return {m_data, m_size}; }
    qsizetype byteSize() const { return m_size; }
    bool isEmpty() const { return m_size == 0; }
    QString toString() const { return QString::fromUtf8(m_data, m_size); }
    /// The first @p units UTF-16 code units, converting no more of the text than that needs.
    QString left(qsizetype units) const;
    /// Characters (code points), as the viewer reports a folded text's length.
    qsizetype characterCount() const;
    /// Whether @p needle occurs, as TraceTextFinder finds it (build one to search many texts).
    bool contains(QStringView needle, Qt::CaseSensitivity cs = Qt::CaseSensitive) const;

    friend bool operator==(TraceText a, TraceText b) { return a.utf8() == b.utf8(); }
    friend bool operator==(TraceText a, QLatin1StringView b)
    {
        return a.utf8() == std::string_view(b.data(), size_t(b.size())); // callers compare with ASCII names
    }

private:
    friend class TraceTextStore;
    TraceText(const char *data, qsizetype size)
        : m_data(data)
        , m_size(size)
    {
    }
    const char *m_data = nullptr;
    qsizetype m_size = 0;
};

/// Where a trace's texts live: large chunks that only grow, so a text never moves and one allocation
/// holds thousands of them. Not thread-safe; a trace is built in one thread and read afterwards.
class TraceTextStore
{
public:
    TraceTextStore() = default;
    TraceTextStore(const TraceTextStore &) = delete;
    TraceTextStore &operator=(const TraceTextStore &) = delete;

    TraceText add(std::string_view utf8);
    TraceText add(QStringView text);
    qsizetype bytesAllocated() const { return m_allocated; }
    /// Forgets every text, keeping the current chunk for what comes next: a scratch store reused per record.
    void clear();
    /// Keeps @p other's texts alive as long as this store: for steps moved here from another trace.
    void keepAlive(std::shared_ptr<TraceTextStore> other) { m_keptAlive.push_back(std::move(other)); }

private:
    struct FreeChunk
    {
        size_t mappedBytes = 0; ///< a chunk mapped on its own (unmapped when freed), or 0 for malloc's
        void operator()(char *chunk) const;
    };
    using Chunk = std::unique_ptr<char, FreeChunk>;
    static Chunk allocateChunk(qsizetype bytes);
    /// Room for @p bytes that the caller fills and then hands to commit().
    char *reserve(qsizetype bytes);
    TraceText commit(qsizetype bytes);

    std::vector<Chunk> m_chunks;
    std::vector<std::shared_ptr<TraceTextStore>> m_keptAlive;
    char *m_next = nullptr;
    qsizetype m_left = 0;
    qsizetype m_chunkBytes = 64 * 1024;
    qsizetype m_allocated = 0;
    char *m_reserved = nullptr;
    bool m_reservedOwn = false; ///< the reserved room is an allocation of its own, not the chunk's tail
};

/// One step: a text, a thought, a tool call or its result, an image placeholder or a system event.
struct TraceStep
{
    StepKind kind = StepKind::System;
    bool isError = false; ///< a tool result or system event that reports a failure
    int turn = -1;        ///< index of the turn in the thread
    int paired = -1;      ///< a call's result step, or a result's call step, in the same thread
    int childThread = -1; ///< a call that spawned a subagent: the subagent's thread index
    qint64 line = 0;      ///< 1-based source line (JSON Lines) or 0
    TraceText text;       ///< text, thinking, result content, system description, image media type
    TraceText toolId;     ///< tool call and tool result
    TraceText toolName;   ///< tool call; results get their call's name when paired
    TraceText input;      ///< tool call input as compact JSON
};

/// One message-level unit: a user prompt, one assistant response (however many lines it was written
/// as), the tool results sent back, or a system event. Steps of a turn are contiguous in the thread.
struct TraceTurn
{
    QString role; ///< "user", "assistant", "tool" or "system"
    QString model;
    TraceText timestamp; ///< as written by the source (ISO 8601 where the source has one)
    TraceText messageId;
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
    /// What the reader should know about how the file was read, when nothing was skipped but the figures or the
    /// threads are not simply the file's own (e.g. totals the file states that differ from the steps', and why).
    QStringList notes;
    /// The steps' and turns' texts. Copies of a trace share it: it only grows, so no text moves.
    std::shared_ptr<TraceTextStore> texts = std::make_shared<TraceTextStore>();

    static constexpr int MaxSkippedListed = 1000;

    void skip(qint64 line, const QString &reason);
    TraceText store(QStringView text) { return texts->add(text); }
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
