#pragma once

#include "EvalRunner.h"
#include "LocalExecutor.h"
#include "RunStore.h"

#include <QObject>
#include <functional>
#include <memory>
#include <optional>
#include <variant>

namespace sf {

class ChatClient;

/// What to evaluate: a new run (skill, suite, settings, where runs go) or the resumption of one.
struct EvalPlan
{
    QString skillDir;  ///< may be empty when resuming (run.json names it)
    QString suitePath; ///< empty: the skill's own tests (or, when resuming, run.json's suite)
    EvalConfig config; ///< ignored when resuming: run.json's settings are used
    QString runsDir = QStringLiteral("runs");
    QString resumeDir; ///< non-empty: finish this run instead of starting a new one
    /// Where the heavy verifiers run when not in this process (core/cluster: jobs on Slurm): the command verifier's
    /// runner, and the cuda_kernel checker made for the project's kernels folder. Unset: here, as always.
    CommandRunner verifierCommand;
    std::function<std::unique_ptr<KernelChecker>(const QString &projectKernelsFolder)> kernelChecker;
    /// What run.json records of where the heavy work runs (core/cluster's ExecutorChoice::toJson()); a resumed
    /// run records the executor of its latest session. Empty: left as it was (a new run records nothing).
    QJsonObject executor;
    /// A spending cap over the whole run (EvalRunner::setSpendingCap), for this session: a resumed run may be given a
    /// higher one, or none. Every model must have a price, or the cap cannot be kept.
    std::optional<double> maxCostUsd;
};

/**
 * One evaluation as the command line and the GUI run it: the skill and suite loaded and checked, the run store
 * created (or reopened, refusing when the skill or suite changed since), and the runner over a LocalExecutor.
 */
class EvalSession final : public QObject
{
    Q_OBJECT

public:
    /// Loads and checks everything @p plan names; an error message (bad input) when something is wrong.
    static std::variant<std::unique_ptr<EvalSession>, QString> prepare(ChatClient &chat, const EvalPlan &plan,
                                                                       CommandRunner runCommand);
    ~EvalSession() override;

    RunStore &store() { return *m_store; }
    EvalRunner &runner() { return *m_runner; }
    const TestSuite &suite() const { return m_suite; }
    const EvalConfig &config() const { return m_config; }

    void start();
    void cancel();

private:
    EvalSession() = default;

    TestSuite m_suite;
    EvalConfig m_config;
    std::optional<RunStore> m_store;
    std::unique_ptr<KernelChecker> m_kernels; ///< outlives the executor, whose sessions use it
    std::unique_ptr<Executor> m_executor;     ///< a LocalExecutor, or an AgentCliExecutor for a CLI harness
    std::unique_ptr<EvalRunner> m_runner;
};

} // namespace sf
