// A large Claude Code file read on two threads: while the calling thread reads and places the first part, a
// second thread parses the rest into batches of records, which the caller then places in file order as they
// come. Parsing (simdjson, copying texts) is most of an import's work and each line parses alone, but placing
// depends on every record before it, so it stays on one thread.

#include "trace/ClaudeCodeRecords_p.h"

#include <QFile>
#include <QFileInfo>
#include <QThread>
#include <atomic>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>

namespace sf::trace_import {

namespace {

/// Where the second part starts, as a share of the file. The calling thread reads its part and then places
/// every record of both, so it gets less to read: placing a record costs about a third of parsing it, and at
/// 0.30 the two threads spent the same CPU time on a 200 MB session (about 130 ms each).
constexpr double FirstPartShare = 0.30;

/// The start of the first line at or after @p offset, or -1 when no line starts there.
qint64 lineStartFrom(const QString &path, qint64 offset)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || !file.seek(offset - 1))
        return -1;
    char buffer[64 * 1024];
    qint64 at = offset - 1;
    for (;;) {
        const qint64 got = file.read(buffer, sizeof buffer);
        if (got <= 0)
            return -1;
        if (const void *newline = std::memchr(buffer, '\n', size_t(got)))
            return at + (static_cast<const char *>(newline) - buffer) + 1;
        at += got;
    }
}

/// Records read ahead, handed over a batch at a time: the caller places a batch while the next is read.
struct Batch
{
    std::vector<Record> records;
    std::vector<PendingStep> steps; ///< the records' firstStep counts from here
    std::vector<qint64> positions;  ///< bytes of the part read up to each record
};

/// The part of a file that a second thread reads into batches of records, and what it skipped.
class ReadAhead
{
public:
    ReadAhead(const QString &path, ByteRange range, bool streamJson)
        : m_store(part.texts.get())
    {
        m_thread = std::thread([this, path, range, streamJson] { read(path, range, streamJson); });
    }
    ~ReadAhead()
    {
        m_cancel = true;
        if (m_thread.joinable())
            m_thread.join();
    }
    ReadAhead(const ReadAhead &) = delete;
    ReadAhead &operator=(const ReadAhead &) = delete;

    /// The next batch, once it is read; nullopt when the whole part has been handed over (or its reading
    /// failed: finish() says).
    std::optional<Batch> next()
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [this] { return !m_batches.empty() || m_done; });
        if (m_batches.empty())
            return std::nullopt;
        Batch batch = std::move(m_batches.front());
        m_batches.pop_front();
        return batch;
    }

    /// After the last batch: false with *error when the part could not be read.
    bool finish(QString *error)
    {
        m_thread.join();
        if (!m_ok)
            *error = m_error;
        return m_ok;
    }

    /// The texts of the records' steps, the lines skipped, stream-json's reported cost; read after finish().
    Trace part;
    FileResult file; ///< the part's title and line count, after finish()

private:
    static constexpr size_t BatchRecords = 1024;

    void read(const QString &path, ByteRange range, bool streamJson)
    {
        TraceImportOptions options;
        options.progress = [this](qint64, qint64) { return !m_cancel.load(std::memory_order_relaxed); };
        Progress progress(options, range.end - range.begin);
        Batch batch;
        auto handOver = [&] {
            batch.steps = std::move(m_store.steps); // the next record's steps start a new vector at 0
            m_store.steps = {};
            const std::lock_guard lock(m_mutex);
            m_batches.push_back(std::move(batch));
            batch = Batch();
            m_changed.notify_one();
        };
        file.take = [&](Record &record) {
            batch.records.push_back(std::move(record));
            batch.positions.push_back(file.bytesRead);
            if (batch.records.size() == BatchRecords)
                handOver();
            return true;
        };
        try {
            m_ok = readRecords(path, range, QString(), streamJson, &progress, &part, &m_store, &file, &m_error);
            if (m_ok && !batch.records.empty())
                handOver();
        } catch (const std::bad_alloc &) {
            m_ok = false;
            m_error = QStringLiteral("%1: out of memory").arg(path);
        }
        const std::lock_guard lock(m_mutex);
        m_done = true;
        m_changed.notify_one();
    }

    RecordStore m_store; ///< the records' ids (its scratch store) live as long as this
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<Batch> m_batches;
    bool m_done = false;
    QString m_error;
    bool m_ok = false;
    std::atomic<bool> m_cancel = false;
    std::thread m_thread;
};

/// Hands @p ahead's records to out->take, batch by batch as they are read, after the first part's
/// @p firstLines lines: each with its steps copied into @p store and its line and position counted from the
/// file's start. Then what the part skipped, its title and its reported cost.
bool takeReadAhead(ReadAhead &ahead, qint64 partBegin, qint64 firstLines, Progress &progress, Trace *trace,
                   RecordStore *store, FileResult *out, QString *error)
{
    trace->texts->keepAlive(ahead.part.texts);
    while (std::optional<Batch> batch = ahead.next()) {
        for (size_t i = 0; i < batch->records.size(); ++i) {
            Record &record = batch->records[i];
            const auto firstStep = batch->steps.cbegin() + record.firstStep;
            record.firstStep = int(store->steps.size());
            store->steps.insert(store->steps.end(), firstStep, firstStep + record.stepCount);
            record.line += firstLines;
            out->bytesRead = partBegin + batch->positions[i];
            if (!progress.update(out->bytesRead))
                return false;
            if (!out->take(record)) {
                out->stopped = true;
                return true;
            }
        }
    }
    if (!ahead.finish(error))
        return false;
    if (ahead.part.reportedCostUsd)
        trace->reportedCostUsd = ahead.part.reportedCostUsd;
    for (const SkippedRecord &skipped : ahead.part.skipped)
        trace->skip(skipped.line + firstLines, skipped.reason);
    trace->skippedCount += ahead.part.skippedCount - qint64(ahead.part.skipped.size());
    if (!ahead.file.title.isEmpty() && ahead.file.titleRank >= out->titleRank) {
        out->title = ahead.file.title;
        out->titleRank = ahead.file.titleRank;
    }
    out->lines = firstLines + ahead.file.lines;
    return true;
}

} // namespace

bool readRecordsInTwoParts(const QString &path, qint64 twoThreadsFromBytes, bool streamJson, Progress &progress,
                           Trace *trace, RecordStore *store, FileResult *out, QString *error)
{
    const qint64 fileBytes = QFileInfo(path).size();
    // 0 asks for two threads whatever the machine (tests); on one core they would only take turns.
    const bool worthIt = twoThreadsFromBytes == 0 || (twoThreadsFromBytes > 0 && fileBytes >= twoThreadsFromBytes &&
                                                      QThread::idealThreadCount() >= 2);
    const qint64 split = worthIt && fileBytes > 1
                             ? lineStartFrom(path, std::max<qint64>(1, qint64(double(fileBytes) * FirstPartShare)))
                             : -1;
    if (split <= 0 || split >= fileBytes)
        return readRecords(path, {}, QString(), streamJson, &progress, trace, store, out, error);
    qCDebug(lcTrace, "%s: read on two threads, the second part from byte %lld of %lld", qPrintable(path),
            qlonglong(split), qlonglong(fileBytes));

    ReadAhead ahead(path, {split, -1}, streamJson);
    if (!readRecords(path, {0, split}, QString(), streamJson, &progress, trace, store, out, error))
        return false;
    if (out->stopped)
        return true;
    return takeReadAhead(ahead, split, out->lines, progress, trace, store, out, error);
}

} // namespace sf::trace_import
