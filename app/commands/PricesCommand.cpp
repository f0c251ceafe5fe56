#include "CommandRegistry.h"
#include "LlmServices.h"
#include "llm/PriceTableUpdater.h"
#include "usage/Pricing.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

using namespace Qt::StringLiterals;

namespace sf::cli {

namespace {

/// --at as a day (priced at noon UTC, as a trace turn with only a day is) or as an ISO date and time.
std::optional<QDateTime> requestTimeFrom(const QString &text)
{
    if (text.isEmpty())
        return QDateTime::currentDateTimeUtc();
    const QDate day = QDate::fromString(text, Qt::ISODate);
    if (day.isValid())
        return QDateTime(day, QTime(12, 0), Qt::UTC);
    QDateTime at = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!at.isValid())
        return std::nullopt;
    return at.timeSpec() == Qt::LocalTime ? QDateTime(at.date(), at.time(), Qt::UTC) : at;
}

QJsonObject ratesJson(const ModelRates &rates, qint64 promptTokens)
{
    QJsonObject perMillion{{u"input"_s, rates.input.at(promptTokens)},
                           {u"output"_s, rates.output.at(promptTokens)},
                           {u"cacheRead"_s, rates.cacheRead.at(promptTokens)},
                           {u"cacheWrite5m"_s, rates.cacheWrite5m.at(promptTokens)},
                           {u"cacheWrite1h"_s, rates.cacheWrite1h.at(promptTokens)}};
    if (rates.outputReasoning)
        perMillion.insert(u"reasoning"_s, rates.outputReasoning->at(promptTokens));
    return perMillion;
}

QJsonObject priceJson(const ModelRates &rates)
{
    QJsonObject price{
        {u"name"_s, rates.modelName}, {u"usdPerMillionTokens"_s, ratesJson(rates, 0)}, {u"origin"_s, rates.origin}};
    QJsonArray tiers;
    for (const qint64 threshold : rates.tierThresholds())
        tiers.append(QJsonObject{{u"aboveInputTokens"_s, threshold},
                                 {u"usdPerMillionTokens"_s, ratesJson(rates, threshold + 1)}});
    if (!tiers.isEmpty())
        price.insert(u"tiers"_s, tiers);
    if (rates.usdPerThousandRequests > 0)
        price.insert(u"usdPerThousandRequests"_s, rates.usdPerThousandRequests);
    if (rates.since.isValid())
        price.insert(u"since"_s, rates.since.toString(Qt::ISODate));
    if (rates.until.isValid())
        price.insert(u"until"_s, rates.until.toString(Qt::ISODate));
    return price;
}

QString maintainedLine(const Pricing &pricing)
{
    if (!pricing.maintainedOrigin())
        return u"maintained table: none could be read (only Skillforge's own and your prices apply)\n"_s;
    const MaintainedTableOrigin &origin = *pricing.maintainedOrigin();
    QString line = u"maintained table: "_s + origin.description;
    if (origin.retrieved.isValid())
        line += u", retrieved "_s + origin.retrieved.toString(Qt::ISODate);
    if (pricing.maintained())
        line += u" (%1 models of %2 providers)"_s.arg(QLocale::c().toString(pricing.maintained()->modelCount()))
                    .arg(pricing.maintained()->providerCount());
    return line + u'\n';
}

int runPricesShow(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption({u"at"_s, QString(), u"DATE"_s});
    parser.addOption(QCommandLineOption(u"json"_s));
    if (!parseArguments(parser, u"prices show"_s, arguments))
        return BadUsage;
    if (parser.positionalArguments().size() != 1) {
        err(u"skillforge prices show: name one model as PROVIDER:MODEL, e.g. anthropic:claude-sonnet-5-5\n"_s);
        return BadUsage;
    }
    const QString model = parser.positionalArguments().first();
    const std::optional<QDateTime> at = requestTimeFrom(parser.value(u"at"_s));
    if (!at) {
        err(u"skillforge prices show: --at must be a date as YYYY-MM-DD or a date and time as "
            u"YYYY-MM-DDTHH:MM:SSZ, not '%1'\n"_s.arg(parser.value(u"at"_s)));
        return BadUsage;
    }
    const std::shared_ptr<const Pricing> pricing = Pricing::current();
    const std::optional<ModelRates> rates = pricing->priceFor(model, *at);
    const QString when = at->toUTC().toString(Qt::ISODate);
    if (parser.isSet(u"json"_s)) {
        QJsonObject report{{u"model"_s, model}, {u"at"_s, when}};
        report.insert(u"price"_s, rates ? QJsonValue(priceJson(*rates)) : QJsonValue());
        if (pricing->maintainedOrigin())
            report.insert(u"maintainedTable"_s,
                          QJsonObject{{u"origin"_s, pricing->maintainedOrigin()->description},
                                      {u"retrieved"_s, pricing->maintainedOrigin()->retrieved.toString(Qt::ISODate)}});
        out(QString::fromUtf8(QJsonDocument(report).toJson(QJsonDocument::Indented)));
        return rates ? Success : CheckFailed;
    }
    if (!rates) {
        out(u"%1 at %2: price unknown — no table prices it, so its costs are shown as unknown, never $0. Add it to "
            u"%3 (its shape: `skillforge prices show --help`) or run `skillforge prices update`.\n"_s.arg(
                model, when, Pricing::userFilePath()));
        out(maintainedLine(*pricing));
        return CheckFailed;
    }
    QString text = u"%1 at %2\n  %3\n  %4\n"_s.arg(model, when, rates->modelName, rates->summary());
    if (rates->since.isValid() || rates->until.isValid()) {
        QStringList period;
        if (rates->since.isValid())
            period << u"since "_s + rates->since.toString(Qt::ISODate);
        if (rates->until.isValid())
            period << u"until "_s + rates->until.addDays(-1).toString(Qt::ISODate);
        text += u"  in force "_s + period.join(u", "_s) + u'\n';
    }
    text += u"  from "_s + rates->origin + u'\n';
    out(text + maintainedLine(*pricing));
    return Success;
}

int runPricesUpdate(const QStringList &arguments)
{
    QCommandLineParser parser;
    if (!parseArguments(parser, u"prices update"_s, arguments))
        return BadUsage;
    if (parser.positionalArguments().size() > 1) {
        err(u"skillforge prices update: name at most one file or URL\n"_s);
        return BadUsage;
    }
    LlmServices services;
    PriceTableUpdater updater(services.engine());
    int exitCode = Success;
    QObject::connect(
        &updater, &PriceTableUpdater::finished, qApp, [](const PriceTableSummary &summary, const QString &source) {
            out(u"prices updated from %1: %2 models of %3 providers, kept in %4\n"_s.arg(
                source, QLocale::c().toString(summary.models), QString::number(summary.providers), summary.path));
            QCoreApplication::quit();
        });
    QObject::connect(&updater, &PriceTableUpdater::failed, qApp, [&exitCode](const QString &message) {
        err(u"skillforge prices update: %1\n"_s.arg(message));
        exitCode = CheckFailed;
        QCoreApplication::quit();
    });
    updater.update(parser.positionalArguments().value(0));
    QCoreApplication::exec();
    return exitCode;
}

} // namespace

