#include "AgentCliInstall.h"

#include "AgentsLogging.h"
#include "Harness.h"
#include "common/ChildProcess.h"
#include "llm/LocalRuntime.h"

#include <QDateTime>
#include <QFileInfo>
#include <QHash>
#include <QMutex>
#include <QMutexLocker>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <optional>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

constexpr int VersionTimeoutMs = 20000;

/// What setup pins for one harness; scripts/setup-agent-clis holds the same, with the wheels' SHA-256.
struct PinnedCli
{
    QString package;                 ///< on PyPI
    QString packageVersion;          ///< pinned
    QString cliVersion;              ///< what the pinned binary reports
    QString member;                  ///< the binary's path inside the wheel (and the extracted folder)
    const char *environmentVariable; ///< what setup prints, naming the installed binary
    QString command;                 ///< its name on PATH
    QString versionMark;             ///< a word its `--version` carries, telling it from the other CLI
};

std::optional<PinnedCli> pinnedCli(const QString &harness)
{
    if (harness == Harness::ClaudeCode) {
        return PinnedCli{.package = u"claude-agent-sdk"_s,
                         .packageVersion = u"0.2.189"_s,
                         .cliVersion = u"2.1.332"_s,
                         .member = u"claude_agent_sdk/_bundled/claude"_s,
                         .environmentVariable = "SKILLFORGE_CLAUDE_CODE_CLI",
                         .command = u"claude"_s,
                         .versionMark = u"Claude Code"_s};
    }
    if (harness == Harness::Codex) {
        return PinnedCli{.package = u"openai-codex-cli-bin"_s,
                         .packageVersion = u"0.163.0"_s,
                         .cliVersion = u"0.163.0"_s,
                         .member = u"codex_cli_bin/bin/codex"_s,
                         .environmentVariable = "SKILLFORGE_CODEX_CLI",
                         .command = u"codex"_s,
                         .versionMark = u"codex"_s};
    }
    return std::nullopt;
}

QString installedPath(const PinnedCli &cli)
{
    return LocalRuntime::cacheDir() + "/agent-clis/"_L1 + cli.package + u'-' + cli.packageVersion + u'/' + cli.member;
}

bool isExecutableFile(const QString &path)
{
    const QFileInfo file(path);
    return file.isFile() && file.isExecutable();
}

QString otherChoices()
{
    return u"give the path of an executable, \"path\" for the one on PATH, or leave --harness-cli unset for the "
           "one scripts/setup installs"_s;
}

/// Asks the binary its version: a fresh HOME (and CODEX_HOME) so that no one's configuration is read, and
/// Claude Code's updater and telemetry off so that nothing leaves the machine.
Result<QString> askVersion(const QString &path, const PinnedCli &cli, const QString &label)
{
    const QTemporaryDir home;
    if (!home.isValid()) {
        return Result<QString>::failure(
            u"Could not make a temporary home folder to ask %1 its version: %2"_s.arg(label, home.errorString()));
    }
    QProcessEnvironment environment;
    // The user's own CLI may be a script that needs its interpreter (npm's claude runs on node).
    environment.insert(u"PATH"_s, qEnvironmentVariable("PATH", u"/usr/bin:/bin"_s));
    environment.insert(u"HOME"_s, home.path());
    environment.insert(u"CODEX_HOME"_s, home.path());
    environment.insert(u"LANG"_s, u"C.UTF-8"_s);
    environment.insert(u"DISABLE_AUTOUPDATER"_s, u"1"_s);
    environment.insert(u"DISABLE_TELEMETRY"_s, u"1"_s);
    environment.insert(u"DISABLE_ERROR_REPORTING"_s, u"1"_s);
    environment.insert(u"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"_s, u"1"_s);

    QProcess process;
    process.setProgram(path);
    process.setArguments({u"--version"_s});
    process.setProcessEnvironment(environment);
    process.setWorkingDirectory(home.path());
    process.setStandardInputFile(QProcess::nullDevice());
    endWithParent(&process);
    process.start();
    if (!process.waitForStarted(VersionTimeoutMs)) {
        return Result<QString>::failure(u"Could not run %1 (%2): %3"_s.arg(label, path, process.errorString()));
    }
    if (!process.waitForFinished(VersionTimeoutMs)) {
        process.kill();
        process.waitForFinished(1000);
        return Result<QString>::failure(u"%1 (%2) did not answer `--version` within %3 s"_s.arg(
            label, path, QString::number(VersionTimeoutMs / 1000)));
    }
    const QString output = QString::fromUtf8(process.readAllStandardOutput()).trimmed();
    if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        const QString errors = QString::fromUtf8(process.readAllStandardError()).trimmed().right(2000);
        const QString how =
            process.exitStatus() == QProcess::NormalExit ? u"exit code %1"_s.arg(process.exitCode()) : u"it crashed"_s;
        return Result<QString>::failure(
            u"%1 (%2) failed on `--version` (%3): %4"_s.arg(label, path, how, errors.isEmpty() ? output : errors));
    }
    if (!output.contains(cli.versionMark, Qt::CaseInsensitive)) {
        return Result<QString>::failure(
            u"%1 is not %2: its `--version` printed \"%3\"; %4"_s.arg(path, label, output.left(200), otherChoices()));
    }
    static const QRegularExpression versionPattern(uR"(\b(\d+(?:\.\d+)+(?:-[0-9A-Za-z.]+)?)\b)"_s);
    const QRegularExpressionMatch match = versionPattern.match(output);
    if (!match.hasMatch()) {
        return Result<QString>::failure(
            u"Could not read a version from what %1 (%2) printed: \"%3\""_s.arg(label, path, output.left(200)));
    }
    return Result<QString>::success(match.captured(1));
}

