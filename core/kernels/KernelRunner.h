#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QSocketNotifier>
#include <QTimer>

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
 * Starts skillforge-kernel-runner for one candidate in its own process with a timeout and reads the
 * verdict from a private pipe that the child sees as fd 3 (see harness/VerdictProtocol.h for why a
 * candidate cannot forge it). Whatever the candidate does — crash, illegal address, hang, exit —
 * ends this child, never Skillforge.
 */
class KernelRunner final : public QObject
{
    Q_OBJECT

public:
    explicit KernelRunner(QObject *parent = nullptr);
    ~KernelRunner() override;

    void start(const KernelRunRequest &request);
    void cancel();
    bool isRunning() const { return m_process != nullptr; }

    /// The runner executable: $SKILLFORGE_KERNEL_RUNNER, next to this program, or the build tree's;
    /// empty when none exists (the project was built without the CUDA language).
    static QString findRunner();

    /// Judges what a finished runner left: the pipe's bytes must be one frame signed with @p key
    /// for @p nonce; otherwise the outcome says why (crash, timeout, no verdict, forged or damaged).
    static KernelRunOutcome interpret(const QByteArray &pipeData, const QByteArray &key, const QByteArray &nonce,
                                      int exitCode, bool crashed, bool timedOut, const QByteArray &stdErr,
                                      int timeoutMs);

Q_SIGNALS:
    void finished(const sf::KernelRunOutcome &outcome);

private:
    void drainPipe();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void closePipe();

    KernelRunRequest m_request;
    QByteArray m_key;
    QByteArray m_nonce;
    QByteArray m_pipeData;
    QByteArray m_stdErr;
    int m_readFd = -1;
    bool m_timedOut = false;
    QPointer<QProcess> m_process;
    QSocketNotifier *m_notifier = nullptr;
    QTimer m_timeout;
};

} // namespace sf

Q_DECLARE_METATYPE(sf::KernelRunOutcome)