Command pricesShowCommand()
{
    Command command;
    command.words = {u"prices"_s, u"show"_s};
    command.summary = u"show the price a model is billed at, its tiers and where it came from"_s;
    command.help =
        u"Usage: skillforge prices show PROVIDER:MODEL [--at DATE] [--json]\n\n"
        "Prints the price in force for the model at --at (a day as YYYY-MM-DD, priced at noon UTC, or an\n"
        "ISO date and time; default now): dollars per million tokens for input, output, cache reads and\n"
        "writes, the long-prompt tiers, the period it is in force and the table it came from. Prices come\n"
        "from your pricing.json, then Skillforge's own table, then genai-prices (see `prices update`).\n\n"
        "Your own prices go in pricing.json in Skillforge's config folder (%1), in dollars per\n"
        "million tokens; the longest matching pattern wins, and an entry is in force from 'effective':\n"
        "  {\"prices\": [{\"pattern\": \"generic:my-model*\", \"effective\": \"2026-01-01\",\n"
        "               \"usdPerMillionTokens\": {\"input\": 0.5, \"output\": 1.5, \"cacheRead\": 0.05}}]}\n\n"
        "Exit codes: 0 priced, 1 price unknown, 2 bad usage.\n"_s.arg(Pricing::userFilePath());
    command.run = runPricesShow;
    return command;
}

Command pricesUpdateCommand()
{
    Command command;
    command.words = {u"prices"_s, u"update"_s};
    command.summary = u"take a newer genai-prices table from a file or URL"_s;
    command.help = u"Usage: skillforge prices update [FILE|URL]\n\n"
                   "Reads a genai-prices table (its v2 data.json) from FILE or URL, default the one genai-prices\n"
                   "publishes on GitHub, checks that it reads and prices Anthropic and OpenAI models, and keeps it\n"
                   "for every later cost. A table that does not read is refused with the reason, and the prices in\n"
                   "use are kept.\n\n"
                   "Exit codes: 0 updated, 1 refused or not reachable (the old table kept), 2 bad usage.\n"_s;
    command.run = runPricesUpdate;
    return command;
}

} // namespace sf::cli
