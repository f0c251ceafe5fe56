#include "ClaudeCodeCli.h"

#include "Harness.h"
#include "llm/ModelName.h"

#include <QDir>

namespace sf {

namespace {

QString configDir(const CliItemSpec &spec)
{
    return QDir(spec.home).filePath(QStringLiteral(".claude"));
}

QString modelId(const CliItemSpec &spec)
{
    const Result<ModelName> name = ModelName::parse(spec.model);
    return name ? name.value->model : spec.model;
}

} // namespace

QString ClaudeCodeCli::harness() const
{
    return Harness::ClaudeCode;
}

QString ClaudeCodeCli::projectSkillFolder(const QString &name) const
{
    return QStringLiteral(".claude/skills/%1").arg(name);
}

QStringList ClaudeCodeCli::arguments(const CliItemSpec &spec, const QString &doorUrl) const
{
    Q_UNUSED(doorUrl)
    // The prompt comes on stdin (an argument is limited to 128 KiB). Permissions are not asked for: the sandbox
    // is what contains the CLI, as it contains Skillforge's own student.
    QStringList args{QStringLiteral("-p"), QStringLiteral("--output-format"), QStringLiteral("json"),
                     QStringLiteral("--model"), modelId(spec), QStringLiteral("--session-id"), spec.sessionId,
                     QStringLiteral("--dangerously-skip-permissions"),
                     // Web search runs at the provider, outside the sandbox: only the model may be reached.
                     QStringLiteral("--disallowed-tools"), QStringLiteral("WebSearch,WebFetch")};
    if (!spec.mcpConfig.isEmpty())
        args << QStringLiteral("--mcp-config") << spec.mcpConfig << QStringLiteral("--strict-mcp-config");
    if (!spec.allowedTools.isEmpty())
        args << QStringLiteral("--allowed-tools") << spec.allowedTools.join(u' ');
    return args;
}

QProcessEnvironment ClaudeCodeCli::environment(const CliItemSpec &spec, const QString &doorUrl) const
{
    QProcessEnvironment environment;
    environment.insert(QStringLiteral("PATH"), QStringLiteral("/usr/local/bin:/usr/bin:/bin"));
    environment.insert(QStringLiteral("HOME"), spec.home);
    environment.insert(QStringLiteral("CLAUDE_CONFIG_DIR"), configDir(spec));
    environment.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    environment.insert(QStringLiteral("TMPDIR"), QStringLiteral("/tmp"));
    environment.insert(QStringLiteral("SHELL"), QStringLiteral("/bin/bash"));
    environment.insert(QStringLiteral("ANTHROPIC_BASE_URL"), doorUrl);
    environment.insert(QStringLiteral("ANTHROPIC_API_KEY"), kDoorPlaceholderKey);
    // Every model Claude Code would pick for itself (its small model for side requests, the aliases) is the
    // student; the door holds it to that model in any case.
    const QString model = modelId(spec);
    for (const char *name : {"ANTHROPIC_MODEL", "ANTHROPIC_SMALL_FAST_MODEL", "ANTHROPIC_DEFAULT_HAIKU_MODEL",
                             "ANTHROPIC_DEFAULT_SONNET_MODEL", "ANTHROPIC_DEFAULT_OPUS_MODEL"})
        environment.insert(QString::fromLatin1(name), model);
    environment.insert(QStringLiteral("API_TIMEOUT_MS"), QString::number(spec.requestTimeoutMs));
    // Nothing but the model: no update checks, telemetry, error reports or other traffic, which has no way out.
    for (const char *name : {"DISABLE_AUTOUPDATER", "DISABLE_TELEMETRY", "DISABLE_ERROR_REPORTING",
                             "DISABLE_BUG_COMMAND", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "IS_SANDBOX"})
        environment.insert(QString::fromLatin1(name), QStringLiteral("1"));
    return environment;
}

QStringList ClaudeCodeCli::homeFolders(const CliItemSpec &spec) const
{
    return {configDir(spec)};
}

Result<CliRunOutput> ClaudeCodeCli::readOutput(const QByteArray &stdOut) const
{
    return parseClaudeCodeResult(stdOut);
}

QString ClaudeCodeCli::sessionFile(const CliItemSpec &spec) const
{
    return findClaudeCodeSession(configDir(spec), spec.sessionId);
}

} // namespace sf
