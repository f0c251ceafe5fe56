#pragma once

#include "kernels/KernelBuild.h"
#include "sandbox/SandboxProcess.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QTimer>

namespace sf {

/// What to build: a candidate's source, how it is named to the user, the target and the cache.
struct KernelBuildRequest
{
    QString source;
    QString displayName = QStringLiteral("candidate.cu");
    QString arch = QStringLiteral("sm_90"); ///< sm_XY; from the detected GPU where there is one
    QString cacheFolder;                     ///< empty: KernelBuilder::defaultCacheFolder()
    QStringList requiredEntryPoints;         ///< functions the library must export, e.g. rmsnorm_bf16
    int timeoutMs = 120000;
    QString nvccPath;                        ///< empty: CudaToolchain::findNvcc()
};

/**
 * Builds a CUDA candidate into a shared library with nvcc, with flags the harness owns:
 * `-O3 -std=c++17 -shared -Xcompiler -fPIC -cudart shared -lineinfo -gencode ... -Xptxas -v`.
 * The shared CUDA runtime keeps the candidate's CUDA calls visible as imports, which `nm -D` then
 * checks (kernelbuild::scanImportedSymbols). Results are cached by SHA-256 of source + flags +
 * `nvcc --version`, so rebuilding an unchanged candidate costs one nvcc --version call. Owns its
 * child processes, enforces the timeout, and can be cancelled. nvcc and nm read model-written input, so they run
 * in the sandbox (core/sandbox), the build folder its only writable place: a candidate's `#include` of a file
 * elsewhere (a key, a config) finds nothing to quote into the build log.
 */
class KernelBuilder final : public QObject
{
    Q_OBJECT

public:
    explicit KernelBuilder(QObject *parent = nullptr);
    ~KernelBuilder() override;

    void start(const KernelBuildRequest &request);
    void cancel();
    bool isRunning() const { return m_process != nullptr || m_sandboxed != nullptr; }

    /// Runs start() and waits in a local event loop (the command line and tests).
    static KernelBuildResult build(const KernelBuildRequest &request);

    static QString defaultCacheFolder();
    /// nvcc's flags for @p arch ("sm_90"), without input and output.
    static QStringList compilerFlags(const QString &arch);
    /// "9.0" -> "sm_90"; empty when @p capability is not "major.minor".
    static QString archForCapability(const QString &capability);

Q_SIGNALS:
    void finished(const sf::KernelBuildResult &result);

private:
    enum class Step { Version, Compile, Symbols };
    void runStep(Step step, const QString &program, const QStringList &arguments);
    void runSandboxedStep(Step step, const QString &program, const QStringList &arguments);
    void onSandboxedStepFinished(const SandboxResult &result);
    void stepFinished(int exitCode, const QString &output);
    void afterVersion(const QString &output);
    void afterCompile(int exitCode, const QString &output);
    void afterSymbols(int exitCode, const QString &output);
    void finish();
    void fail(const QString &message);

    KernelBuildRequest m_request;
    KernelBuildResult m_result;
    QString m_workFolder;  ///< where this build writes before it is moved into the cache
    QString m_entryFolder; ///< the cache entry
    Step m_step = Step::Version;
    QPointer<QProcess> m_process;         ///< nvcc --version, which reads nothing of the candidate's
    QPointer<SandboxProcess> m_sandboxed; ///< the steps that read the candidate: nvcc, nm
    QTimer m_timeout;
    QElapsedTimer m_clock;
};

} // namespace sf

Q_DECLARE_METATYPE(sf::KernelBuildResult)
