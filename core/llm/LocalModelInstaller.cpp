#include "LocalModelInstaller.h"

#include "LlmLogging.h"
#include "LocalRuntime.h"
#include "common/ChildProcess.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <csignal>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

constexpr int tailLines = 30;

/** Copies the compiled-in installer and what it reads beside it into `dir`; empty, or why not. */
QString unpackInstaller(const QString &dir)
{
    if (!QDir().mkpath(dir)) {
        return u"cannot create %1"_s.arg(dir);
    }
    for (const QString &name : QDir(u":/local-model"_s).entryList(QDir::Files)) {
        const QString target = QDir(dir).filePath(name);
        QFile::remove(target); // the app's own copy wins over one an older version left
        if (!QFile::copy(u":/local-model/"_s + name, target) ||
            !QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner)) {
            return u"cannot write %1"_s.arg(target);
        }
    }
    return {};
}

} // namespace

LocalModelInstaller::LocalModelInstaller(QObject *parent)
    : QObject(parent)
{
}

LocalModelInstaller::~LocalModelInstaller()
{
    if (isRunning()) {
        const QSignalBlocker blocker(this);
        cancel();
        m_process->waitForFinished(5000);
    }
}

bool LocalModelInstaller::isRunning() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

void LocalModelInstaller::start()
{
    if (isRunning()) {
        return;
    }
    m_tail.clear();
    m_partial.clear();
    m_cancelling = false;
    const QString dir = LocalRuntime::cacheDir() + "/installer"_L1;
    if (const QString problem = unpackInstaller(dir); !problem.isEmpty()) {
        Q_EMIT failed(u"Could not prepare the local model installer: %1"_s.arg(problem));
        return;
    }
    delete m_process;
    m_process = new QProcess(this);
    m_process->setProgram(u"setsid"_s); // its own process group, so cancel() reaches pip and the compiler too
    m_process->setArguments({u"bash"_s, QDir(dir).filePath(u"setup-local-model"_s)});
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(u"SKILLFORGE_CACHE_DIR"_s, LocalRuntime::cacheDir());
    m_process->setProcessEnvironment(environment);
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    endWithParent(m_process);
    connect(m_process, &QProcess::readyRead, this, &LocalModelInstaller::readOutput);
    connect(m_process, &QProcess::finished, this, &LocalModelInstaller::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            Q_EMIT failed(u"Could not start the local model installer: %1"_s.arg(m_process->errorString()));
        }
    });
    qCInfo(lcLocalModel).noquote() << "installing the local model runtime into" << LocalRuntime::cacheDir();
    Q_EMIT progress(0, u"starting the installer"_s);
    m_process->start();
}

void LocalModelInstaller::cancel()
{
    if (!isRunning()) {
        return;
    }
    m_cancelling = true;
    // setsid made the installer the leader of its own group: its pid is the group's id.
    ::kill(-pid_t(m_process->processId()), SIGTERM);
}

void LocalModelInstaller::readOutput()
{
    static const QRegularExpression progressLine(uR"(^\[setup-local-model\] progress: (\d+)% (.*)$)"_s);
    m_partial += m_process->readAll();
    qsizetype newline = 0;
    while ((newline = m_partial.indexOf('\n')) >= 0) {
        const QString line = QString::fromUtf8(m_partial.left(newline)).trimmed();
        m_partial.remove(0, newline + 1);
        if (line.isEmpty()) {
            continue;
        }
        if (const QRegularExpressionMatch match = progressLine.match(line); match.hasMatch()) {
            Q_EMIT progress(match.captured(1).toInt(), match.captured(2));
            continue;
        }
        m_tail.append(line);
        if (m_tail.size() > tailLines) {
            m_tail.removeFirst();
        }
    }
}

void LocalModelInstaller::onFinished(int exitCode, QProcess::ExitStatus status)
{
    readOutput();
    if (m_cancelling) {
        Q_EMIT cancelled();
    } else if (status == QProcess::NormalExit && exitCode == 0 && LocalRuntime::isInstalled()) {
        Q_EMIT finished();
    } else {
        Q_EMIT failed(u"The local model installer stopped (exit code %1). Its last output:\n%2"_s.arg(
            QString::number(exitCode), m_tail.join(u'\n')));
    }
}

} // namespace sf
