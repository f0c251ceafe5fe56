#pragma once

#include "ExecutorChoice.h"
#include "eval/EvalSession.h"

#include <functional>
#include <memory>
#include <optional>
#include <variant>

namespace sf {

class ChatClient;
class Job;

/// Sends @p plan's heavy verifiers (command and cuda_kernel) to @p jobs, or leaves them here when it is null, and
/// has run.json record @p executor. What `eval --executor` and the GUI both do before EvalSession::prepare().
void routeHeavyWork(EvalPlan &plan, const std::shared_ptr<JobRunner> &jobs, const ExecutorChoice &executor);

/// A verifier waiting on its Slurm job holds a pool thread while it waits: makes room for every item @p session
/// runs at once.
void makeRoomForWaitingVerifiers(const EvalSession &session);

/// The executor that run.json in @p runDir records: local for runs from before it was recorded, and for a folder
/// without a readable run.json.
ExecutorChoice recordedExecutor(const QString &runDir);

/// Whether an evaluation's jobs will ask for a GPU on this executor: when its profile names a GPU gres (the
/// cuda_kernel jobs ask for it), which the check before the run then includes.
bool evalAsksForGpu(const ExecutorChoice &executor);

/// The checks of a suite that an executor other than this machine would run: command verifiers (run in the sandbox)
/// and cuda_kernel verifiers. Everything else (text checks, judges) and every model call stays here.
struct HeavyChecks
{
    int commands = 0;
    int kernels = 0;

    bool any() const { return commands + kernels > 0; }
    /// "3 shell-command checks and 1 CUDA kernel check"; "no shell-command or CUDA kernel checks".
    QString describe() const;
};
HeavyChecks heavyChecksIn(const TestSuite &suite);
/// The heavy checks of the suite @p plan runs (its suite file, the skill's own tests, or a resumed run's suite);
/// none when the suite cannot be read (preparing the session then says why).
std::optional<HeavyChecks> heavyChecksOf(const EvalPlan &plan);
/// @p executor, or this machine when it is Slurm and @p plan has nothing to send there: a run of text checks must not
/// fail on a scheduler it never needed.
ExecutorChoice executorFor(const EvalPlan &plan, const ExecutorChoice &executor);

/// An evaluation ready to start, and the runner its heavy work goes to (null for work done here).
struct LaunchedEvaluation
{
    std::unique_ptr<EvalSession> session;
    std::shared_ptr<JobRunner> jobs;
    ExecutorChoice executor;
};

/**
 * Prepares an evaluation the way the GUI starts one: the executor's runner made and checked (`sbatch --test-only`)
 * on a worker thread, since a scheduler may take seconds to answer; then, on @p context's thread, the heavy work
 * routed to it and the session prepared. @p done gets the evaluation, or why it cannot run (Slurm's refusal in plain
 * words, bad input) — never a hang. Work done here needs no check: @p done is called before this returns; so is a
 * plan whose suite has nothing for Slurm (executorFor()), which runs here.
 * With a @p job, its row in the Jobs panel follows the Slurm jobs (followSlurmJobs()); a job cancelled before Slurm
 * answered ends the launch ("cancelled") before a run folder is made.
 */
void launchEvaluation(ChatClient &chat, const EvalPlan &plan, const ExecutorChoice &executor, CommandRunner runCommand,
                      QObject *context, std::function<void(std::variant<LaunchedEvaluation, QString>)> done,
                      Job *job = nullptr, const SlurmTuning &tuning = {});

} // namespace sf
