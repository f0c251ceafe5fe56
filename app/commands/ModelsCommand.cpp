#include "CommandRegistry.h"
#include "LlmServices.h"

#include "llm/LocalRuntime.h"
#include "llm/ModelLister.h"
#include "llm/ProviderRegistry.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace sf::cli {

namespace {

int runModelsList(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("provider"), QString(), QStringLiteral("P")});
    parser.addOption(QCommandLineOption(QStringLiteral("json")));
    if (!parseArguments(parser, QStringLiteral("models list"), arguments))
        return BadUsage;
    if (!parser.positionalArguments().isEmpty()) {
        err(QStringLiteral("skillforge models list: unexpected argument '%1'\n").arg(parser.positionalArguments().first()));
        return BadUsage;
    }
    LlmServices services;
    QStringList providers = services.providers().names();
    if (parser.isSet(QStringLiteral("provider"))) {
        const QString wanted = parser.value(QStringLiteral("provider"));
        if (!providers.contains(wanted)) {
            err(QStringLiteral("skillforge models list: unknown provider '%1' (known: %2)\n")
                    .arg(wanted, providers.join(QStringLiteral(", "))));
            return BadUsage;
        }
        providers = {wanted};
    }

    QJsonObject report;
    int pending = 0;
    bool anyListed = false;
    auto record = [&](const QString &provider, const QStringList &models, const QString &problem) {
        QJsonObject entry;
        const ProviderConfig *config = services.providers().find(provider);
        // Whether a key is there, never the key itself (nor a redacted form: the JSON may be shared).
        const bool needsKey = config && config->apiKeyRequired;
        const bool hasKey = config && !services.providers().apiKey(*config).isEmpty();
        entry.insert(QStringLiteral("key"), hasKey     ? QStringLiteral("present")
                                            : needsKey ? QStringLiteral("missing")
                                                       : QStringLiteral("not needed"));
        if (config && !config->baseUrl.isEmpty())
            entry.insert(QStringLiteral("base_url"), config->baseUrl.toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery));
        if (problem.isEmpty())
            entry.insert(QStringLiteral("models"), QJsonArray::fromStringList(models));
        else
            entry.insert(QStringLiteral("error"), problem);
        report.insert(provider, entry);
        anyListed = anyListed || problem.isEmpty();
    };

    for (const QString &provider : std::as_const(providers)) {
        if (provider == u"local") {
            // The local model is listed from what is installed; nothing needs to start for that.
            if (LocalRuntime::isInstalled())
                record(provider, {LocalRuntime::modelName()}, {});
            else
                record(provider, {}, LocalRuntime::missingReason());
            continue;
        }
        ModelListCall *call = services.lister().list(provider);
        ++pending;
        QObject::connect(call, &ModelListCall::finished, qApp, [&, provider, call](const QStringList &models) {
            record(provider, models, {});
            call->deleteLater();
            if (--pending == 0)
                QCoreApplication::quit();
        });
        QObject::connect(call, &ModelListCall::failed, qApp, [&, provider, call](const QString &message) {
            record(provider, {}, message);
            call->deleteLater();
            if (--pending == 0)
                QCoreApplication::quit();
        });
    }
    if (pending > 0)
        QCoreApplication::exec();

    if (parser.isSet(QStringLiteral("json"))) {
        out(QString::fromUtf8(QJsonDocument(report).toJson(QJsonDocument::Indented)));
    } else {
        for (const QString &provider : std::as_const(providers)) {
            const QJsonObject entry = report.value(provider).toObject();
            if (entry.contains(QStringLiteral("error"))) {
                out(QStringLiteral("%1: unavailable (key %2) — %3\n")
                        .arg(provider, entry.value(QStringLiteral("key")).toString(),
                             entry.value(QStringLiteral("error")).toString()));
                continue;
            }
            for (const QJsonValue &model : entry.value(QStringLiteral("models")).toArray())
                out(QStringLiteral("%1:%2\n").arg(provider, model.toString()));
        }
    }
    return anyListed ? Success : CheckFailed;
}

} // namespace

Command modelsListCommand()
{
    Command command;
    command.words = {QStringLiteral("models"), QStringLiteral("list")};
    command.summary = QStringLiteral("list the models each configured provider serves");
    command.help = QStringLiteral(
        "Usage: skillforge models list [--provider P] [--json]\n\n"
        "Asks each provider for its models (GET /models, or Ollama's /api/tags) and prints them as\n"
        "PROVIDER:MODEL names ready for --model. A provider without its key or address says what to set.\n"
        "--json gives, per provider: models (or error), key (present, missing or not needed; never the\n"
        "key itself) and base_url.\n\n"
        "Exit codes: 0 at least one provider answered, 1 none did, 2 bad usage.\n");
    command.run = runModelsList;
    return command;
}

} // namespace sf::cli
