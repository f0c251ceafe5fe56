#pragma once

#include "GenaiPriceTable.h"
#include "PriceRates.h"
#include "TokenUsage.h"
#include "common/Result.h"

#include <QDateTime>
#include <QList>
#include <QRegularExpression>
#include <QString>
#include <memory>
#include <optional>

namespace sf {

/** One entry of a price file in Skillforge's own shape: a glob over `PROVIDER:MODEL`, in force from `effective`
 * until the day before `until` (open-ended when absent). */
struct PriceEntry
{
    QString pattern;
    QRegularExpression glob; // `pattern`, compiled once: every finished request looks its price up
    QDate effective;
    QDate until;
    ModelRates rates;

    bool inForceOn(QDate day) const { return effective <= day && (!until.isValid() || day < until); }
};

/** Where the maintained table in use came from: shown by `prices show`, in tooltips and in reports. */
struct MaintainedTableOrigin
{
    QString description; // "genai-prices 0.2.5 (PyPI), shipped with Skillforge"
    QDate retrieved;
};

/**
 * What a request costs. Three tables, the first that prices a model at the request's time wins:
 *  1. the user's own `pricing.json` in the config directory (Skillforge's shape: globs over PROVIDER:MODEL);
 *  2. Skillforge's small table (resources/pricing/pricing.json, same shape) for what no maintained table has: the
 *     embedded model, Hugging Face router routes, corrections for dates the maintained table does not model;
 *  3. pydantic's genai-prices table (resources/pricing/genai-prices.json, MIT), or the newer copy
 *     `skillforge prices update` installed.
 * In a glob table the longest matching pattern wins, and of its entries the one in force that day. A model none of
 * them prices has no price: costs are empty, never 0 and never another model's.
 */
class Pricing final
{
public:
    Pricing() = default;

    /** A pricing of one glob-shaped table alone (tests, and each glob table's parser); errors name the file, line
     * and problem. */
    static Result<Pricing> fromJson(const QByteArray &json, const QString &fileName);
    /** Adds a maintained table under the glob tables. */
    void setMaintained(GenaiPriceTable table, MaintainedTableOrigin origin);
    /** Lets `other`'s glob entries win: a model any of them prices at a time is priced by them alone. */
    void overrideWith(const Pricing &other);

    /** The table in use: shipped, updated and user files together; reload() after an update. */
    static std::shared_ptr<const Pricing> current();
    static void reload();
    /** Where the user's own price file lives, and where an updated maintained table is kept. */
    static QString userFilePath();
    static QString updatedTablePath();

    /** Cost in US dollars with the table in use; empty when the model has no price. */
    static std::optional<double> costFor(const QString &modelName, const TokenUsage &usage,
                                         const QDateTime &at = QDateTime::currentDateTimeUtc());

    std::optional<ModelRates> priceFor(const QString &modelName,
                                       const QDateTime &at = QDateTime::currentDateTimeUtc()) const;
    /** Those of @p modelNames no table prices now, each once: what a budget over them cannot count. */
    QStringList unpricedOf(const QStringList &modelNames) const;
    /** The price in force on @p day (at noon UTC). */
    std::optional<ModelRates> priceFor(const QString &modelName, QDate day) const;
    std::optional<double> cost(const QString &modelName, const TokenUsage &usage,
                               const QDateTime &at = QDateTime::currentDateTimeUtc()) const;
    std::optional<double> cost(const QString &modelName, const TokenUsage &usage, QDate day) const;

    /** Where @p modelName's price at @p at comes from ("genai-prices: anthropic/claude-sonnet-5-5 (genai-prices
     * 0.2.5, shipped with Skillforge)"), or "price unknown". */
    QString sourceOf(const QString &modelName, const QDateTime &at = QDateTime::currentDateTimeUtc()) const;
    /** Each model's source on @p at's day, in one line: "in force on 2026-10-01: anthropic:claude-sonnet-5-5 from
     * genai-prices: …; local:gemma-3-270m from Skillforge's table: local:*". */
    QString sourcesOf(const QStringList &modelNames, const QDateTime &at) const;

    const std::optional<MaintainedTableOrigin> &maintainedOrigin() const { return m_maintainedOrigin; }
    const std::optional<GenaiPriceTable> &maintained() const { return m_maintained; }

private:
    static const PriceEntry *bestOf(const QList<PriceEntry> &entries, const QString &modelName, QDate day);

    QList<PriceEntry> m_overrides;
    QList<PriceEntry> m_entries;
    std::optional<GenaiPriceTable> m_maintained;
    std::optional<MaintainedTableOrigin> m_maintainedOrigin;
};

} // namespace sf
