#include "kernels/KernelRunner.h"

#include "kernels/harness/VerdictProtocol.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRandomGenerator>

#include <fcntl.h>
#include <unistd.h>

namespace sf {

namespace {
constexpr qsizetype MaxVerdictBytes = 8 * 1024 * 1024;
constexpr qsizetype StdErrTailBytes = 4096;
constexpr int VerdictFd = 3;

QByteArray randomHex(int bytes)
{
    QByteArray raw(bytes, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32 *>(raw.data()), bytes / 4);
    return raw.toHex();
}
} // namespace

KernelRunner::KernelRunner(QObject *parent)
    : QObject(parent)
{
    m_timeout.setSingleShot(true);
    connect(&m_timeout, &QTimer::timeout, this, [this] {
        if (!m_process)
            return;
        m_timedOut = true;
        m_process->kill();
    });
}

KernelRunner::~KernelRunner()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(5000);
    }
    closePipe();
}

QString KernelRunner::findRunner()
{
    const QString fromEnvironment = qEnvironmentVariable("SKILLFORGE_KERNEL_RUNNER");
    if (!fromEnvironment.isEmpty())
        return QFileInfo(fromEnvironment).isExecutable() ? fromEnvironment : QString();
    const QString name = QStringLiteral("skillforge-kernel-runner");
    const QString beside = QCoreApplication::applicationDirPath() + u'/' + name;
    if (QFileInfo(beside).isExecutable())
        return beside;
#ifdef SKILLFORGE_KERNEL_RUNNER_BUILD_PATH
    if (QFileInfo(QStringLiteral(SKILLFORGE_KERNEL_RUNNER_BUILD_PATH)).isExecutable())
        return QStringLiteral(SKILLFORGE_KERNEL_RUNNER_BUILD_PATH);
#endif
    return {};
}

void KernelRunner::start(const KernelRunRequest &request)
{
    if (m_process)
        return;
    m_request = request;
    m_pipeData.clear();
    m_stdErr.clear();
    m_timedOut = false;
    const QString runner = request.runnerPath.isEmpty() ? findRunner() : request.runnerPath;
    auto failNow = [this](const QString &problem) {
        KernelRunOutcome outcome;
        outcome.problem = problem;
        Q_EMIT finished(outcome);
    };
    if (runner.isEmpty()) {
        failNow(tr("the kernel runner is not installed (this build of Skillforge was made without CUDA)"));
        return;
    }

    // The key travels in a file the runner reads and deletes before it loads the candidate.
    m_key = randomHex(32);
    m_nonce = randomHex(16);
    const QString keyFile = request.workFolder + QStringLiteral("/verdict.key");
    QFile key(keyFile);
    if (!key.open(QIODevice::WriteOnly | QIODevice::Truncate) || key.write(m_key) != m_key.size()) {
        failNow(tr("cannot write the verdict key into %1").arg(request.workFolder));
        return;
    }
    key.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    key.close();

    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        failNow(tr("cannot create the verdict pipe"));
        return;
    }
    m_readFd = fds[0];
    const int writeFd = fds[1];
    ::fcntl(m_readFd, F_SETFL, ::fcntl(m_readFd, F_GETFL) | O_NONBLOCK);
    m_notifier = new QSocketNotifier(m_readFd, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &KernelRunner::drainPipe);

    auto *process = new QProcess(this);
    m_process = process;
    // Only fd 3 is passed on: everything Qt opened is close-on-exec, and dup2 clears that flag on 3.
    process->setChildProcessModifier([writeFd] { ::dup2(writeFd, VerdictFd); });
    process->setWorkingDirectory(request.workFolder);
    connect(process, &QProcess::readyReadStandardError, this, [this, process] {
        m_stdErr += process->readAllStandardError();
        if (m_stdErr.size() > 4 * StdErrTailBytes)
            m_stdErr = m_stdErr.right(StdErrTailBytes);
    });
    // Candidate output on stdout is read and dropped: it never counts.
    connect(process, &QProcess::readyReadStandardOutput, process, [process] { process->readAllStandardOutput(); });
    connect(process, &QProcess::finished, this, &KernelRunner::onFinished);
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            process->deleteLater();
            m_process = nullptr;
            m_timeout.stop();
            closePipe();
            KernelRunOutcome outcome;
            outcome.problem = tr("cannot start the kernel runner: %1").arg(process->errorString());
            Q_EMIT finished(outcome);
        }
    });
    QStringList arguments{QStringLiteral("run"),
                          QStringLiteral("--task"), request.taskFile,
                          QStringLiteral("--dtype"), request.dtype,
                          QStringLiteral("--candidate"), request.candidateLibrary,
                          QStringLiteral("--baseline"), request.baselineLibrary,
                          QStringLiteral("--key-file"), keyFile,
                          QStringLiteral("--nonce"), QString::fromLatin1(m_nonce),
                          QStringLiteral("--verdict-fd"), QString::number(VerdictFd),
                          QStringLiteral("--seeds"), QString::number(request.seeds)};
    if (!request.timing)
        arguments << QStringLiteral("--no-timing");
    process->start(runner, arguments);
    ::close(writeFd); // the child holds its copy; EOF arrives when it exits
    m_timeout.start(request.timeoutMs);
}

