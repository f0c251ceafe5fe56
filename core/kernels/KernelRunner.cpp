#include "kernels/KernelRunner.h"

#include "kernels/CudaToolchain.h"
#include "kernels/harness/VerdictProtocol.h"
#include "sandbox/BubblewrapArguments.h"
#include "sandbox/SandboxProcess.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRandomGenerator>


namespace sf {

namespace {
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
}

KernelRunner::~KernelRunner() = default; // a SandboxProcess child kills its program when deleted

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

QStringList KernelRunner::cudaLibraryFolders(const QString &libraryPath)
{
    QStringList folders;
    for (const QString &entry : libraryPath.split(u':', Qt::SkipEmptyParts)) {
        const QDir folder(entry);
        if (!folder.isAbsolute() || folders.contains(folder.absolutePath()))
            continue; // a relative entry would name the sandbox's working folder, not the host's
        if (!folder.entryList({QStringLiteral("libcuda.so*"), QStringLiteral("libcudart.so*")}, QDir::Files).isEmpty())
            folders << folder.absolutePath();
    }
    return folders;
}

SandboxSpec KernelRunner::sandboxSpec(const KernelRunRequest &request, const QString &runner, const QString &keyFile,
                                      const QByteArray &nonce)
{
    SandboxSpec spec;
    spec.program = runner;
    spec.arguments = {QStringLiteral("run"),
                      QStringLiteral("--task"), request.taskFile,
                      QStringLiteral("--dtype"), request.dtype,
                      QStringLiteral("--candidate"), request.candidateLibrary,
                      QStringLiteral("--baseline"), request.baselineLibrary,
                      QStringLiteral("--key-file"), keyFile,
                      QStringLiteral("--nonce"), QString::fromLatin1(nonce),
                      QStringLiteral("--verdict-fd"), QString::number(VerdictFd),
                      QStringLiteral("--seeds"), QString::number(request.seeds)};
    if (!request.timing)
        spec.arguments << QStringLiteral("--no-timing");
    spec.workspace = request.workFolder;
    spec.readOnlyPaths << runner << QFileInfo(request.candidateLibrary).absolutePath()
                       << QFileInfo(request.baselineLibrary).absolutePath()
                       << CudaToolchain::toolkitFoldersOutsideUsr();
    const QStringList libraryFolders = cudaLibraryFolders(qEnvironmentVariable("LD_LIBRARY_PATH"));
    if (!libraryFolders.isEmpty()) {
        spec.environment = defaultSandboxEnvironment(request.workFolder);
        spec.environment.insert(QStringLiteral("LD_LIBRARY_PATH"), libraryFolders.join(u':'));
        for (const QString &folder : libraryFolders) {
            if (!folder.startsWith(QStringLiteral("/usr/")))
                spec.readOnlyPaths << folder; // /usr is shown whole already
        }
    }
    spec.readOnlyPaths.removeDuplicates();
    spec.allowGpu = true;
    spec.passPipeFd = true;
    spec.limits.timeoutMs = request.timeoutMs;
    spec.limits.maxOutputBytes = 1 << 20;
    spec.limits.maxFileBytes = 16 << 20;
    return spec;
}

void KernelRunner::start(const KernelRunRequest &request)
{
    if (m_sandbox)
        return;
    m_request = request;
    const QString runner = request.runnerPath.isEmpty() ? findRunner() : request.runnerPath;
    auto failNow = [this](const QString &problem) {
        KernelRunOutcome outcome;
        outcome.problem = problem;
        // Like SandboxProcess, report after start() has returned.
        QMetaObject::invokeMethod(this, [this, outcome] { Q_EMIT finished(outcome); }, Qt::QueuedConnection);
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
    key.close();
    // The sandboxed program runs as another user (65534) and must read the key, then delete it.
    key.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther);

    m_sandbox = new SandboxProcess(this);
    connect(m_sandbox, &SandboxProcess::finished, this, &KernelRunner::onSandboxFinished);
    m_sandbox->start(sandboxSpec(request, runner, keyFile, m_nonce));
}

void KernelRunner::cancel()
{
    if (m_sandbox)
        m_sandbox->cancel();
}

void KernelRunner::onSandboxFinished(const SandboxResult &result)
{
    m_sandbox->deleteLater();
    m_sandbox = nullptr;
    QFile::remove(m_request.workFolder + QStringLiteral("/verdict.key"));
    KernelRunOutcome outcome;
    if (!result.error.isEmpty()) {
        outcome.problem = tr("the kernel runner could not be started in the sandbox: %1").arg(result.error);
    } else {
        outcome = interpret(result.pipeData, m_key, m_nonce, result.exitCode, result.crashed || result.outOfMemory,
                            result.timedOut, result.stdErr, m_request.timeoutMs);
        if (!outcome.authentic && result.outOfMemory)
            outcome.problem += tr(" (it ran out of memory)");
        if (!outcome.authentic && result.tooManyProcesses)
            outcome.problem = tr("the candidate started too many processes or threads; the sandbox stopped it");
        if (!outcome.authentic && result.workspaceFull)
            outcome.problem = tr("the candidate wrote more to its work folder than the sandbox allows; it was stopped");
        if (!outcome.authentic && result.cancelled)
            outcome.problem = tr("cancelled");
    }
    Q_EMIT finished(outcome);
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
