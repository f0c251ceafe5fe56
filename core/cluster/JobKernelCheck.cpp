#include "JobKernelCheck.h"

#include "JobVerifiers.h"
#include "SlurmJobFeed.h"
#include "common/OffThread.h"
#include "jobs/Job.h"

namespace sf {

JobKernelCheck::JobKernelCheck(QObject *parent)
    : QObject(parent)
{
}

JobKernelCheck::~JobKernelCheck()
{
    // Nothing of a check whose view is gone keeps a node busy.
    if (m_runner)
        m_runner->cancelAll();
}

void JobKernelCheck::start(const KernelCheckRequest &request, const ExecutorChoice &executor, Job *job,
                           const SlurmTuning &tuning)
{
    if (m_running)
        return;
    m_running = true;
    m_cancelled = false;
    m_job = job;
    Q_EMIT stageChanged(tr("Asking Slurm whether it takes the job (sbatch --test-only)…"));
    runOffThread(
        this, [executor, tuning] { return makeJobRunner(executor, true, tuning); },
        [this, request](std::variant<std::shared_ptr<JobRunner>, QString> made) {
            if (const QString *refused = std::get_if<QString>(&made))
                fail(*refused);
            else if (m_cancelled)
                fail(tr("cancelled"));
            else
                runOn(std::get<std::shared_ptr<JobRunner>>(made), request);
        });
}

void JobKernelCheck::runOn(const std::shared_ptr<JobRunner> &runner, const KernelCheckRequest &request)
{
    m_runner = runner;
    followSlurmJobs(m_job, runner);
    Q_EMIT stageChanged(tr("Building and running as a Slurm job…"));
    const ClusterJob job = kernelCheckJob(request.taskId, request.dtype, request.source, request.candidateName,
                                          request.projectKernelsFolder, request.arch, request.timing);
    runOffThread(
        this, [runner, job] { return runner->run(job); },
        [this](const ClusterJobResult &result) {
            if (!result.ok()) {
                fail(m_cancelled ? tr("cancelled") : tr("the job failed: %1").arg(result.error));
                return;
            }
            m_running = false;
            m_runner.reset();
            Q_EMIT finished(KernelVerdict::fromJson(result.output));
        });
}

void JobKernelCheck::cancel()
{
    if (!m_running)
        return;
    m_cancelled = true;
    if (m_runner)
        m_runner->cancelAll();
}

void JobKernelCheck::fail(const QString &reason)
{
    m_running = false;
    m_runner.reset();
    Q_EMIT failed(reason, m_cancelled);
}

} // namespace sf
