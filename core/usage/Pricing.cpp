#include "Pricing.h"

#include "common/LoadError.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QStandardPaths>

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

/// usdPerMillionTokens: input and output as given; a cache price not given is the input price (providers without a
/// separate cache price bill those tokens as ordinary input).
TokenRates ratesFrom(const QJsonObject &perMillion)
{
    TokenRates rates;
    rates.input = perMillion.value("input"_L1).toDouble();
    rates.output = perMillion.value("output"_L1).toDouble();
    rates.cacheRead = perMillion.value("cacheRead"_L1).toDouble(rates.input);
    rates.cacheWrite5m = perMillion.value("cacheWrite5m"_L1).toDouble(rates.input);
    rates.cacheWrite1h = perMillion.value("cacheWrite1h"_L1).toDouble(rates.input);
    return rates;
}

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
        ModelPrice price;
        price.source = fileName;
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
        const QJsonObject perMillion = entry.value("usdPerMillionTokens"_L1).toObject();
        if (!perMillion.value("input"_L1).isDouble() || !perMillion.value("output"_L1).isDouble()) {
            return failure(fileName, json, offsetOfEntry(json, i),
                           u"price '%1' needs numbers for usdPerMillionTokens.input and .output"_s.arg(price.pattern));
        }
        static_cast<TokenRates &>(price) = ratesFrom(perMillion);
        if (entry.contains("longContext"_L1)) {
            const QJsonObject tier = entry.value("longContext"_L1).toObject();
            const QJsonObject rates = tier.value("usdPerMillionTokens"_L1).toObject();
            if (!tier.value("aboveInputTokens"_L1).isDouble() || !rates.value("input"_L1).isDouble() ||
                !rates.value("output"_L1).isDouble()) {
                return failure(fileName, json, offsetOfEntry(json, i),
                               u"price '%1': longContext needs \"aboveInputTokens\" and usdPerMillionTokens.input "
                               u"and .output"_s.arg(price.pattern));
            }
            LongContextRates longContext;
            static_cast<TokenRates &>(longContext) = ratesFrom(rates);
            longContext.aboveInputTokens = tier.value("aboveInputTokens"_L1).toInteger();
            price.longContext = longContext;
        }
        pricing.m_prices.append(price);
    }
    return Result<Pricing>::success(pricing);
}

QString Pricing::userFilePath()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation)).filePath(u"pricing.json"_s);
}

const Pricing &Pricing::shared()
{
    static const Pricing table = [] {
        Pricing pricing;
        QFile builtIn(u":/pricing/pricing.json"_s);
        if (builtIn.open(QIODevice::ReadOnly)) {
            const Result<Pricing> parsed = fromJson(builtIn.readAll(), u"resources/pricing.json"_s);
            if (parsed) {
                pricing = *parsed.value;
            } else {
                qCWarning(lcPricing).noquote() << "Built-in pricing table:" << parsed.error;
            }
        }
        QFile user(userFilePath());
        if (user.open(QIODevice::ReadOnly)) {
            const Result<Pricing> parsed = fromJson(user.readAll(), user.fileName());
            if (parsed) {
                pricing.overrideWith(*parsed.value);
            } else {
                qCWarning(lcPricing).noquote() << "Pricing override ignored:" << parsed.error;
            }
        }
        return pricing;
    }();
    return table;
}

std::optional<double> Pricing::costFor(const QString &modelName, const TokenUsage &usage)
{
    return shared().cost(modelName, usage);
}

std::optional<ModelPrice> Pricing::priceFor(const QString &modelName, QDate on) const
{
    const ModelPrice *best = bestOf(m_overrides, modelName, on);
    if (!best) {
        best = bestOf(m_prices, modelName, on);
    }
    return best ? std::optional<ModelPrice>(*best) : std::nullopt;
}

const ModelPrice *Pricing::bestOf(const QList<ModelPrice> &prices, const QString &modelName, QDate on)
{
    const ModelPrice *best = nullptr;
    for (const ModelPrice &price : prices) {
        if (price.effective > on || !price.glob.match(modelName).hasMatch()) {
            continue;
        }
        // The most specific pattern wins; for one pattern the newest price in force, the first listed on a tie.
        if (!best || price.pattern.size() > best->pattern.size() ||
            (price.pattern.size() == best->pattern.size() && price.effective > best->effective)) {
            best = &price;
        }
    }
    return best;
}

double TokenRates::costOf(const TokenUsage &usage) const
{
    const double dollars = double(usage.uncachedInput) * input + double(usage.cacheRead) * cacheRead +
                           double(usage.cacheWrite5m) * cacheWrite5m + double(usage.cacheWrite1h) * cacheWrite1h +
                           double(usage.output) * output;
    return dollars / 1e6;
}

double ModelPrice::costOf(const TokenUsage &usage) const
{
    if (longContext && usage.totalInput() > longContext->aboveInputTokens)
        return longContext->TokenRates::costOf(usage);
    return TokenRates::costOf(usage);
}

std::optional<double> Pricing::cost(const QString &modelName, const TokenUsage &usage, QDate on) const
{
    const std::optional<ModelPrice> price = priceFor(modelName, on);
    if (!price) {
        return std::nullopt;
    }
    return price->costOf(usage);
}

void Pricing::overrideWith(const Pricing &other)
{
    m_overrides = other.m_overrides + other.m_prices + m_overrides;
}

} // namespace sf
