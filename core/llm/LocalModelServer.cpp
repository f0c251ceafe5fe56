#include "LocalModelServer.h"

#include "HttpEngine.h"
#include "HttpReply.h"
#include "LlmLogging.h"
#include "LocalRuntime.h"
#include "common/ChildProcess.h"

#include <QFileInfo>
#include <QHostAddress>
#include <QTcpServer>
#include <QThread>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

constexpr int healthPollMs = 150;
constexpr int stderrTailLines = 50;
constexpr int maxPortRetries = 5;

quint16 freeLoopbackPort()
{
    // The port is free the moment the probe closes; another process may still take it first, which
    // onProcessFinished() detects from the server's complaint and answers with a new port.
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
}

void terminate(QProcess *process)
{
    if (process->state() == QProcess::NotRunning) {
        return;
    }
    process->terminate();
    if (!process->waitForFinished(3000)) {
        process->kill();
        process->waitForFinished(1000);
    }
}

} // namespace

LocalModelServer::Options LocalModelServer::Options::fromRuntime()
{
    Options options;
    options.serverPath = LocalRuntime::llamaServerPath();
    options.modelPath = LocalRuntime::modelPath();
    return options;
}

LocalModelServer::LocalModelServer(HttpEngine &engine, QObject *parent)
    : LocalModelServer(engine, Options::fromRuntime(), parent)
{
}

