#pragma once

#include "EvalResult.h"
#include "RunLock.h"
#include "common/LoadError.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <atomic>
#include <memory>
#include <variant>

namespace sf {

/// A model of a run as resolved: what the user named, the provider it went to, the id the provider reported.
struct RunModel
{
    QString name;
    QString provider;
    QString resolvedId; ///< filled from the first reply
};

/// run.json: what was run, on what, with which settings, so a result can be reproduced and trusted.
struct RunManifest
{
    QString runId;
    QString skillName;
    QString skillDir;
    QString skillHash;    ///< SkillVersionStore::contentHash of the skill's files
    QString skillVersion; ///< the stored version with that hash, "" when the content was never snapshotted
    QString suitePath;
    QString suiteHash;
    QList<RunModel> models;
    QJsonObject parameters; ///< runs, mode, concurrency, limits, sampling, judge...
    /// Where the heavy verifiers ran: {"name": "local"} or {"name": "slurm", and its non-secret options}; empty in
    /// runs from before it was recorded, which ran here (core/cluster's ExecutorChoice reads it).
    QJsonObject executor;
    /// Who drove the student when it was a real agent CLI: {"name": "claude-code", "version": "2.1.332", "source":
    /// where the binary came from, "path"}; empty for Skillforge's own loop.
    QJsonObject harness;
    QString appVersion;
    QString host;
    QString startedAt;
    QString finishedAt; ///< "" while running or when it was interrupted
    QString status;     ///< "running", "finished", "cancelled"
    int plannedItems = 0;

    QJsonObject toJson() const;
    static RunManifest fromJson(const QJsonObject &object);
};

/// One run's folder: run.json, results.jsonl (one line per finished item, appended and flushed so a crash
/// loses only the items in flight), transcripts/ and artifacts/ (each item's workspace).
///
/// results.jsonl is only ever appended to. An item run again (a resume retries items that ended in an error)
/// gets a second line; readers keep the last line per item key (model, arm, case, repeat), so the newest
/// result supersedes the older one while the file keeps the history.
class RunStore final
{
public:
    /// Creates <runsDir>/<run id>/ with a fresh, collision-free id (UTC time plus a random suffix), holding its writer
    /// lock.
    static std::variant<RunStore, QString> create(const QString &runsDir, RunManifest manifest);
    enum class Access
    {
        Append,  ///< to resume: a truncated last line is cut from the file so appends continue on a clean line
        ReadOnly ///< to look at (compare, report): the files are never changed, even while another process runs
    };
    /// Opens an existing run folder; a truncated last line of results.jsonl (a kill mid-write) is dropped. Append
    /// takes the run's writer lock first (RunLock) and fails, naming the holder, while another process writes it.
    static std::variant<RunStore, LoadError> open(const QString &runDir, Access access = Access::Append);

    QString dir() const { return m_dir; }
    const RunManifest &manifest() const { return m_manifest; }
    RunManifest &manifest() { return m_manifest; }
    const QList<ItemResult> &results() const { return m_results; }
    bool hasResult(const ItemKey &key) const;

    /// Done writing (the runner has recorded the end): lets another writer open the run, once every recorded item
    /// is on disk. Appends after this are a bug.
    void releaseWriterLock();

    /// Writes run.json atomically; "" or an error.
    QString saveManifest() const;
    /// Appends one line to results.jsonl and flushes it (a killed process keeps it; the sync to the disk follows on
    /// a worker thread); "" or an error. A result for an item already held replaces it in results().
    QString append(const ItemResult &result);
    /// Writes transcripts/<key>.json; returns its path relative to the run folder, or "" on failure.
    QString writeTranscript(const ItemKey &key, const QJsonObject &transcript) const;
    /// What the runner does for each finished item: the result is in results() at once, and its transcript and then
    /// its line are written, in that order, on the run's writer thread. When a batch of items finishes together, the
    /// next requests need not wait for the batch's disk writes (0.2 ms an item, measured). Returns the result with
    /// its transcript's path.
    ItemResult record(ItemResult result, const QJsonObject &transcript);
    /// Waits until every recorded item is written; the first write that failed, or "".
    QString waitForWrites() const;
    /// artifacts/<key>/workspace, emptied and created.
    QString freshWorkspace(const ItemKey &key) const;

private:
    explicit RunStore(QString dir)
        : m_dir(std::move(dir))
    {
    }
    void syncSoon() const;
    static void syncResultsSoon(const QString &runDir, const std::shared_ptr<std::atomic_bool> &syncPending);
    void remember(const ItemResult &result);
    struct Writer;

    QString m_dir;
    RunManifest m_manifest;
    QList<ItemResult> m_results;
    std::shared_ptr<RunLock> m_lock; ///< while this store may append (copies share it)
    std::shared_ptr<std::atomic_bool> m_syncPending = std::make_shared<std::atomic_bool>(false);
    std::shared_ptr<Writer> m_writer; ///< record()'s thread, made on first use (copies share it)
};

/// A new run id: "20260130T004512Z-3f9a1c".
QString newRunId();

} // namespace sf
