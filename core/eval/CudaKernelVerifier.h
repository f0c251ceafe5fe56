#pragma once

#include "Verifiers.h"

namespace sf {

/**
 * The `cuda_kernel` verifier backed by core/kernels: the student's kernel is built with nvcc and run
 * by the sandboxed runner against the task's reference. "Compiled, not run" (no GPU here) is reported
 * as not available, never as a pass.
 */
class CudaKernelVerifier final : public KernelChecker
{
public:
    /** @p projectKernelsFolder: a project's kernels/ whose tasks join the bundled ones (may be empty). */
    explicit CudaKernelVerifier(QString projectKernelsFolder = {});

    VerifierOutcome check(const VerifierSpec &spec, const QString &workspace, const QString &sourcePath) override;

private:
    QString m_projectKernelsFolder;
};

} // namespace sf
