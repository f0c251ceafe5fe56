#include "AgentCli.h"

#include "ClaudeCodeCli.h"
#include "CodexCli.h"
#include "Harness.h"

#include <QCryptographicHash>

namespace sf {

QString doorUrlInSandbox()
{
    return QStringLiteral("http://127.0.0.1:%1").arg(kDoorPortInSandbox);
}

std::unique_ptr<AgentCli> AgentCli::forHarness(const QString &harness)
{
    if (harness == Harness::ClaudeCode)
        return std::make_unique<ClaudeCodeCli>();
    if (harness == Harness::Codex)
        return std::make_unique<CodexCli>();
    return nullptr;
}

QString cliSettingsFingerprint(const AgentCli &cli, const CliItemSpec &spec)
{
    auto generic = [&spec](QString text) {
        if (!spec.workspace.isEmpty())
            text.replace(spec.workspace, QStringLiteral("<workspace>"));
        if (!spec.home.isEmpty())
            text.replace(spec.home, QStringLiteral("<home>"));
        if (!spec.sessionId.isEmpty())
            text.replace(spec.sessionId, QStringLiteral("<session>"));
        return text;
    };
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(QStringLiteral("%1 %2\n").arg(cli.harness(), spec.binary.version).toUtf8());
    for (const QString &argument : cli.arguments(spec, doorUrlInSandbox()))
        hash.addData(QByteArray(generic(argument).toUtf8() + '\0'));
    const QProcessEnvironment environment = cli.environment(spec, doorUrlInSandbox());
    QStringList names = environment.keys();
    names.sort();
    for (const QString &name : std::as_const(names))
        hash.addData(QByteArray(generic(name + u'=' + environment.value(name)).toUtf8() + '\0'));
    return QString::fromLatin1(hash.result().toHex().left(16));
}

} // namespace sf
