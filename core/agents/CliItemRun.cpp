#include "CliItemRun.h"

#include "AgentsLogging.h"
#include "sandbox/SandboxProcess.h"
#include "skill/SkillPackage.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>

namespace sf {

namespace {

// The sandbox's first program: socat relays the CLI's loopback port to the door's Unix socket (the sandbox has no
// other network), the CLI starts once the relay answers, and exec makes the CLI the program whose exit ends the run.
const QString kRelayScript =
    QStringLiteral("socket=\"$1\"; shift\n"
                   "socat TCP-LISTEN:%1,bind=127.0.0.1,fork,reuseaddr \"UNIX-CONNECT:$socket\" &\n"
                   "tries=0\n"
                   "until socat -u OPEN:/dev/null TCP:127.0.0.1:%1 2>/dev/null; do\n"
                   "  tries=$((tries + 1)); [ \"$tries\" -ge 200 ] && break; sleep 0.05\n"
                   "done\n"
                   "exec \"$@\"\n");

/// The folders the CLI's binary needs to see: its own, and the one its link resolves to.
QStringList binaryFolders(const QString &binary)
{
    const QFileInfo info(binary);
    QStringList folders{info.absolutePath()};
    const QString canonical = info.canonicalFilePath();
    if (!canonical.isEmpty() && QFileInfo(canonical).absolutePath() != folders.first())
        folders.append(QFileInfo(canonical).absolutePath());
    // /usr is in every sandbox already.
    folders.removeIf([](const QString &folder) { return folder == u"/usr" || folder.startsWith(u"/usr/"); });
    return folders;
}

} // namespace

CliItemSpec specInSandbox(const CliItemSpec &spec)
{
    CliItemSpec inside = spec;
    inside.home = QStringLiteral("/home/student");
    inside.workspace = QStringLiteral("/work/") + QString(spec.sessionId).remove(u'-').left(12);
    return inside;
}

CliItemRun::CliItemRun(DoorServices services, std::unique_ptr<AgentCli> cli, CliItemSpec spec, DoorLimits limits,
                       int timeoutMs, QObject *parent)
    : QObject(parent)
    , m_services(services)
    , m_cli(std::move(cli))
    , m_spec(std::move(spec))
    , m_limits(limits)
    , m_timeoutMs(timeoutMs)
{
}

CliItemRun::~CliItemRun()
{
    m_done = true;
    delete m_process.data();
    delete m_door.data();
}

QString CliItemRun::prepare()
{
    for (const QString &folder : QStringList{m_spec.home} + m_cli->homeFolders(m_spec)) {
        if (!QDir().mkpath(folder))
            return QStringLiteral("cannot create the CLI's home folder %1").arg(folder);
    }
    if (!m_spec.skillDir.isEmpty()) {
        // Installed under the skill's name, which is what the CLI lists and what activation looks for.
        const QString target = QDir(m_spec.workspace).filePath(m_cli->projectSkillFolder(m_spec.skillName));
        QString installed;
        if (const QString error = installSkill(m_spec.skillDir, QFileInfo(target).absolutePath(), true, &installed);
            !error.isEmpty())
            return QStringLiteral("cannot install the skill into the workspace: %1").arg(error);
        if (QFileInfo(installed).absoluteFilePath() != QFileInfo(target).absoluteFilePath() &&
            !QDir().rename(installed, target))
            return QStringLiteral("cannot install the skill as %1").arg(target);
    }
    // A short path of its own: a Unix socket's path is limited to 107 bytes, and a run folder's may be longer.
    m_socketDir = std::make_unique<QTemporaryDir>(QDir::temp().filePath(QStringLiteral("sf-door-XXXXXX")));
    if (!m_socketDir->isValid())
        return QStringLiteral("cannot create a folder for the door: %1").arg(m_socketDir->errorString());
    m_door = new ModelDoor(*m_services.engine, *m_services.providers, m_services.local, m_spec.model, m_limits, this);
    if (!m_door->whyUnusable().isEmpty())
        return m_door->whyUnusable();
    if (!m_door->listenOnSocket(m_socketDir->filePath(QStringLiteral("door"))))
        return QStringLiteral("cannot open the door to the model: %1").arg(m_door->errorString());
    // The CLI's start-up cost: from its start to the moment its first request reached the door.
    connect(m_door, &ModelDoor::requestFinished, this, [this](const DoorRequestRecord &record) {
        const qint64 startedAt = m_clock.elapsed() - record.latencyMs - m_cliStartedAtMs;
        if (m_outcome.firstRequestMs < 0 || startedAt < m_outcome.firstRequestMs)
            m_outcome.firstRequestMs = std::max<qint64>(0, startedAt);
    });
    return {};
}

void CliItemRun::start()
{
    m_clock.start();
    m_outcome.settingsFingerprint = cliSettingsFingerprint(*m_cli, specInSandbox(m_spec));
    if (const QString error = prepare(); !error.isEmpty()) {
        m_outcome.error = error;
        finish();
        return;
    }
    // Inside the sandbox the workspace and home have neutral paths: the host's name the item and its arm, and the
    // CLI tells its model its working directory.
    const CliItemSpec inside = specInSandbox(m_spec);
    m_outcome.workspaceInSandbox = inside.workspace;
    SandboxSpec sandbox;
    sandbox.program = QStringLiteral("/bin/sh");
    sandbox.arguments = QStringList{QStringLiteral("-c"), kRelayScript.arg(kDoorPortInSandbox), QStringLiteral("sh"),
                                    m_socketDir->filePath(QStringLiteral("door")), m_spec.binary.path} +
                        m_cli->arguments(inside, doorUrlInSandbox());
    sandbox.workspace = m_spec.workspace;
    sandbox.workspaceMountPoint = inside.workspace;
    sandbox.writableMounts = {{m_spec.home, inside.home}};
    sandbox.readOnlyPaths =
        binaryFolders(m_spec.binary.path) + m_cli->readOnlyPaths(m_spec) + QStringList{m_socketDir->path()};
    if (!m_spec.mcpConfig.isEmpty())
        sandbox.readOnlyPaths.append(m_spec.mcpConfig);
    sandbox.environment = m_cli->environment(inside, doorUrlInSandbox());
    sandbox.stdinData = m_spec.prompt.toUtf8();
    sandbox.limits.timeoutMs = m_timeoutMs;
    // A JavaScript runtime reserves far more address space than it uses; the limit is there against runaways.
    sandbox.limits.memoryBytes = 16LL << 30;
    sandbox.limits.maxProcesses = 256;
    sandbox.limits.maxOutputBytes = 32LL << 20;
    m_process = new SandboxProcess(this);
    connect(m_process, &SandboxProcess::finished, this, &CliItemRun::onSandboxFinished);
    m_cliStartedAtMs = m_clock.elapsed();
    qCDebug(lcAgents).noquote() << "starting" << m_cli->harness() << "for" << m_spec.model << "in" << m_spec.workspace;
    m_process->start(sandbox);
}

void CliItemRun::cancel()
{
    if (m_process)
        m_process->cancel();
}

void CliItemRun::onSandboxFinished(const SandboxResult &result)
{
    m_outcome.process = result;
    if (result.error.isEmpty()) {
        Result<CliRunOutput> output = m_cli->readOutput(result.stdOut);
        if (output)
            m_outcome.output = *output.value;
        else
            m_outcome.outputError = output.error;
        m_outcome.sessionFile = m_cli->sessionFile(m_spec);
    } else {
        m_outcome.error = result.error;
    }
    finish();
}

void CliItemRun::finish()
{
    if (m_done)
        return;
    m_done = true;
    if (m_door) {
        m_door->close();
        m_outcome.requests = m_door->records();
        m_outcome.budgetExhausted = m_door->budgetExhausted();
        for (const DoorRequestRecord &record : std::as_const(m_outcome.requests)) {
            m_outcome.doorUsage += record.usage;
            m_outcome.modelMs += record.latencyMs;
        }
    }
    Q_EMIT finished(m_outcome);
}

} // namespace sf
