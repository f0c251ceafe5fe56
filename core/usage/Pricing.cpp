#include "Pricing.h"

#include "common/LoadError.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QStandardPaths>
#include <mutex>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

// A bad pricing file is worth a warning whatever else is logged.
Q_LOGGING_CATEGORY(lcPricing, "skillforge.pricing", QtInfoMsg)

Result<Pricing> failure(const QString &file, const QByteArray &json, qsizetype offset, const QString &message)
{
    LoadError error{file, 0, 0, message};
    if (offset >= 0) {
        lineAndColumnAt(json, offset, &error.line, &error.column);
    }
    return Result<Pricing>::failure(error.toString());
}

// Where an entry starts in the text, so an error in entry N points at its line.
qsizetype offsetOfEntry(const QByteArray &json, int index)
{
    qsizetype offset = json.indexOf("\"prices\"");
    for (int i = 0; i <= index && offset >= 0; ++i) {
        offset = json.indexOf('{', offset + 1);
    }
    return offset;
}

// '*' is any run of characters, '/' included (model ids like "hf:org/model" have slashes), '?' one.
QRegularExpression compileGlob(const QString &pattern)
{
    QString regex;
    for (const QChar c : pattern) {
        if (c == u'*') {
            regex += ".*"_L1;
        } else if (c == u'?') {
            regex += u'.';
        } else {
            regex += QRegularExpression::escape(QString(c));
        }
    }
    QRegularExpression glob(QRegularExpression::anchoredPattern(regex), QRegularExpression::CaseInsensitiveOption);
    glob.optimize();
    return glob;
}

struct FlatRates
{
    double input, output, cacheRead, cacheWrite5m, cacheWrite1h;
};

/// usdPerMillionTokens: input and output as given; a cache price not given is the input price (providers without a
/// separate cache price bill those tokens as ordinary input).
FlatRates flatRatesFrom(const QJsonObject &perMillion)
{
    const double input = perMillion.value("input"_L1).toDouble();
    return {input, perMillion.value("output"_L1).toDouble(), perMillion.value("cacheRead"_L1).toDouble(input),
            perMillion.value("cacheWrite5m"_L1).toDouble(input), perMillion.value("cacheWrite1h"_L1).toDouble(input)};
}

ModelRates ratesOf(const FlatRates &flat, const std::optional<std::pair<qint64, FlatRates>> &longContext)
{
    const auto rate = [&](double base, double FlatRates::*bucket) {
        Rate result{base, {}};
        if (longContext)
            result.tiers.append({longContext->first, longContext->second.*bucket});
        return result;
    };
    ModelRates rates;
    rates.input = rate(flat.input, &FlatRates::input);
    rates.output = rate(flat.output, &FlatRates::output);
    rates.cacheRead = rate(flat.cacheRead, &FlatRates::cacheRead);
    rates.cacheWrite5m = rate(flat.cacheWrite5m, &FlatRates::cacheWrite5m);
    rates.cacheWrite1h = rate(flat.cacheWrite1h, &FlatRates::cacheWrite1h);
    return rates;
}

/// The maintained table's provider and model for a Skillforge model name: `anthropic:claude-…` and `openai:gpt-…`
/// directly, a Hugging Face route `hf:ORG/MODEL:ROUTE` as genai-prices' `huggingface_ROUTE`; any other provider
/// prefix only where the table has a provider of that id. `hf:ORG/MODEL` without a route has no price: the router
/// chooses the provider, and with it the price.
std::optional<std::pair<QString, QString>> maintainedKeyOf(const GenaiPriceTable &table, const QString &modelName)
{
    const qsizetype colon = modelName.indexOf(u':');
    if (colon <= 0)
        return std::nullopt;
    const QString provider = modelName.left(colon);
    const QString model = modelName.mid(colon + 1);
    if (provider == "hf"_L1) {
        const qsizetype route = model.lastIndexOf(u':');
        if (route <= 0)
            return std::nullopt;
        return std::pair{u"huggingface_"_s + model.mid(route + 1), model.left(route)};
    }
    if (!table.hasProvider(provider))
        return std::nullopt;
    return std::pair{provider, model};
}

QDateTime noonOf(QDate day)
{
    return QDateTime(day, QTime(12, 0), Qt::UTC);
}

/// Where the shipped maintained table came from, as Skillforge's own table records it.
MaintainedTableOrigin shippedOriginFrom(const QByteArray &ownTable)
{
    const QJsonObject table = QJsonDocument::fromJson(ownTable).object().value("maintainedTable"_L1).toObject();
    MaintainedTableOrigin origin;
    origin.retrieved = QDate::fromString(table.value("retrieved"_L1).toString(), Qt::ISODate);
    const QString version = table.value("version"_L1).toString();
    origin.description =
        u"genai-prices%1, shipped with Skillforge"_s.arg(version.isEmpty() ? QString() : u' ' + version);
    return origin;
}

