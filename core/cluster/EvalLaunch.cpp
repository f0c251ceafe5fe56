#include "EvalLaunch.h"

#include "JobVerifiers.h"
#include "SlurmJobFeed.h"
#include "common/OffThread.h"
#include "jobs/Job.h"

#include <QPointer>
#include <QThreadPool>

namespace sf {

void routeHeavyWork(EvalPlan &plan, const std::shared_ptr<JobRunner> &jobs, const ExecutorChoice &executor)
{
    plan.executor = executor.toJson();
    if (!jobs)
        return;
    plan.verifierCommand = jobCommandRunner(jobs);
    plan.kernelChecker = [jobs](const QString &kernels) { return std::make_unique<JobKernelChecker>(jobs, kernels); };
}

void makeRoomForWaitingVerifiers(const EvalSession &session)
{
    QThreadPool::globalInstance()->setMaxThreadCount(
        std::max(QThreadPool::globalInstance()->maxThreadCount(), session.config().concurrency + 4));
}

ExecutorChoice recordedExecutor(const QString &runDir)
{
    const auto run = RunStore::open(runDir, RunStore::Access::ReadOnly);
    const RunStore *store = std::get_if<RunStore>(&run);
    return store ? ExecutorChoice::fromJson(store->manifest().executor) : ExecutorChoice::local();
}

bool evalAsksForGpu(const ExecutorChoice &executor)
{
    return executor.isSlurm() && !executor.slurm.gres.isEmpty();
}

namespace {

std::variant<LaunchedEvaluation, QString> prepareOn(ChatClient &chat, EvalPlan plan, const ExecutorChoice &executor,
                                                    std::shared_ptr<JobRunner> jobs, CommandRunner runCommand)
{
    routeHeavyWork(plan, jobs, executor);
    auto prepared = EvalSession::prepare(chat, plan, std::move(runCommand));
    if (QString *error = std::get_if<QString>(&prepared))
        return std::move(*error);
    if (jobs)
        makeRoomForWaitingVerifiers(*std::get<std::unique_ptr<EvalSession>>(prepared));
    return LaunchedEvaluation{std::move(std::get<std::unique_ptr<EvalSession>>(prepared)), std::move(jobs), executor};
}

} // namespace

void launchEvaluation(ChatClient &chat, const EvalPlan &plan, const ExecutorChoice &executor, CommandRunner runCommand,
                      QObject *context, std::function<void(std::variant<LaunchedEvaluation, QString>)> done, Job *job,
                      const SlurmTuning &tuning)
{
    if (!executor.isSlurm()) {
        done(prepareOn(chat, plan, executor, nullptr, std::move(runCommand)));
        return;
    }
    // Recorded as the run used it: SLURM_CONF and the shared folder as absolute paths.
    const ExecutorChoice resolved = ExecutorChoice::onSlurm(resolveSlurmProfile(executor.slurm));
    QPointer<Job> followed(job);
    const bool followsJob = job != nullptr;
    runOffThread(
        context, [resolved, tuning] { return makeJobRunner(resolved, evalAsksForGpu(resolved), tuning); },
        [&chat, plan, resolved, runCommand, done, followed,
         followsJob](std::variant<std::shared_ptr<JobRunner>, QString> made) {
            if (const QString *refused = std::get_if<QString>(&made)) {
                done(*refused);
                return;
            }
            if (followsJob && (!followed || !followed->isActive())) { // cancelled meanwhile: no run folder for it
                done(QStringLiteral("cancelled"));
                return;
            }
            const std::shared_ptr<JobRunner> jobs = std::get<std::shared_ptr<JobRunner>>(made);
            followSlurmJobs(followed, jobs);
            done(prepareOn(chat, plan, resolved, jobs, runCommand));
        });
}

} // namespace sf
