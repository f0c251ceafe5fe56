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

QString HeavyChecks::describe() const
{
    const auto count = [](int n, const QString &one, const QString &many) { return n == 1 ? one : many.arg(n); };
    if (!any())
        return QStringLiteral("no shell-command or CUDA kernel checks");
    QStringList parts;
    if (commands > 0)
        parts << count(commands, QStringLiteral("1 shell-command check"), QStringLiteral("%1 shell-command checks"));
    if (kernels > 0)
        parts << count(kernels, QStringLiteral("1 CUDA kernel check"), QStringLiteral("%1 CUDA kernel checks"));
    return parts.join(QStringLiteral(" and "));
}

HeavyChecks heavyChecksIn(const TestSuite &suite)
{
    HeavyChecks checks;
    for (const TestCase &testCase : suite.cases) {
        for (const VerifierSpec &verifier : testCase.allVerifiers()) {
            checks.commands += verifier.type == QLatin1String("command") ? 1 : 0;
            checks.kernels += verifier.type == QLatin1String("cuda_kernel") ? 1 : 0;
        }
    }
    return checks;
}

std::optional<HeavyChecks> heavyChecksOf(const EvalPlan &plan)
{
    QString suitePath = plan.suitePath;
    QString skillDir = plan.skillDir;
    if (!plan.resumeDir.isEmpty()) {
        const auto run = RunStore::open(plan.resumeDir, RunStore::Access::ReadOnly);
        const RunStore *store = std::get_if<RunStore>(&run);
        if (!store)
            return std::nullopt;
        suitePath = store->manifest().suitePath;
        skillDir = store->manifest().skillDir;
    }
    const auto suite = suitePath.isEmpty() ? readSkillTestSuite(skillDir) : readTestSuite(suitePath);
    if (const TestSuite *read = std::get_if<TestSuite>(&suite))
        return heavyChecksIn(*read);
    return std::nullopt;
}

ExecutorChoice executorFor(const EvalPlan &plan, const ExecutorChoice &executor)
{
    if (!executor.isSlurm())
        return executor;
    const std::optional<HeavyChecks> checks = heavyChecksOf(plan);
    return checks && !checks->any() ? ExecutorChoice::local() : executor;
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
    if (!executorFor(plan, executor).isSlurm()) {
        done(prepareOn(chat, plan, ExecutorChoice::local(), nullptr, std::move(runCommand)));
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