std::shared_ptr<const Pricing> load()
{
    auto pricing = std::make_shared<Pricing>();
    QFile own(u":/pricing/pricing.json"_s);
    QByteArray ownTable;
    if (own.open(QIODevice::ReadOnly)) {
        ownTable = own.readAll();
        const Result<Pricing> parsed = Pricing::fromJson(ownTable, u"Skillforge's table"_s);
        if (parsed)
            *pricing = *parsed.value;
        else
            qCWarning(lcPricing).noquote() << "Built-in pricing table:" << parsed.error;
    }

    std::optional<GenaiPriceTable> maintained;
    MaintainedTableOrigin origin;
    QFile updated(Pricing::updatedTablePath());
    if (updated.open(QIODevice::ReadOnly)) {
        const Result<GenaiPriceTable> parsed = GenaiPriceTable::fromJson(updated.readAll(), updated.fileName());
        if (parsed) {
            maintained = *parsed.value;
            QFile originFile(Pricing::updatedTablePath() + u".origin.json"_s);
            const QJsonObject stored = originFile.open(QIODevice::ReadOnly)
                                           ? QJsonDocument::fromJson(originFile.readAll()).object()
                                           : QJsonObject();
            origin.description =
                u"genai-prices, updated from %1"_s.arg(stored.value("source"_L1).toString(u"a file"_s));
            origin.retrieved = QDate::fromString(stored.value("retrieved"_L1).toString().left(10), Qt::ISODate);
        } else {
            qCWarning(lcPricing).noquote() << "Updated price table ignored, the shipped one is used:" << parsed.error;
        }
    }
    if (!maintained) {
        QFile shipped(u":/pricing/genai-prices.json"_s);
        if (shipped.open(QIODevice::ReadOnly)) {
            const Result<GenaiPriceTable> parsed =
                GenaiPriceTable::fromJson(shipped.readAll(), u"resources/pricing/genai-prices.json"_s);
            if (parsed) {
                maintained = *parsed.value;
                origin = shippedOriginFrom(ownTable);
            } else {
                qCWarning(lcPricing).noquote() << "Shipped price table:" << parsed.error;
            }
        }
    }
    if (maintained)
        pricing->setMaintained(*maintained, origin);

    QFile user(Pricing::userFilePath());
    if (user.open(QIODevice::ReadOnly)) {
        const Result<Pricing> parsed = Pricing::fromJson(user.readAll(), u"your pricing.json"_s);
        if (parsed)
            pricing->overrideWith(*parsed.value);
        else
            qCWarning(lcPricing).noquote() << "Pricing override ignored:" << user.fileName() << parsed.error;
    }
    return pricing;
}

std::mutex currentMutex;
std::shared_ptr<const Pricing> currentTable;

} // namespace

Result<Pricing> Pricing::fromJson(const QByteArray &json, const QString &fileName)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        return failure(fileName, json, parseError.offset, parseError.errorString());
    }
    if (!document.object().value("prices"_L1).isArray()) {
        return failure(fileName, json, -1, u"expected an object with a \"prices\" array"_s);
    }
    Pricing pricing;
    const QJsonArray entries = document.object().value("prices"_L1).toArray();
    for (int i = 0; i < entries.size(); ++i) {
        const QJsonObject entry = entries.at(i).toObject();
        PriceEntry price;
        price.pattern = entry.value("pattern"_L1).toString();
        price.glob = compileGlob(price.pattern);
        price.effective = QDate::fromString(entry.value("effective"_L1).toString(), Qt::ISODate);
        if (price.pattern.isEmpty() || !price.pattern.contains(u':')) {
            return failure(fileName, json, offsetOfEntry(json, i),
                           u"price %1 needs a \"pattern\" like \"anthropic:claude-opus-4-5*\""_s.arg(i + 1));
        }
        if (!price.effective.isValid()) {
            return failure(fileName, json, offsetOfEntry(json, i),
                           u"price '%1' needs an \"effective\" date as YYYY-MM-DD"_s.arg(price.pattern));
        }
        if (entry.contains("until"_L1)) {
            price.until = QDate::fromString(entry.value("until"_L1).toString(), Qt::ISODate);
            if (!price.until.isValid() || price.until <= price.effective) {
                return failure(
                    fileName, json, offsetOfEntry(json, i),
                    u"price '%1': \"until\" must be a date as YYYY-MM-DD after \"effective\""_s.arg(price.pattern));
            }
        }
        const QJsonObject perMillion = entry.value("usdPerMillionTokens"_L1).toObject();
        if (!perMillion.value("input"_L1).isDouble() || !perMillion.value("output"_L1).isDouble()) {
            return failure(fileName, json, offsetOfEntry(json, i),
                           u"price '%1' needs numbers for usdPerMillionTokens.input and .output"_s.arg(price.pattern));
        }
        std::optional<std::pair<qint64, FlatRates>> longContext;
        if (entry.contains("longContext"_L1)) {
            const QJsonObject tier = entry.value("longContext"_L1).toObject();
            const QJsonObject rates = tier.value("usdPerMillionTokens"_L1).toObject();
            if (!tier.value("aboveInputTokens"_L1).isDouble() || !rates.value("input"_L1).isDouble() ||
                !rates.value("output"_L1).isDouble()) {
                return failure(fileName, json, offsetOfEntry(json, i),
                               u"price '%1': longContext needs \"aboveInputTokens\" and usdPerMillionTokens.input "
                               u"and .output"_s.arg(price.pattern));
            }
            longContext = std::pair{tier.value("aboveInputTokens"_L1).toInteger(), flatRatesFrom(rates)};
        }
        price.rates = ratesOf(flatRatesFrom(perMillion), longContext);
        price.rates.since = price.effective;
        price.rates.until = price.until;
        price.rates.modelName = price.pattern;
        price.rates.origin = u"%1: %2"_s.arg(fileName, price.pattern);
        pricing.m_entries.append(price);
    }
    return Result<Pricing>::success(pricing);
}

