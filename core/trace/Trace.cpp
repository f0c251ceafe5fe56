#include "trace/Trace.h"

#include "trace/TraceTextFinder.h"

#include <QStringEncoder>
#include <algorithm>
#include <array>
#include <cstdlib>
#include <cstring>
#include <new>
#include <sys/mman.h>

namespace sf {

namespace {

constexpr std::array<QLatin1StringView, StepKindCount> KindNames = {
    QLatin1StringView("user"),      QLatin1StringView("assistant"),   QLatin1StringView("thinking"),
    QLatin1StringView("tool_call"), QLatin1StringView("tool_result"), QLatin1StringView("image"),
    QLatin1StringView("system")};

/// Texts at least this long get an allocation of their own, so a chunk is never abandoned half empty.
constexpr qsizetype LargeText = 1024 * 1024;
/// Chunks double from 64 KiB to this: few allocations on a large session, little slack on a small one.
constexpr qsizetype MaxChunkBytes = 8 * 1024 * 1024;

} // namespace

QString TraceText::left(qsizetype units) const
{
    // A UTF-8 byte never yields more than one UTF-16 unit, and a whole code point of at most 3 bytes yields
    // at least one per 3 bytes: 3 * units + 3 bytes hold @p units complete units when the text has them.
    if (m_size <= units)
        return toString();
    return QString::fromUtf8(m_data, std::min(m_size, units * 3 + 3)).left(units);
}

qsizetype TraceText::characterCount() const
{
    return std::count_if(m_data, m_data + m_size,
                         [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
}

bool TraceText::contains(QStringView needle, Qt::CaseSensitivity cs) const
{
    return TraceTextFinder(needle, cs).foundIn(*this);
}

void TraceTextStore::FreeChunk::operator()(char *chunk) const
{
    if (mappedBytes > 0)
        munmap(chunk, mappedBytes);
    else
        std::free(chunk);
}

TraceTextStore::Chunk TraceTextStore::allocateChunk(qsizetype bytes)
{
    constexpr size_t HugePage = 2 * 1024 * 1024;
    if (size_t(bytes) >= HugePage) {
        // Large chunks are mapped on their own, so that closing a large trace gives its memory back to the
        // system at once (from malloc's heap it would stay with the process). Asked for as huge pages: where
        // the kernel grants them on request, a session's text costs one page fault per 2 MiB, not per 4 KiB.
        // The mapping starts on a huge page's boundary (more is mapped, and the ends cut off), so that every
        // whole 2 MiB of the chunk can be one huge page: the kernel only gives aligned ones.
        const size_t mapped = size_t(bytes) + HugePage;
        void *memory = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (memory == MAP_FAILED)
            throw std::bad_alloc();
        char *const start = static_cast<char *>(memory);
        char *const aligned =
            reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(start) + HugePage - 1) & ~uintptr_t(HugePage - 1));
        if (aligned > start)
            munmap(start, size_t(aligned - start));
        if (const size_t tail = size_t(start + mapped - (aligned + bytes)); tail > 0)
            munmap(aligned + bytes, tail);
#if defined(MADV_HUGEPAGE)
        madvise(aligned, size_t(bytes), MADV_HUGEPAGE);
#endif
        return Chunk(aligned, FreeChunk{size_t(bytes)});
    }
    void *memory = std::malloc(size_t(bytes));
    if (!memory)
        throw std::bad_alloc();
    return Chunk(static_cast<char *>(memory));
}

char *TraceTextStore::reserve(qsizetype bytes)
{
    if (bytes <= m_left) {
        m_reservedOwn = false;
        return m_reserved = m_next;
    }
    if (bytes >= LargeText) {
        m_chunks.push_back(allocateChunk(bytes));
        m_allocated += bytes;
        m_reservedOwn = true;
        return m_reserved = m_chunks.back().get();
    }
    const qsizetype size = std::max(m_chunkBytes, bytes);
    m_chunks.push_back(allocateChunk(size));
    m_allocated += size;
    m_next = m_chunks.back().get();
    m_left = size;
    m_chunkBytes = std::min(m_chunkBytes * 2, MaxChunkBytes);
    m_reservedOwn = false;
    return m_reserved = m_next;
}

TraceText TraceTextStore::commit(qsizetype bytes)
{
    const TraceText text(bytes > 0 ? m_reserved : nullptr, bytes);
    if (!m_reservedOwn) {
        m_next += bytes;
        m_left -= bytes;
    }
    m_reserved = nullptr;
    return text;
}

void TraceTextStore::clear()
{
    if (m_chunks.size() == 1 && m_next) {
        char *start = m_chunks.front().get();
        m_left += m_next - start;
        m_next = start;
        return;
    }
    m_chunks.clear();
    m_next = nullptr;
    m_left = 0;
    m_allocated = 0;
}

TraceText TraceTextStore::add(std::string_view utf8)
{
    if (utf8.empty())
        return {};
    std::memcpy(reserve(qsizetype(utf8.size())), utf8.data(), utf8.size());
    return commit(qsizetype(utf8.size()));
}

TraceText TraceTextStore::add(QStringView text)
{
    if (text.isEmpty())
        return {};
    if (text.size() * 3 >= LargeText) {
        const QByteArray utf8 = text.toUtf8(); // exact size first: a large text is not given 3 bytes a unit
        return add(std::string_view(utf8.constData(), size_t(utf8.size())));
    }
    QStringEncoder encoder(QStringEncoder::Utf8);
    char *start = reserve(text.size() * 3);
    const char *end = encoder.appendToBuffer(start, text);
    return commit(qsizetype(end - start));
}

QString stepKindName(StepKind kind)
{
    return KindNames[size_t(kind)];
}

std::optional<StepKind> stepKindFromName(const QString &name)
{
    for (size_t i = 0; i < KindNames.size(); ++i)
        if (name == KindNames[i])
            return StepKind(i);
    return std::nullopt;
}

void Trace::skip(qint64 line, const QString &reason)
{
    ++skippedCount;
    if (skipped.size() < size_t(MaxSkippedListed))
        skipped.push_back({line, reason});
}

qint64 Trace::stepCount() const
{
    qint64 n = 0;
    for (const TraceThread &thread : threads)
        n += qint64(thread.steps.size());
    return n;
}

qint64 Trace::turnCount() const
{
    qint64 n = 0;
    for (const TraceThread &thread : threads)
        n += qint64(thread.turns.size());
    return n;
}

TokenUsage Trace::totalUsage() const
{
    TokenUsage total;
    for (const TraceThread &thread : threads)
        for (const TraceTurn &turn : thread.turns)
            if (turn.usage)
                total += *turn.usage;
    return total;
}

TraceStats TraceStats::of(const Trace &trace)
{
    TraceStats stats;
    stats.threads = int(trace.threads.size());
    QHash<QByteArrayView, qint64> tools;
    for (const TraceThread &thread : trace.threads) {
        stats.turns += qint64(thread.turns.size());
        stats.steps += qint64(thread.steps.size());
        for (const TraceStep &step : thread.steps) {
            ++stats.stepsByKind[size_t(step.kind)];
            if (step.kind == StepKind::ToolCall)
                ++tools[step.toolName.bytes()];
            else if (step.kind == StepKind::ToolResult && step.isError)
                ++stats.toolErrors;
        }
        for (const TraceTurn &turn : thread.turns) {
            if (turn.usage) {
                stats.usage += *turn.usage;
                ++stats.assistantTurnsWithUsage;
            }
            if (!turn.model.isEmpty() && !stats.models.contains(turn.model))
                stats.models.append(turn.model);
            if (!turn.attributionSkill.isEmpty() && !stats.skills.contains(turn.attributionSkill))
                stats.skills.append(turn.attributionSkill);
        }
    }
    for (auto it = tools.cbegin(); it != tools.cend(); ++it)
        stats.toolCalls.append({QString::fromUtf8(it.key()), it.value()});
    std::sort(stats.toolCalls.begin(), stats.toolCalls.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    return stats;
}

} // namespace sf
