#pragma once

#include "ExecutorChoice.h"
#include "kernels/KernelCheck.h"

#include <QObject>
#include <QPointer>
#include <memory>

namespace sf {

class Job;

/**
 * The Kernels view's Check on another executor: the request as one `kernel_check` job (with the GPU gres) on a
 * Slurm cluster, built and run on a node, the verdict back through the shared folder: the same verdict
 * `skillforge kernel check --executor slurm` prints. The runner is made and checked (`sbatch --test-only`) off the
 * UI thread, and the job waited on off it too. With a Jobs panel row, it shows the Slurm job and its state, and its
 * Cancel is scancel.
 */
class JobKernelCheck final : public QObject
{
    Q_OBJECT

public:
    explicit JobKernelCheck(QObject *parent = nullptr);
    ~JobKernelCheck() override;

    void start(const KernelCheckRequest &request, const ExecutorChoice &executor, Job *job = nullptr,
               const SlurmTuning &tuning = {});
    /// scancel: the check ends with failed(…, true).
    void cancel();
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void stageChanged(const QString &stage);
    void finished(const sf::KernelVerdict &verdict);
    /// No verdict: Slurm refused the job, the job failed on its node, or it was cancelled.
    void failed(const QString &reason, bool cancelled);

private:
    void runOn(const std::shared_ptr<JobRunner> &runner, const KernelCheckRequest &request);
    void fail(const QString &reason);

    std::shared_ptr<JobRunner> m_runner;
    QPointer<Job> m_job;
    bool m_running = false;
    bool m_cancelled = false;
};

} // namespace sf
