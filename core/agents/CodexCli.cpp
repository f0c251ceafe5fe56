#include "CodexCli.h"

#include "Harness.h"
#include "llm/ModelName.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace sf {

namespace {

QString codexHome(const CliItemSpec &spec)
{
    return QDir(spec.home).filePath(QStringLiteral(".codex"));
}

/// The PyPI package ships ripgrep and other helpers in codex-path/ beside bin/, for the PATH of Codex's commands.
QString helperFolder(const CliItemSpec &spec)
{
    const QString folder = QFileInfo(spec.binary.path).absoluteDir().filePath(QStringLiteral("../codex-path"));
    return QFileInfo(folder).isDir() ? QFileInfo(folder).canonicalFilePath() : QString();
}

/// A TOML basic string: JSON's string escapes are TOML's.
QString tomlString(const QString &text)
{
    const QByteArray array = QJsonDocument(QJsonArray{text}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(array.mid(1, array.size() - 2));
}

/**
 * The MCP servers of a Claude-style configuration file (`{"mcpServers": {NAME: {command, args, env} | {url}}}`, what
 * --mcp-config takes) as Codex's own configuration: one `-c mcp_servers.NAME={...}` each.
 */
QStringList mcpServerOptions(const QString &configFile)
{
    QFile file(configFile);
    if (configFile.isEmpty() || !file.open(QIODevice::ReadOnly))
        return {};
    const QJsonObject servers =
        QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("mcpServers")).toObject();
    QStringList options;
    for (auto it = servers.begin(); it != servers.end(); ++it) {
        const QJsonObject server = it.value().toObject();
        QStringList fields;
        if (server.contains(QStringLiteral("url")))
            fields.append(QStringLiteral("url=%1").arg(tomlString(server.value(QStringLiteral("url")).toString())));
        if (server.contains(QStringLiteral("command")))
            fields.append(
                QStringLiteral("command=%1").arg(tomlString(server.value(QStringLiteral("command")).toString())));
        QStringList args;
        for (const QJsonValue &arg : server.value(QStringLiteral("args")).toArray())
            args.append(tomlString(arg.toString()));
        if (!args.isEmpty())
            fields.append(QStringLiteral("args=[%1]").arg(args.join(QStringLiteral(", "))));
        const QJsonObject env = server.value(QStringLiteral("env")).toObject();
        QStringList pairs;
        for (auto e = env.begin(); e != env.end(); ++e)
            pairs.append(QStringLiteral("%1=%2").arg(tomlString(e.key()), tomlString(e.value().toString())));
        if (!pairs.isEmpty())
            fields.append(QStringLiteral("env={%1}").arg(pairs.join(QStringLiteral(", "))));
        options << QStringLiteral("-c")
                << QStringLiteral("mcp_servers.%1={%2}").arg(tomlString(it.key()), fields.join(QStringLiteral(", ")));
    }
    return options;
}

const QString kProvider = QStringLiteral("skillforge");
const QString kKeyVariable = QStringLiteral("SKILLFORGE_DOOR_KEY");

} // namespace

QString CodexCli::harness() const
{
    return Harness::Codex;
}

QString CodexCli::projectSkillFolder(const QString &name) const
{
    return QStringLiteral(".agents/skills/%1").arg(name);
}

QStringList CodexCli::arguments(const CliItemSpec &spec, const QString &doorUrl) const
{
    const Result<ModelName> name = ModelName::parse(spec.model);
    const QString model = name ? name.value->model : spec.model;
    // One provider, the door, speaking the Responses API; "-" reads the prompt from stdin.
    QStringList args{
        QStringLiteral("exec"), QStringLiteral("--json"), QStringLiteral("--skip-git-repo-check"),
        QStringLiteral("--dangerously-bypass-approvals-and-sandbox"), QStringLiteral("-c"),
        QStringLiteral("model_provider=%1").arg(kProvider), QStringLiteral("-c"),
        QStringLiteral("model_providers.%1={name=\"Skillforge\", base_url=\"%2/v1\", wire_api=\"responses\", "
                       "env_key=\"%3\", stream_idle_timeout_ms=%4}")
            .arg(kProvider, doorUrl, kKeyVariable)
            .arg(spec.requestTimeoutMs),
        QStringLiteral("-c"), QStringLiteral("check_for_update_on_startup=false"),
        // Web search runs at the provider, outside the sandbox: only the model may be reached.
        QStringLiteral("-c"), QStringLiteral("web_search=\"disabled\"")};
    // What the skill relies on, through Codex's own configuration; it asks for no permission (the sandbox is
    // Skillforge's), so allowed tools need no counterpart here.
    args << mcpServerOptions(spec.mcpConfig) << QStringLiteral("-m") << model << QStringLiteral("-");
    return args;
}

QProcessEnvironment CodexCli::environment(const CliItemSpec &spec, const QString &doorUrl) const
{
    Q_UNUSED(doorUrl)
    QProcessEnvironment environment;
    const QString helpers = helperFolder(spec);
    environment.insert(QStringLiteral("PATH"), (helpers.isEmpty() ? QString() : helpers + u':') +
                                                   QStringLiteral("/usr/local/bin:/usr/bin:/bin"));
    environment.insert(QStringLiteral("HOME"), spec.home);
    environment.insert(QStringLiteral("CODEX_HOME"), codexHome(spec));
    environment.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    environment.insert(QStringLiteral("TMPDIR"), QStringLiteral("/tmp"));
    environment.insert(QStringLiteral("SHELL"), QStringLiteral("/bin/bash"));
    environment.insert(kKeyVariable, kDoorPlaceholderKey);
    return environment;
}

QStringList CodexCli::homeFolders(const CliItemSpec &spec) const
{
    return {codexHome(spec)};
}

QStringList CodexCli::readOnlyPaths(const CliItemSpec &spec) const
{
    const QString helpers = helperFolder(spec);
    return helpers.isEmpty() ? QStringList() : QStringList{helpers};
}

Result<CliRunOutput> CodexCli::readOutput(const QByteArray &stdOut) const
{
    return parseCodexExecJson(stdOut);
}

QString CodexCli::sessionFile(const CliItemSpec &spec) const
{
    return findCodexRollout(codexHome(spec));
}

} // namespace sf
