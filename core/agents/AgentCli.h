#pragma once

#include "AgentCliInstall.h"
#include "CliSession.h"
#include "common/Result.h"

#include <QProcessEnvironment>
#include <QString>
#include <QStringList>
#include <memory>

namespace sf {

/// Everything one item's CLI run is made of. Between the arms of a case only skillDir differs.
struct CliItemSpec
{
    AgentCliBinary binary;
    QString model;     ///< PROVIDER:MODEL, the only model the door lets the CLI reach
    QString prompt;    ///< the case's input, given to the CLI as its one prompt
    QString workspace; ///< fresh; the CLI's working directory, holding the case's files
    QString home;      ///< fresh and private: HOME and the CLI's configuration folder, outside the workspace
    QString skillDir;  ///< the skill folder to install, empty in the baseline arm
    QString skillName;
    QString sessionId;        ///< a fresh UUID, so the CLI's session file can be found by name where the CLI allows it
    QString mcpConfig;        ///< an MCP configuration file the skill relies on, given to the CLI in both arms
    QStringList allowedTools; ///< tools allowed without asking, in both arms
    /// How long one model request may take before the CLI gives up on it: the item's own limit, since a model on a
    /// laptop's CPU can take minutes over a CLI's long first prompt, which the CLIs' own defaults cut off and retry.
    int requestTimeoutMs = 600'000;
};

/// The loopback address the CLI reaches the door at inside its sandbox: every sandbox has its own network
/// namespace, so one fixed port keeps every item's command line byte-identical.
inline constexpr int kDoorPortInSandbox = 8089;
QString doorUrlInSandbox();

/**
 * One real agent CLI driven non-interactively: where it discovers project skills, its command line and
 * environment for one item, what it prints, and where it leaves its session file. One class per CLI.
 */
class AgentCli
{
public:
    virtual ~AgentCli() = default;
    /// ClaudeCodeCli or CodexCli; null for any other harness.
    static std::unique_ptr<AgentCli> forHarness(const QString &harness);

    virtual QString harness() const = 0;
    /// Where the CLI finds a project skill named @p name, relative to the workspace.
    virtual QString projectSkillFolder(const QString &name) const = 0;
    /// The arguments after the binary; the CLI reaches the model at @p doorUrl.
    virtual QStringList arguments(const CliItemSpec &spec, const QString &doorUrl) const = 0;
    /// The whole environment the CLI gets: nothing of the user's, a placeholder key (the door holds the real one).
    virtual QProcessEnvironment environment(const CliItemSpec &spec, const QString &doorUrl) const = 0;
    /// Folders the CLI expects in its home before it starts.
    virtual QStringList homeFolders(const CliItemSpec &spec) const = 0;
    /// Host folders the CLI needs to see besides its binary's own (helpers shipped beside it).
    virtual QStringList readOnlyPaths(const CliItemSpec &spec) const
    {
        Q_UNUSED(spec)
        return {};
    }
    /// What the CLI printed on stdout: the final answer, its own token count and cost.
    virtual Result<CliRunOutput> readOutput(const QByteArray &stdOut) const = 0;
    /// The session file the run left in the CLI's home, or "" when there is none.
    virtual QString sessionFile(const CliItemSpec &spec) const = 0;
};

/// The placeholder key the CLI is given: it reaches only the door, which replaces it with the real one.
inline const QString kDoorPlaceholderKey = QStringLiteral("skillforge-door-holds-the-key");

/**
 * A fingerprint of what the CLI is given (binary version, arguments, environment), with the item's own paths
 * and session id replaced by placeholders: the same in both arms of a run, which the contamination report shows.
 */
QString cliSettingsFingerprint(const AgentCli &cli, const CliItemSpec &spec);

} // namespace sf
