#include "GenaiPriceTable.h"

#include "common/LoadError.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

/// A genai-prices match rule: one test of the lower-cased id, or an and/or of several.
struct Clause
{
    enum class Kind
    {
        Equals,
        StartsWith,
        EndsWith,
        Contains,
        Regex,
        Any,
        All
    };
    Kind kind = Kind::Equals;
    QString text; // lower-cased, as genai-prices compares
    QRegularExpression regex;
    QList<Clause> parts;

    bool matches(const QString &lowerId) const
    {
        switch (kind) {
        case Kind::Equals:
            return lowerId == text;
        case Kind::StartsWith:
            return lowerId.startsWith(text);
        case Kind::EndsWith:
            return lowerId.endsWith(text);
        case Kind::Contains:
            return lowerId.contains(text);
        case Kind::Regex:
            return regex.match(lowerId).hasMatch(); // a search, as Python's re.search
        case Kind::Any:
            return std::any_of(parts.cbegin(), parts.cend(), [&](const Clause &c) { return c.matches(lowerId); });
        case Kind::All:
            return std::all_of(parts.cbegin(), parts.cend(), [&](const Clause &c) { return c.matches(lowerId); });
        }
        return false;
    }
};

/// The prices of one period: from a date on, or in a daily window (off-peak hours), or always.
struct PricePeriod
{
    QDate startDate;
    QTime startTime; // with endTime: a daily window in UTC, which may wrap past midnight
    QTime endTime;
    ModelRates rates;
    bool pricesTokens = false; // an embedding or image model's period prices no text tokens: no price for a chat

    bool activeAt(const QDateTime &utc) const
    {
        if (startDate.isValid())
            return utc.date() >= startDate;
        if (startTime.isValid()) {
            const QTime time = utc.time();
            return endTime < startTime ? (time >= startTime || time < endTime) : (time >= startTime && time < endTime);
        }
        return true;
    }
};

struct Model
{
    QString id;
    Clause match;
    QList<PricePeriod> periods; // in the file's order: the last one active wins, the first when none is
};

/// Why a table cannot be read, and where: the failing model's id, when there is one, finds its line.
struct ReadError
{
    QString message;
    QString modelId;
};

std::optional<Clause> clauseFrom(const QJsonValue &value, QString *why)
{
    const QJsonObject object = value.toObject();
    Clause clause;
    static const std::pair<QLatin1StringView, Clause::Kind> simple[] = {{"equals"_L1, Clause::Kind::Equals},
                                                                        {"starts_with"_L1, Clause::Kind::StartsWith},
                                                                        {"ends_with"_L1, Clause::Kind::EndsWith},
                                                                        {"contains"_L1, Clause::Kind::Contains},
                                                                        {"regex"_L1, Clause::Kind::Regex}};
    for (const auto &[key, kind] : simple) {
        if (object.value(key).isString()) {
            clause.kind = kind;
            clause.text = object.value(key).toString();
            if (kind == Clause::Kind::Regex) {
                clause.regex = QRegularExpression(clause.text);
                if (!clause.regex.isValid()) {
                    *why = u"its match regex \"%1\" is not valid: %2"_s.arg(clause.text, clause.regex.errorString());
                    return std::nullopt;
                }
            } else {
                clause.text = clause.text.toLower();
            }
            return clause;
        }
    }
    for (const auto &[key, kind] : {std::pair{"or"_L1, Clause::Kind::Any}, std::pair{"and"_L1, Clause::Kind::All}}) {
        if (object.value(key).isArray()) {
            clause.kind = kind;
            for (const QJsonValue &part : object.value(key).toArray()) {
                std::optional<Clause> parsed = clauseFrom(part, why);
                if (!parsed)
                    return std::nullopt;
                clause.parts.append(*parsed);
            }
            return clause;
        }
    }
    *why = u"its match rule is none of equals, starts_with, ends_with, contains, regex, or, and"_s;
    return std::nullopt;
}

/// A price is a number, or {"base": N, "tiers": [{"start": TOKENS, "price": N}, ...]}.
std::optional<Rate> rateFrom(const QJsonValue &value)
{
    if (value.isDouble())
        return Rate{value.toDouble(), {}};
    const QJsonObject tiered = value.toObject();
    if (!tiered.value("base"_L1).isDouble())
        return std::nullopt;
    Rate rate{tiered.value("base"_L1).toDouble(), {}};
    for (const QJsonValue &tier : tiered.value("tiers"_L1).toArray()) {
        const QJsonObject object = tier.toObject();
        if (!object.value("start"_L1).isDouble() || !object.value("price"_L1).isDouble())
            return std::nullopt;
        rate.tiers.append({object.value("start"_L1).toInteger(), object.value("price"_L1).toDouble()});
    }
    std::sort(rate.tiers.begin(), rate.tiers.end(),
              [](const RateTier &a, const RateTier &b) { return a.aboveInputTokens < b.aboveInputTokens; });
    return rate;
}

