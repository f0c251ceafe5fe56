#pragma once

#include "sandbox/Sandbox.h"
#include "sandbox/SandboxProcess.h"

#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QPointer>

namespace sf {

/// One run of the kernel runner over a built candidate.
struct KernelRunRequest
{
    QString runnerPath;       ///< empty: KernelRunner::findRunner()
    QString taskFile;         ///< on disk (the runner cannot read Qt resources)
    QString dtype;
    QString candidateLibrary;
    QString baselineLibrary;
    QString workFolder;       ///< where the key file is written; must exist
    int seeds = 5;
    bool timing = true;
    int timeoutMs = 600000;
};

/// What came back: the runner's authenticated report, or why there is none.
struct KernelRunOutcome
{
    bool authentic = false; ///< body holds a verdict the runner signed for this run
    QJsonObject body;
    QString problem;        ///< when not authentic: crash, hang, no verdict, or a rejected frame
    int exitCode = 0;
    bool crashed = false;
    bool timedOut = false;
    QString stdErrTail;     ///< the last lines the runner (or the candidate) wrote to stderr
};

/**
 * Starts skillforge-kernel-runner for one candidate in the bubblewrap sandbox (GPU devices bound, the
 * work folder the only writable place, no network) with a timeout, and reads the verdict from the
 * sandbox's private pipe on fd 3 (see harness/VerdictProtocol.h for why a candidate cannot forge it).
 * Whatever the candidate does — crash, illegal address, hang, exit — ends this child, never Skillforge.
 * Without a usable sandbox nothing runs and the outcome says why.
 */
class KernelRunner final : public QObject
{
    Q_OBJECT

public:
    explicit KernelRunner(QObject *parent = nullptr);
    ~KernelRunner() override;

    void start(const KernelRunRequest &request);
    void cancel();
    bool isRunning() const { return m_sandbox != nullptr; }

    /// The runner executable: $SKILLFORGE_KERNEL_RUNNER, next to this program, or the build tree's;
    /// empty when none exists (the project was built without the CUDA language).
    static QString findRunner();

    /// The sandbox specification for @p request, with the key file at @p keyFile and @p nonce.
    static SandboxSpec sandboxSpec(const KernelRunRequest &request, const QString &runner, const QString &keyFile,
                                   const QByteArray &nonce);
    /// The folders of @p libraryPath (LD_LIBRARY_PATH's form) that hold the CUDA driver (libcuda.so*) or runtime
    /// (libcudart.so*). Some GPU machines (Kubernetes nodes, which mount the driver at /usr/local/nvidia/lib64)
    /// name them only in that variable, which the sandbox does not pass on; the runner gets them named again.
    static QStringList cudaLibraryFolders(const QString &libraryPath);

    /// Judges what a finished runner left: the pipe's bytes must be one frame signed with @p key
    /// for @p nonce; otherwise the outcome says why (crash, timeout, no verdict, forged or damaged).
    static KernelRunOutcome interpret(const QByteArray &pipeData, const QByteArray &key, const QByteArray &nonce,
                                      int exitCode, bool crashed, bool timedOut, const QByteArray &stdErr,
                                      int timeoutMs);

Q_SIGNALS:
    void finished(const sf::KernelRunOutcome &outcome);

private:
    void onSandboxFinished(const SandboxResult &result);

    KernelRunRequest m_request;
    QByteArray m_key;
    QByteArray m_nonce;
    QPointer<SandboxProcess> m_sandbox;
};

} // namespace sf

Q_DECLARE_METATYPE(sf::KernelRunOutcome)
