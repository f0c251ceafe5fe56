#pragma once

#include "kernels/CudaToolchain.h"
#include "kernels/KernelBuilder.h"
#include "kernels/KernelRunner.h"
#include "kernels/KernelTask.h"
#include "kernels/KernelVerdict.h"

#include <QObject>
#include <QTemporaryDir>

#include <memory>
#include <optional>

namespace sf {

/// What to check: a task, a dtype and the candidate's source.
struct KernelCheckRequest
{
    QString taskId;
    QString dtype = QStringLiteral("bf16");
    QString source;
    QString candidateName = QStringLiteral("candidate.cu");
    QString projectKernelsFolder; ///< a project's kernels/ (may be empty): its tasks join the bundled ones
    QString arch;                 ///< empty: from the detected GPU, else defaultArch
    QString defaultArch = QStringLiteral("sm_90");
    QString cacheFolder;          ///< empty: KernelBuilder::defaultCacheFolder()
    int buildTimeoutMs = 120000;
    int runTimeoutMs = 600000;
    bool timing = true;
};

/**
 * The whole check of one candidate kernel — the API the cuda_kernel verifier and the command line use:
 * load the task, detect the GPU, build the candidate (and the baseline), and, where a CUDA device is
 * present, run both in the runner; the result is a KernelVerdict that is passed, failed with a
 * reason, or "compiled, not run" (never a pass) on machines without a GPU.
 */
class KernelCheck final : public QObject
{
    Q_OBJECT

public:
    explicit KernelCheck(QObject *parent = nullptr);
    ~KernelCheck() override;

    void start(const KernelCheckRequest &request);
    void cancel();
    bool isRunning() const { return m_running; }

    /// start() and wait in a local event loop.
    static KernelVerdict run(const KernelCheckRequest &request);

    /// The kernel in an answer: the first fenced ```cuda (or ```cu / ```c++ with a __global__) block; empty when none.
    static QString extractCudaSource(const QString &answer);

Q_SIGNALS:
    void stageChanged(const QString &stage);
    void finished(const sf::KernelVerdict &verdict);

private:
    void onToolchain(const CudaToolchainInfo &info);
    void onCandidateBuilt(const KernelBuildResult &result);
    void onBaselineBuilt(const KernelBuildResult &result);
    void onRun(const KernelRunOutcome &outcome);
    void finish(KernelVerdict::Status status, const QString &reason);

    KernelCheckRequest m_request;
    std::optional<KernelTask> m_task;
    kernels::DType m_dtype = kernels::DType::BF16;
    CudaToolchainInfo m_toolchainInfo;
    KernelVerdict m_verdict;
    CudaToolchain m_toolchain;
    KernelBuilder m_builder;
    KernelRunner m_runner;
    std::unique_ptr<QTemporaryDir> m_work;
    bool m_buildingBaseline = false;
    bool m_running = false;
};

} // namespace sf