/// The text buckets Skillforge counts; audio, image and video prices are left out. A bucket without its own price
/// is billed as the one it belongs to, as genai-prices does: cache reads and writes as input, 1-hour writes as writes.
std::optional<ModelRates> ratesFrom(const QJsonObject &prices, QString *why)
{
    std::optional<Rate> input, output, cacheRead, cacheWrite, cacheWrite1h, reasoning;
    const std::pair<QLatin1StringView, std::optional<Rate> *> buckets[] = {{"input_mtok"_L1, &input},
                                                                           {"output_mtok"_L1, &output},
                                                                           {"cache_read_mtok"_L1, &cacheRead},
                                                                           {"cache_write_mtok"_L1, &cacheWrite},
                                                                           {"cache_write_1h_mtok"_L1, &cacheWrite1h},
                                                                           {"output_reasoning_mtok"_L1, &reasoning}};
    for (const auto &[key, rate] : buckets) {
        if (!prices.contains(key) || prices.value(key).isNull())
            continue;
        *rate = rateFrom(prices.value(key));
        if (!*rate) {
            *why = u"its price \"%1\" is neither a number nor {base, tiers}"_s.arg(key);
            return std::nullopt;
        }
    }
    ModelRates rates;
    rates.input = input.value_or(Rate{});
    rates.output = output.value_or(Rate{});
    rates.cacheRead = cacheRead.value_or(rates.input);
    rates.cacheWrite5m = cacheWrite.value_or(rates.input);
    rates.cacheWrite1h = cacheWrite1h.value_or(rates.cacheWrite5m);
    rates.outputReasoning = reasoning;
    // A per-request fee is a plain number in genai-prices; anything else is a table this reader does not know.
    const QJsonValue requestFee = prices.value("requests_kcount"_L1);
    if (!requestFee.isUndefined() && !requestFee.isNull() && !requestFee.isDouble()) {
        *why = u"its price \"requests_kcount\" is not a number"_s;
        return std::nullopt;
    }
    rates.usdPerThousandRequests = requestFee.toDouble();
    return rates;
}

std::optional<PricePeriod> periodFrom(const QJsonObject &entry, QString *why)
{
    PricePeriod period;
    const QJsonObject constraint = entry.value("constraint"_L1).toObject();
    if (constraint.contains("start_date"_L1)) {
        period.startDate = QDate::fromString(constraint.value("start_date"_L1).toString(), Qt::ISODate);
        if (!period.startDate.isValid()) {
            *why = u"a price's start_date is not a date as YYYY-MM-DD"_s;
            return std::nullopt;
        }
    } else if (constraint.contains("start_time"_L1)) {
        const auto timeOf = [](const QJsonValue &value) {
            QString text = value.toString();
            if (text.endsWith(u'Z'))
                text.chop(1);
            return QTime::fromString(text, Qt::ISODate);
        };
        period.startTime = timeOf(constraint.value("start_time"_L1));
        period.endTime = timeOf(constraint.value("end_time"_L1));
        if (!period.startTime.isValid() || !period.endTime.isValid()) {
            *why = u"a price's start_time or end_time is not a UTC time as HH:MM:SSZ"_s;
            return std::nullopt;
        }
    }
    std::optional<ModelRates> rates = ratesFrom(entry.value("prices"_L1).toObject(), why);
    if (!rates)
        return std::nullopt;
    period.rates = *rates;
    period.rates.since = period.startDate;
    const QJsonObject prices = entry.value("prices"_L1).toObject();
    period.pricesTokens = prices.contains("input_mtok"_L1) || prices.contains("output_mtok"_L1);
    return period;
}

std::optional<Model> modelFrom(const QJsonObject &object, const QString &providerId, ReadError *error)
{
    Model model;
    model.id = object.value("id"_L1).toString();
    error->modelId = model.id;
    if (model.id.isEmpty()) {
        error->message = u"a model of provider \"%1\" has no \"id\""_s.arg(providerId);
        return std::nullopt;
    }
    QString why;
    std::optional<Clause> match = clauseFrom(object.value("match"_L1), &why);
    if (!match) {
        error->message = u"model \"%1\": %2"_s.arg(model.id, why);
        return std::nullopt;
    }
    model.match = *match;
    const QJsonValue prices = object.value("prices"_L1);
    QJsonArray periods;
    if (prices.isObject())
        periods.append(QJsonObject{{u"prices"_s, prices}});
    else
        periods = prices.toArray();
    if (periods.isEmpty()) {
        error->message = u"model \"%1\" has no \"prices\""_s.arg(model.id);
        return std::nullopt;
    }
    const QString name = object.value("name"_L1).toString(model.id);
    for (const QJsonValue &entry : periods) {
        std::optional<PricePeriod> period = periodFrom(entry.toObject(), &why);
        if (!period) {
            error->message = u"model \"%1\": %2"_s.arg(model.id, why);
            return std::nullopt;
        }
        period->rates.modelName = name;
        period->rates.origin = u"genai-prices: %1/%2"_s.arg(providerId, model.id);
        model.periods.append(*period);
    }
    return model;
}

