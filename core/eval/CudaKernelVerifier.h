#pragma once

#include "Verifiers.h"

#include <optional>

namespace sf {

struct KernelVerdict;

/// The kernels/ folder of the project a skill folder belongs to (skills/<name>/ sits two levels below the
/// project), whose tasks join the bundled ones; "" when there is none.
QString projectKernelsFolderOf(const QString &skillDir);

/// The kernel a student wrote at @p sourcePath, or nullopt with @p missing set to the failed outcome that says so.
std::optional<QString> readStudentKernel(const VerifierSpec &spec, const QString &sourcePath, VerifierOutcome *missing);

/// A kernel verdict as @p spec's outcome: "compiled, not run" (no GPU) is not available, never a pass.
VerifierOutcome kernelVerdictOutcome(const VerifierSpec &spec, const KernelVerdict &verdict);

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