void Pricing::setMaintained(GenaiPriceTable table, MaintainedTableOrigin origin)
{
    m_maintained = std::move(table);
    m_maintainedOrigin = std::move(origin);
}

void Pricing::overrideWith(const Pricing &other)
{
    m_overrides = other.m_overrides + other.m_entries + m_overrides;
}

QString Pricing::userFilePath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation)).filePath(u"pricing.json"_s);
}

QString Pricing::updatedTablePath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation))
        .filePath(u"pricing/genai-prices.json"_s);
}

std::shared_ptr<const Pricing> Pricing::current()
{
    const std::lock_guard lock(currentMutex);
    if (!currentTable)
        currentTable = load();
    return currentTable;
}

void Pricing::reload()
{
    std::shared_ptr<const Pricing> fresh = load();
    const std::lock_guard lock(currentMutex);
    currentTable = std::move(fresh);
}

std::optional<double> Pricing::costFor(const QString &modelName, const TokenUsage &usage, const QDateTime &at)
{
    return current()->cost(modelName, usage, at);
}

std::optional<ModelRates> Pricing::priceFor(const QString &modelName, const QDateTime &at) const
{
    const QDate day = at.toUTC().date();
    const PriceEntry *best = bestOf(m_overrides, modelName, day);
    if (!best)
        best = bestOf(m_entries, modelName, day);
    if (best)
        return best->rates;
    if (!m_maintained)
        return std::nullopt;
    const std::optional<std::pair<QString, QString>> key = maintainedKeyOf(*m_maintained, modelName);
    if (!key)
        return std::nullopt;
    std::optional<ModelRates> rates = m_maintained->ratesFor(key->first, key->second, at);
    if (rates && m_maintainedOrigin)
        rates->origin += u" (%1)"_s.arg(m_maintainedOrigin->description);
    return rates;
}

QStringList Pricing::unpricedOf(const QStringList &modelNames) const
{
    QStringList unpriced;
    for (const QString &model : modelNames)
        if (!priceFor(model) && !unpriced.contains(model))
            unpriced.append(model);
    return unpriced;
}

std::optional<ModelRates> Pricing::priceFor(const QString &modelName, QDate day) const
{
    return priceFor(modelName, noonOf(day));
}

QString Pricing::sourceOf(const QString &modelName, const QDateTime &at) const
{
    const std::optional<ModelRates> rates = priceFor(modelName, at);
    return rates ? rates->origin : u"price unknown"_s;
}

QString Pricing::sourcesOf(const QStringList &modelNames, const QDateTime &at) const
{
    QStringList sources;
    for (const QString &model : modelNames) {
        const std::optional<ModelRates> rates = priceFor(model, at);
        sources.append(rates ? u"%1 from %2"_s.arg(model, rates->origin) : u"%1: price unknown"_s.arg(model));
    }
    if (sources.isEmpty())
        return u"(no models)"_s;
    return u"in force on %1: %2"_s.arg(at.toUTC().date().toString(Qt::ISODate), sources.join(u"; "_s));
}

const PriceEntry *Pricing::bestOf(const QList<PriceEntry> &entries, const QString &modelName, QDate day)
{
    const PriceEntry *best = nullptr;
    for (const PriceEntry &entry : entries) {
        if (!entry.inForceOn(day) || !entry.glob.match(modelName).hasMatch()) {
            continue;
        }
        // The most specific pattern wins; for one pattern the newest price in force, the first listed on a tie.
        if (!best || entry.pattern.size() > best->pattern.size() ||
            (entry.pattern.size() == best->pattern.size() && entry.effective > best->effective)) {
            best = &entry;
        }
    }
    return best;
}

std::optional<double> Pricing::cost(const QString &modelName, const TokenUsage &usage, const QDateTime &at) const
{
    const std::optional<ModelRates> price = priceFor(modelName, at);
    if (!price) {
        return std::nullopt;
    }
    return price->costOf(usage);
}

std::optional<double> Pricing::cost(const QString &modelName, const TokenUsage &usage, QDate day) const
{
    return cost(modelName, usage, noonOf(day));
}

} // namespace sf
