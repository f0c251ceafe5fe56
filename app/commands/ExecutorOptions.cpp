#include "ExecutorOptions.h"

#include "CommandRegistry.h"
#include "project/AppSettings.h"

#include <QCommandLineParser>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <thread>
#include <unistd.h>

namespace sf::cli {

namespace {

int interruptPipe[2] = {-1, -1};
std::atomic<bool> interrupted = false;

extern "C" void onInterrupt(int)
{
    const char byte = 1;
    [[maybe_unused]] const ssize_t written = ::write(interruptPipe[1], &byte, 1);
}

// Ctrl-C or SIGTERM while jobs are queued or running on the cluster: scancel them before exiting, as a local run's
// work dies with its process. A thread waits for the signal, as the main thread may be blocked on a job.
void cancelJobsOnInterrupt(const std::shared_ptr<JobRunner> &runner)
{
    if (interruptPipe[0] >= 0 || ::pipe(interruptPipe) != 0)
        return;
    std::thread([runner] {
        char byte = 0;
        if (::read(interruptPipe[0], &byte, 1) != 1)
            return;
        interrupted = true;
        err(QStringLiteral("interrupted: cancelling the Slurm jobs (scancel)\n"));
        runner->cancelAll();
        std::_Exit(130);
    }).detach();
    struct sigaction action = {};
    action.sa_handler = onInterrupt;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
}

} // namespace

void addExecutorOptions(QCommandLineParser &parser)
{
    for (const char *name :
         {"executor", "partition", "gres", "account", "time", "slurm-conf", "shared-dir", "sbatch-option", "poll-ms"})
        parser.addOption({QString::fromLatin1(name), QString(), QStringLiteral("VALUE")});
}

QString executorOptionsHelp()
{
    return QStringLiteral(
        "  --executor local|slurm  where the heavy work (builds, kernel runs, command verifiers) runs:\n"
        "                 here (default), or as Slurm jobs; model calls always stay here. The options below\n"
        "                 default to the settings' Slurm profile (skillforge.conf, [slurm])\n"
        "  --partition P  Slurm partition (default: the cluster's)\n"
        "  --gres G       generic resources for GPU jobs, e.g. gpu:1\n"
        "  --account A    Slurm account\n"
        "  --time T       Slurm time limit (minutes or [D-]HH:MM:SS; default: the job's own limit + 1 min)\n"
        "  --slurm-conf F SLURM_CONF for sbatch/squeue/scancel (default: the environment's)\n"
        "  --shared-dir D a folder the nodes see at the same path (job files and results; default\n"
        "                 ~/.cache/skillforge/cluster)\n"
        "  --sbatch-option O  one more sbatch option (repeatable)\n"
        "  --poll-ms MS   one squeue per MS at most (default 1000, at least 250)\n");
}

std::variant<ExecutorChoice, QString> executorFromOptions(const QCommandLineParser &parser,
                                                          const std::optional<ExecutorChoice> &recorded)
{
    QString executor = parser.value(QStringLiteral("executor"));
    if (executor.isEmpty())
        executor = recorded ? recorded->name() : QStringLiteral("local");
    if (executor == QLatin1String("local"))
        return ExecutorChoice::local();
    if (executor != QLatin1String("slurm"))
        return QStringLiteral("--executor must be local or slurm");
    // The command line first, then what the run recorded, then the settings' Slurm profile; SLURM_CONF from the
    // environment where none of them names one.
    SlurmProfile profile = recorded && recorded->isSlurm() ? recorded->slurm : AppSettings().slurmProfile();
    auto take = [&parser](const char *name, QString *value) {
        if (parser.isSet(QLatin1String(name)))
            *value = parser.value(QLatin1String(name));
    };
    take("partition", &profile.partition);
    take("gres", &profile.gres);
    take("account", &profile.account);
    take("time", &profile.time);
    take("slurm-conf", &profile.slurmConf);
    take("shared-dir", &profile.sharedDir);
    if (parser.isSet(QStringLiteral("sbatch-option")))
        profile.sbatchArgs = parser.values(QStringLiteral("sbatch-option"));
    return ExecutorChoice::onSlurm(resolveSlurmProfile(profile));
}

std::variant<std::shared_ptr<JobRunner>, QString> jobRunnerFor(const QCommandLineParser &parser,
                                                               const ExecutorChoice &choice, bool gpu)
{
    SlurmTuning tuning;
    if (parser.isSet(QStringLiteral("poll-ms")))
        tuning.pollMs = parser.value(QStringLiteral("poll-ms")).toInt();
    auto runner = makeJobRunner(choice, gpu, tuning);
    if (const auto *made = std::get_if<std::shared_ptr<JobRunner>>(&runner); made && *made)
        cancelJobsOnInterrupt(*made);
    return runner;
}

void waitIfInterrupted()
{
    while (interrupted.load())
        ::pause(); // until the interrupt's thread ends the process with 130
}

std::variant<std::shared_ptr<JobRunner>, QString> jobRunnerFromOptions(const QCommandLineParser &parser, bool gpu)
{
    const auto choice = executorFromOptions(parser);
    if (const QString *error = std::get_if<QString>(&choice))
        return *error;
    return jobRunnerFor(parser, std::get<ExecutorChoice>(choice), gpu);
}

} // namespace sf::cli