/// askVersion(), remembered per path while the file keeps its modification time and size: a run asks once per
/// harness, and a CLI that updates itself in place is asked again.
Result<QString> version(const QString &path, const PinnedCli &cli, const QString &label)
{
    struct Known
    {
        QDateTime modified;
        qint64 size = 0;
        QString version;
    };
    static QMutex mutex;
    static QHash<QString, Known> known;

    const QFileInfo file(path);
    const QDateTime modified = file.lastModified();
    const qint64 size = file.size();
    {
        const QMutexLocker lock(&mutex);
        const auto found = known.constFind(path);
        if (found != known.cend() && found->modified == modified && found->size == size) {
            return Result<QString>::success(found->version);
        }
    }
    Result<QString> asked = askVersion(path, cli, label);
    if (asked) {
        const QMutexLocker lock(&mutex);
        known.insert(path, Known{modified, size, *asked.value});
    }
    return asked;
}

} // namespace

QString pinnedAgentCliVersion(const QString &harness)
{
    const std::optional<PinnedCli> cli = pinnedCli(harness);
    return cli ? cli->packageVersion : QString();
}

Result<AgentCliBinary> findAgentCli(const QString &harness, const QString &choice)
{
    const std::optional<PinnedCli> cli = pinnedCli(harness);
    if (!cli) {
        return Result<AgentCliBinary>::failure(
            u"\"%1\" is not an agent CLI: the harnesses that run one are %2 and %3"_s.arg(harness, Harness::ClaudeCode,
                                                                                          Harness::Codex));
    }
    const QString label = Harness::label(harness);
    const QString pinnedSource = u"pinned by setup: PyPI %1 %2"_s.arg(cli->package, cli->packageVersion);
    const QString variable = QString::fromLatin1(cli->environmentVariable);
    QString path;
    QString source;
    if (choice.isEmpty()) {
        path = qEnvironmentVariable(cli->environmentVariable).trimmed();
        if (!path.isEmpty()) {
            if (!isExecutableFile(path)) {
                return Result<AgentCliBinary>::failure(
                    u"%1 is not installed where %2 says: %3 is not an executable file. Run scripts/setup from the "
                    "Skillforge sources (it prints the right %2), or choose your own with --harness-cli path"_s.arg(
                        label, variable, path));
            }
            source = pinnedSource; // until its version says otherwise, below
        } else {
            path = installedPath(*cli);
            if (!isExecutableFile(path)) {
                return Result<AgentCliBinary>::failure(
                    u"%1 is not installed (no %2): run scripts/setup from the Skillforge sources (it installs the "
                    u"pinned version), or choose your own with --harness-cli path"_s.arg(label, path));
            }
            source = pinnedSource;
        }
    } else if (choice == "path"_L1) {
        path = QStandardPaths::findExecutable(cli->command);
        if (path.isEmpty()) {
            return Result<AgentCliBinary>::failure(
                u"%1 was not found on PATH (no `%2` there): install it, or leave --harness-cli unset to use the one "
                "scripts/setup installs"_s.arg(label, cli->command));
        }
        source = u"the user's own: %1 (PATH)"_s.arg(path);
    } else {
        const QFileInfo file(choice);
        path = file.absoluteFilePath();
        if (!file.exists()) {
            return Result<AgentCliBinary>::failure(
                u"The chosen %1 CLI %2 does not exist: %3"_s.arg(label, path, otherChoices()));
        }
        if (!isExecutableFile(path)) {
            return Result<AgentCliBinary>::failure(
                u"The chosen %1 CLI %2 is not an executable file: make it one (chmod +x), or %3"_s.arg(label, path,
                                                                                                       otherChoices()));
        }
        source = u"chosen file: %1"_s.arg(path);
    }

    const Result<QString> reported = version(path, *cli, label);
    if (!reported) {
        return Result<AgentCliBinary>::failure(reported.error);
    }
    if (choice.isEmpty() && !qEnvironmentVariableIsEmpty(cli->environmentVariable) &&
        *reported.value != cli->cliVersion) {
        // The variable names some other build: the run must not claim it was the pinned one.
        source = u"set by %1: %2"_s.arg(variable, path);
    }
    qCDebug(lcAgents).noquote() << label << *reported.value << "at" << path << u"(%1)"_s.arg(source);
    return Result<AgentCliBinary>::success(AgentCliBinary{harness, path, *reported.value, source});
}

} // namespace sf