void KernelRunner::cancel()
{
    if (m_process)
        m_process->kill();
}

void KernelRunner::drainPipe()
{
    if (m_readFd < 0)
        return;
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::read(m_readFd, buffer, sizeof buffer);
        if (n > 0) {
            if (m_pipeData.size() < MaxVerdictBytes)
                m_pipeData.append(buffer, n);
            continue;
        }
        if (n == 0) { // EOF
            if (m_notifier)
                m_notifier->setEnabled(false);
        }
        return;
    }
}

void KernelRunner::closePipe()
{
    delete m_notifier;
    m_notifier = nullptr;
    if (m_readFd >= 0)
        ::close(m_readFd);
    m_readFd = -1;
}

void KernelRunner::onFinished(int exitCode, QProcess::ExitStatus status)
{
    m_timeout.stop();
    m_stdErr += m_process->readAllStandardError();
    m_process->deleteLater();
    m_process = nullptr;
    drainPipe();
    closePipe();
    QFile::remove(m_request.workFolder + QStringLiteral("/verdict.key"));
    Q_EMIT finished(interpret(m_pipeData, m_key, m_nonce, exitCode, status == QProcess::CrashExit, m_timedOut,
                              m_stdErr, m_request.timeoutMs));
}

KernelRunOutcome KernelRunner::interpret(const QByteArray &pipeData, const QByteArray &key, const QByteArray &nonce,
                                         int exitCode, bool crashed, bool timedOut, const QByteArray &stdErr,
                                         int timeoutMs)
{
    KernelRunOutcome outcome;
    outcome.exitCode = exitCode;
    outcome.crashed = crashed;
    outcome.timedOut = timedOut;
    outcome.stdErrTail = QString::fromUtf8(stdErr.right(StdErrTailBytes)).trimmed();
    const kernels::DecodedVerdict decoded =
        kernels::decodeVerdictFrame(pipeData.toStdString(), kernels::fromHex(key.toStdString()), nonce.toStdString());
    if (timedOut) {
        outcome.problem = QCoreApplication::translate("sf::KernelRunner",
                                                      "the run did not finish within %1 s (a hang or an infinite loop "
                                                      "in the candidate); the runner was killed")
                              .arg(timeoutMs / 1000);
        return outcome;
    }
    if (decoded.ok) {
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(QByteArray::fromStdString(decoded.body), &error);
        if (document.isObject()) {
            outcome.authentic = true;
            outcome.body = document.object();
            return outcome;
        }
        outcome.problem = QCoreApplication::translate("sf::KernelRunner", "the runner's verdict is not valid JSON");
        return outcome;
    }
    if (pipeData.isEmpty()) {
        outcome.problem = crashed ? QCoreApplication::translate("sf::KernelRunner",
                                                                "the runner crashed while running the candidate (a "
                                                                "segmentation fault or abort in candidate code)")
                                  : QCoreApplication::translate("sf::KernelRunner",
                                                                "the runner ended without a verdict (exit code %1): "
                                                                "the candidate ended the process")
                                        .arg(exitCode);
        return outcome;
    }
    outcome.problem = QCoreApplication::translate("sf::KernelRunner", "verdict rejected: %1")
                          .arg(QString::fromStdString(decoded.error));
    return outcome;
}

} // namespace sf
