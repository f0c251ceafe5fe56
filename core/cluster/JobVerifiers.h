#pragma once

#include "JobRunner.h"
#include "eval/Verifiers.h"

#include <memory>

namespace sf {

/// The command verifier's runner as jobs on @p runner: each command becomes a `command` job (run in the sandbox
/// wherever the job runs). A job that fails on the node comes back as an outcome with `jobError` set.
CommandRunner jobCommandRunner(std::shared_ptr<JobRunner> runner);

/// The cuda_kernel verifier as `kernel_check` jobs on a runner (the GPU gres asked for): the same request and
/// verdict as CudaKernelVerifier, built and run wherever the job lands.
class JobKernelChecker final : public KernelChecker
{
public:
    JobKernelChecker(std::shared_ptr<JobRunner> runner, QString projectKernelsFolder);

    VerifierOutcome check(const VerifierSpec &spec, const QString &workspace, const QString &sourcePath) override;

private:
    std::shared_ptr<JobRunner> m_runner;
    QString m_projectKernelsFolder;
};

/// The `kernel_check` job for a candidate (also what `skillforge kernel check --executor slurm` sends).
ClusterJob kernelCheckJob(const QString &taskId, const QString &dtype, const QString &source,
                          const QString &candidateName, const QString &projectKernelsFolder, const QString &arch = {},
                          bool timing = true);

} // namespace sf
