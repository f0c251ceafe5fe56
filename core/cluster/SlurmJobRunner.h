#pragma once

#include "JobRunner.h"

#include <QStringList>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

namespace sf {

/// How jobs go to Slurm: the scheduler's options and the folder shared with the cluster.
struct SlurmOptions
{
    QString partition;       ///< -p; empty: the cluster's default
    QString gres;            ///< for jobs that need a GPU, e.g. "gpu:1"; empty: none asked
    QString account;         ///< --account
    QString time;            ///< --time as Slurm reads it (minutes, HH:MM:SS); empty: each job's limit plus a margin
    QStringList extraArgs;   ///< more sbatch options, passed as they are
    QString slurmConf;       ///< SLURM_CONF for the client tools; empty: theirs
    QString sharedDir;       ///< a folder the nodes see at the same path: job descriptions and results go there
    QString program;         ///< the skillforge the nodes run (installed there or on a shared path)
    int pollMs = 1000;       ///< one squeue per interval at most (the scheduler itself ticks about once a second)
    int batchWindowMs = 150; ///< jobs that arrive within this window go as one job array
    int maxArrayTasks = 16;  ///< CPU jobs of a batch share at most this many array tasks (GPU jobs: one each)
};

/// What the runner has seen of Slurm so far, as its activity listener gets it.
struct SlurmActivity
{
    std::map<QString, QString> states; ///< every job id submitted ("123_4") and its state word (see jobStates())
    QString refusal;                   ///< the last submission Slurm refused, in plain words; "" when none was
};

/**
 * Runs jobs as Slurm batch jobs. Jobs that arrive together (many items' verifiers) are written into the shared
 * folder and submitted as one job array with `sbatch --parsable`, each task running `skillforge cluster run-job`
 * on its node, which writes its result file atomically beside the description. One controller thread submits,
 * polls all active arrays with a single `squeue` per interval (then `sacct` for jobs that have aged out), and reads
 * results. A job that Slurm ends without a result (time limit, node failure, out of memory, cancelled) returns an
 * error; a refused submission returns sbatch's reason in plain words at once. The job's environment is not the
 * controller's (`--export=NONE`): provider keys never reach the cluster.
 */
class SlurmJobRunner final : public JobRunner
{
public:
    explicit SlurmJobRunner(SlurmOptions options);
    ~SlurmJobRunner() override;

    ClusterJobResult run(const ClusterJob &job) override;
    void cancelAll() override;
    QString name() const override { return QStringLiteral("slurm"); }

    /// Asks Slurm whether it would take a job with these options (`sbatch --test-only`), with the GPU gres when
    /// @p gpu: "" when it would, else the refusal in plain words. Also checks SLURM_CONF, sbatch and the program.
    QString check(bool gpu) const;

    /// Every job id submitted and its last seen state word (pending, running, done, failed, timeout, cancelled).
    std::map<QString, QString> jobStates() const;
    int submissions() const;
    int polls() const;

    /// Calls @p listener with the whole activity whenever it changes: after each submission (taken or refused),
    /// after a poll that changed a state, after cancelAll(). It runs on the runner's own thread (or the thread that
    /// cancels), never while the runner's lock is held; it learns what the polls learn, and costs no squeue of its
    /// own. Replacing it (or passing none) waits until a call in progress has returned, so a listener that is
    /// removed is never called again.
    void setActivityListener(std::function<void(const SlurmActivity &)> listener);

private:
    struct Waiter;
    struct ToolResult
    {
        int exitCode = -1;
        QString out;
        QString err;
    };

    void loop();
    void submit(std::vector<std::shared_ptr<Waiter>> batch);
    /// Slurm took @p batch as array @p id of @p tasks tasks in @p dir: its jobs become active.
    void submitted(const std::vector<std::shared_ptr<Waiter>> &batch, const QString &id, const QString &dir, int tasks);
    void poll();
    void finishWaiter(const std::shared_ptr<Waiter> &waiter, ClusterJobResult result);
    ToolResult tool(const QString &program, const QStringList &arguments, const QByteArray &input = {}) const;
    QStringList sbatchOptions(bool gpu, int timeLimitSeconds) const;
    /// Tells the listener, when the activity differs from what it was last told.
    void reportActivity();

    SlurmOptions m_options;
    mutable std::mutex m_mutex;
    std::condition_variable m_wake;
    std::deque<std::shared_ptr<Waiter>> m_pending;
    std::vector<std::shared_ptr<Waiter>> m_active;
    std::map<QString, QString> m_states;
    QString m_refusal;
    std::mutex m_listenerMutex; ///< held while the listener runs: replacing it waits for that call
    std::function<void(const SlurmActivity &)> m_listener;
    SlurmActivity m_reported; ///< what the listener was last told (under m_listenerMutex)
    int m_batches = 0;
    int m_submissions = 0;
    int m_polls = 0;
    bool m_stopping = false;
    std::thread m_thread;
};

} // namespace sf