LocalModelServer::LocalModelServer(HttpEngine &engine, Options options, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_options(std::move(options))
{
    m_clock.start();
    m_pollTimer.setSingleShot(true);
    connect(&m_pollTimer, &QTimer::timeout, this, &LocalModelServer::pollHealth);
    m_startupTimer.setSingleShot(true);
    connect(&m_startupTimer, &QTimer::timeout, this, &LocalModelServer::onStartupTimeout);
}

LocalModelServer::~LocalModelServer()
{
    // Listeners may be half destroyed already; they hear nothing from a dying server.
    const QSignalBlocker blocker(this);
    stop();
}

qint64 LocalModelServer::processId() const
{
    return m_process ? m_process->processId() : 0;
}

QString LocalModelServer::whyNotStartable() const
{
    for (const QString &path : {m_options.serverPath, m_options.modelPath}) {
        if (!QFileInfo::exists(path)) {
            return u"%1 does not exist: the local model is not installed (in the app: Tools → Install Local Model…; "
                   u"on the command line: scripts/setup-local-model in the sources, or "
                   u"/usr/share/skillforge/local-model/setup-local-model from the Debian package)"_s.arg(path);
        }
    }
    return {};
}

void LocalModelServer::ensureStarted()
{
    if (m_state == State::Starting || m_state == State::Ready) {
        return;
    }
    m_crashTimes.clear();
    m_portRetries = 0;
    m_stderrTail.clear();
    m_errorString.clear();
    if (const QString why = whyNotStartable(); !why.isEmpty()) {
        fail(why);
        return;
    }
    setState(State::Starting);
    launch();
}

void LocalModelServer::stop()
{
    m_pollTimer.stop();
    m_startupTimer.stop();
    m_healthReply.reset();
    discardProcess();
    m_baseUrl.clear();
    setState(State::Stopped);
}

void LocalModelServer::launch()
{
    discardProcess();
    m_healthReply.reset();
    // The tail is this process's own: a message after several failed starts shows the last, not a mix of all.
    m_stderrTail.clear();
    const quint16 port = freeLoopbackPort();
    if (port == 0) {
        fail(u"No free loopback port for the local model server"_s);
        return;
    }
    m_baseUrl = QUrl(u"http://127.0.0.1:%1/v1"_s.arg(port));
    const int threads = m_options.threads > 0 ? m_options.threads : std::max(1, QThread::idealThreadCount());
    const int slots = std::max(1, m_options.slots);
    QStringList arguments{
        u"--host"_s, u"127.0.0.1"_s, u"--port"_s, QString::number(port), u"-m"_s, m_options.modelPath,
        // A KV cache per slot (not one shared pool): a long request cannot starve the others.
        u"-c"_s, QString::number(qint64(m_options.contextSize) * slots), u"--parallel"_s, QString::number(slots),
        u"--no-kv-unified"_s, u"--threads"_s, QString::number(threads),
        // The chat template's own tool-call format, parsed back into tool_calls.
        u"--jinja"_s,
        // Warnings and errors only: the stderr tail should show why a start failed, not per-request chatter.
        u"--log-verbosity"_s, u"2"_s, u"--no-webui"_s};
    if (!m_options.chatTemplate.isEmpty()) {
        arguments += {u"--chat-template"_s, m_options.chatTemplate}; // after --jinja, so it is read as Jinja
    }
    arguments += m_options.extraArguments;

    m_process = new QProcess(this);
    m_process->setProgram(m_options.serverPath);
    m_process->setArguments(arguments);
    m_process->setStandardOutputFile(QProcess::nullDevice());
    endWithParent(m_process); // a crashed Skillforge must not leave the server holding the model in memory
    connect(m_process, &QProcess::readyReadStandardError, this, &LocalModelServer::readStderr);
    connect(m_process, &QProcess::finished, this, &LocalModelServer::onProcessFinished);
    connect(m_process, &QProcess::errorOccurred, this, &LocalModelServer::onProcessError);
    qCDebug(lcLocalModel).noquote() << "starting" << m_options.serverPath << "on port" << port;
    m_process->start();
    m_startupTimer.start(m_options.startupTimeoutMs);
    m_pollTimer.start(healthPollMs);
}

void LocalModelServer::pollHealth()
{
    if ((m_state != State::Starting && m_state != State::Ready) || !m_process) {
        return;
    }
    HttpRequest request;
    request.url = QUrl(u"http://127.0.0.1:%1/health"_s.arg(m_baseUrl.port()));
    request.connectTimeoutMs = 1000;
    request.firstByteTimeoutMs = 2000;
    request.totalTimeoutMs = 5000;
    m_healthReply.reset(m_engine.send(request));
    connect(m_healthReply.get(), &HttpReply::finished, this, &LocalModelServer::onHealthFinished);
}

void LocalModelServer::onHealthFinished()
{
    const HttpReplyPtr reply = std::move(m_healthReply);
    if (!reply) {
        return;
    }
    if (m_state == State::Ready) {
        // Any HTTP answer is a sign of life (a busy server may say 503); only silence is a hang.
        onLivenessAnswer(reply->response().kind == HttpError::None);
        return;
    }
    if (m_state != State::Starting) {
        return;
    }
    if (reply->response().status != 200) {
        m_pollTimer.start(healthPollMs); // refused while the process starts, 503 while the model loads
        return;
    }
    m_startupTimer.stop();
    qCInfo(lcLocalModel).noquote() << "local model server ready at" << m_baseUrl.toString();
    m_lastAnswerMs = m_clock.elapsed();
    setState(State::Ready);
    m_pollTimer.start(m_options.healthIntervalMs);
    Q_EMIT ready(m_baseUrl);
}

void LocalModelServer::onLivenessAnswer(bool answered)
{
    const qint64 now = m_clock.elapsed();
    if (answered) {
        m_lastAnswerMs = now;
    } else if (now - m_lastAnswerMs >= m_options.hangAfterMs) {
        killAsHung();
        return;
    }
    m_pollTimer.start(m_options.healthIntervalMs);
}

void LocalModelServer::killAsHung()
{
    const QString note = u"no answer to /health for %1 s: the server was killed as hung"_s.arg(
        QString::number((m_clock.elapsed() - m_lastAnswerMs) / 1000.0, 'f', 1));
    qCWarning(lcLocalModel).noquote() << "local model server" << note;
    m_stderrTail.append(u"(Skillforge) "_s + note);
    m_killedAsHung = true;
    // SIGKILL ends a stopped process too; onProcessFinished() restarts it, and the requests it held fail
    // with a reset connection, so their retries go to the new server.
    m_process->kill();
}

void LocalModelServer::onProcessFinished()
{
    readStderr();
    const int exitCode = m_process->exitCode();
    if (lastExitWasPortClash() && m_portRetries < maxPortRetries) {
        ++m_portRetries;
        qCInfo(lcLocalModel) << "port taken before the server could bind it; trying another";
        launch();
        return;
    }
    const qint64 now = m_clock.elapsed();
    m_crashTimes.erase(std::remove_if(m_crashTimes.begin(), m_crashTimes.end(),
                                      [&](qint64 at) { return now - at > m_options.restartWindowMs; }),
                       m_crashTimes.end());
    if (m_crashTimes.size() >= m_options.maxRestarts) {
        const QString how = m_killedAsHung ? u"stopped answering"_s : u"exited (code %1)"_s.arg(exitCode);
        fail(u"The local model server failed %1 times within %2 s (the last time it %3); giving up. Last output:\n%4"_s
                 .arg(QString::number(m_crashTimes.size() + 1), QString::number(m_options.restartWindowMs / 1000), how,
                      tailText()));
        return;
    }
    m_crashTimes.append(now);
    ++m_restartCount;
    if (std::exchange(m_killedAsHung, false)) {
        ++m_hangCount;
        qCWarning(lcLocalModel).nospace() << "local model server killed as hung; restart " << m_restartCount;
    } else {
        qCWarning(lcLocalModel).nospace()
            << "local model server exited with code " << exitCode << "; restart " << m_restartCount;
    }
    setState(State::Starting);
    launch();
    Q_EMIT restarted(m_restartCount);
}

void LocalModelServer::onProcessError(QProcess::ProcessError error)
{
    // Crashes arrive through finished(); only a failed start has no finished() to follow.
    if (error == QProcess::FailedToStart) {
        fail(u"Could not start %1: %2"_s.arg(m_options.serverPath, m_process->errorString()));
    }
}

void LocalModelServer::onStartupTimeout()
{
    fail(u"The local model server was not ready within %1 s. Last output:\n%2"_s.arg(
        QString::number(m_options.startupTimeoutMs / 1000.0), tailText()));
}

void LocalModelServer::readStderr()
{
    if (!m_process) {
        return;
    }
    m_partialLine += m_process->readAllStandardError();
    qsizetype newline = 0;
    while ((newline = m_partialLine.indexOf('\n')) >= 0) {
        const QString line = QString::fromUtf8(m_partialLine.left(newline)).trimmed();
        m_partialLine.remove(0, newline + 1);
        if (!line.isEmpty()) {
            qCDebug(lcLocalModel).noquote() << "llama-server:" << line;
            m_stderrTail.append(line);
        }
    }
    if (m_stderrTail.size() > stderrTailLines) {
        m_stderrTail.remove(0, m_stderrTail.size() - stderrTailLines);
    }
}

bool LocalModelServer::lastExitWasPortClash() const
{
    const qsizetype from = std::max<qsizetype>(0, m_stderrTail.size() - 5);
    for (qsizetype i = from; i < m_stderrTail.size(); ++i) {
        const QString &line = m_stderrTail.at(i);
        if (line.contains("couldn't bind"_L1, Qt::CaseInsensitive) ||
            line.contains("address already in use"_L1, Qt::CaseInsensitive)) {
            return true;
        }
    }
    return false;
}

void LocalModelServer::fail(const QString &message)
{
    m_pollTimer.stop();
    m_startupTimer.stop();
    m_healthReply.reset();
    discardProcess();
    m_errorString = message;
    qCWarning(lcLocalModel).noquote() << message;
    setState(State::Failed);
    Q_EMIT failed(message);
}

void LocalModelServer::discardProcess()
{
    if (!m_process) {
        return;
    }
    QProcess *process = std::exchange(m_process, nullptr);
    disconnect(process, nullptr, this, nullptr);
    terminate(process);
    m_partialLine.clear();
    // We may be inside one of its signals; deleting it now would pull the rug from under QProcess.
    process->deleteLater();
}

void LocalModelServer::setState(State state)
{
    if (m_state != state) {
        m_state = state;
        Q_EMIT stateChanged(state);
    }
}

QString LocalModelServer::tailText() const
{
    return m_stderrTail.isEmpty() ? u"(no output)"_s : m_stderrTail.join(u'\n');
}

} // namespace sf
