#include "Sandbox.h"

#include "BubblewrapArguments.h"
#include "ProcessLimit.h"
#include "SandboxProcess.h"

#include <QEventLoop>
#include <QMutex>
#include <QProcess>
#include <QStandardPaths>
#include <optional>

namespace sf {

QString SandboxResult::summary() const
{
    if (!error.isEmpty()) {
        return QStringLiteral("did not run: %1").arg(error);
    }
    QString how;
    if (timedOut) {
        how = QStringLiteral("timed out");
    } else if (tooManyProcesses) {
        how = QStringLiteral("killed: too many processes");
    } else if (workspaceFull) {
        how = QStringLiteral("killed: it wrote more to its workspace than the limit allows");
    } else if (cancelled) {
        how = QStringLiteral("cancelled");
    } else if (outOfMemory) {
        how = QStringLiteral("out of memory (exit %1)").arg(exitCode);
    } else if (crashed) {
        how = QStringLiteral("killed by signal %1").arg(exitCode - 128);
    } else {
        how = QStringLiteral("exit %1").arg(exitCode);
    }
    QString text = QStringLiteral("%1 after %2 ms").arg(how).arg(wallMs);
    if (outputTruncated) {
        text += QStringLiteral(" (output truncated)");
    }
    return text;
}

bool sandboxProcessCapIsEnforced()
{
    return PidsCgroup::isAvailable() || processRlimitAllowing(1) > 0;
}

bool sandboxAvailable(QString *why)
{
    // Probed once per process: whether bwrap exists and may create the namespaces we ask for.
    static QMutex mutex;
    static std::optional<QString> problem;
    const QMutexLocker lock(&mutex);
    if (!problem) {
        const QString bwrap = QStandardPaths::findExecutable(QStringLiteral("bwrap"));
        if (bwrap.isEmpty()) {
            problem = QStringLiteral("bubblewrap (bwrap) is not installed; install the 'bubblewrap' package");
        } else {
            SandboxSpec probe;
            probe.program = QStringLiteral("true");
            QProcess process;
            process.start(bwrap, bubblewrapArguments(probe));
            const bool ended = process.waitForFinished(10'000);
            if (!ended || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
                const QString said = QString::fromLocal8Bit(process.readAllStandardError()).trimmed();
                problem = QStringLiteral("bubblewrap cannot create a sandbox here: %1")
                              .arg(said.isEmpty() ? process.errorString() : said);
            } else {
                problem = QString();
            }
        }
    }
    if (why) {
        *why = *problem;
    }
    return problem->isEmpty();
}

SandboxResult runSandboxed(const SandboxSpec &spec)
{
    SandboxProcess process;
    SandboxResult result;
    QEventLoop loop;
    QObject::connect(&process, &SandboxProcess::finished, &loop, [&](const SandboxResult &ended) {
        result = ended;
        loop.quit();
    });
    process.start(spec);
    loop.exec();
    return result;
}

} // namespace sf