// LiteLLM and OpenRouter write dates compactly (gpt-5.2-20251211) where the table has gpt-5.2-2025-12-11.
QString withDashedDate(const QString &lowerId)
{
    static const QRegularExpression compactDate(u"-(20\\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\\d|3[01])(?=-|:|$)"_s);
    QString result = lowerId;
    result.replace(compactDate, u"-\\1-\\2-\\3"_s);
    return result;
}

} // namespace

struct GenaiPriceTable::Provider
{
    QString id;
    std::optional<Clause> providerMatch;
    QStringList fallbackProviders;
    QList<Model> models;

    const Model *modelFor(const QString &lowerId) const
    {
        for (const Model &model : models)
            if (model.match.matches(lowerId))
                return &model;
        return nullptr;
    }
};

GenaiPriceTable::GenaiPriceTable()
    : m_providers(std::make_shared<const QList<Provider>>())
{
}

Result<GenaiPriceTable> GenaiPriceTable::fromJson(const QByteArray &json, const QString &fileName)
{
    const auto failure = [&](qsizetype offset, const QString &message) {
        LoadError error{fileName, 0, 0, message};
        if (offset >= 0)
            lineAndColumnAt(json, offset, &error.line, &error.column);
        return Result<GenaiPriceTable>::failure(error.toString());
    };
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return failure(parseError.offset, u"not valid JSON (a cut-off download?): %1"_s.arg(parseError.errorString()));
    if (!document.isArray() || document.array().isEmpty())
        return failure(-1, u"not a genai-prices table: expected a list of providers"_s);

    auto providers = std::make_shared<QList<Provider>>();
    for (const QJsonValue &value : document.array()) {
        const QJsonObject object = value.toObject();
        Provider provider;
        provider.id = object.value("id"_L1).toString();
        if (provider.id.isEmpty() || !object.value("models"_L1).isArray())
            return failure(-1, u"not a genai-prices table: a provider without \"id\" or \"models\""_s);
        QString why;
        if (object.contains("provider_match"_L1)) {
            provider.providerMatch = clauseFrom(object.value("provider_match"_L1), &why);
            if (!provider.providerMatch)
                return failure(-1, u"provider \"%1\": %2"_s.arg(provider.id, why));
        }
        for (const QJsonValue &fallback : object.value("fallback_model_providers"_L1).toArray())
            provider.fallbackProviders.append(fallback.toString());
        for (const QJsonValue &modelValue : object.value("models"_L1).toArray()) {
            ReadError error;
            std::optional<Model> model = modelFrom(modelValue.toObject(), provider.id, &error);
            if (!model) {
                static const QString idAt = u"\"id\"\\s*:\\s*\"%1\""_s;
                const QRegularExpression where(idAt.arg(QRegularExpression::escape(error.modelId)));
                const QString text = QString::fromUtf8(json);
                const QRegularExpressionMatch found = where.match(text);
                const qsizetype offset = error.modelId.isEmpty() || !found.hasMatch()
                                             ? -1
                                             : text.left(found.capturedStart()).toUtf8().size();
                return failure(offset, error.message);
            }
            provider.models.append(*model);
        }
        providers->append(provider);
    }
    GenaiPriceTable table;
    table.m_providers = providers;
    return Result<GenaiPriceTable>::success(table);
}

std::optional<ModelRates> GenaiPriceTable::ratesFor(const QString &providerId, const QString &modelId,
                                                    const QDateTime &at) const
{
    const auto providerById = [this](const QString &id) -> const Provider * {
        for (const Provider &provider : *m_providers)
            if (provider.id == id)
                return &provider;
        for (const Provider &provider : *m_providers)
            if (provider.providerMatch && provider.providerMatch->matches(id.toLower()))
                return &provider;
        return nullptr;
    };
    const Provider *provider = providerById(providerId);
    if (!provider)
        return std::nullopt;
    const QString lowerId = modelId.toLower();
    const Model *model = provider->modelFor(lowerId);
    if (!model && withDashedDate(lowerId) != lowerId)
        model = provider->modelFor(withDashedDate(lowerId));
    // A provider that resells another's models (a cloud selling Claude) falls back to that provider, one step only.
    for (qsizetype i = 0; !model && i < provider->fallbackProviders.size(); ++i)
        if (const Provider *fallback = providerById(provider->fallbackProviders.at(i)))
            model = fallback->modelFor(lowerId);
    if (!model)
        return std::nullopt;

    const QDateTime utc = at.toUTC();
    const PricePeriod *chosen = &model->periods.first();
    for (auto period = model->periods.crbegin(); period != model->periods.crend(); ++period) {
        if (period->activeAt(utc)) {
            chosen = &*period;
            break;
        }
    }
    return chosen->pricesTokens ? std::optional<ModelRates>(chosen->rates) : std::nullopt;
}

bool GenaiPriceTable::hasProvider(const QString &providerId) const
{
    return std::any_of(m_providers->cbegin(), m_providers->cend(),
                       [&](const Provider &provider) { return provider.id == providerId; });
}

int GenaiPriceTable::providerCount() const
{
    return int(m_providers->size());
}

int GenaiPriceTable::modelCount() const
{
    int count = 0;
    for (const Provider &provider : *m_providers)
        count += int(provider.models.size());
    return count;
}

} // namespace sf
