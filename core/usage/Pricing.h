#pragma once

#include "TokenUsage.h"
#include "common/Result.h"

#include <QDate>
#include <QList>
#include <QRegularExpression>
#include <QString>
#include <optional>

namespace sf {

/** Dollars per million tokens, per bucket. */
struct TokenRates
{
    double input = 0;
    double output = 0; // reasoning tokens are part of output and billed as output
    double cacheRead = 0;
    double cacheWrite5m = 0;
    double cacheWrite1h = 0;

    /** What @p usage costs at these rates, in US dollars. */
    double costOf(const TokenUsage &usage) const;
};

/** The rates of a request whose prompt is longer than a threshold: every token of such a request is billed at them. */
struct LongContextRates : TokenRates
{
    qint64 aboveInputTokens = 0; // input tokens of the request, cached ones included
};

/** Prices of one model (or family, by glob `pattern` over `PROVIDER:MODEL`) from a date on, in $ per million tokens. */
struct ModelPrice : TokenRates
{
    QString pattern;
    QDate effective;
    // Providers bill a request with a long prompt at other rates (2026: Anthropic's Haiku 5.5 above 100K input
    // tokens, OpenAI's GPT-5.4 and later above 272K); cost is asked per request, so the tier can be told apart.
    std::optional<LongContextRates> longContext;
    QString source; // the file it came from, for "where does this price come from?"
    QRegularExpression glob; // `pattern`, compiled once: every finished request looks its price up

    /** What @p usage (one request's) costs at these prices, in US dollars: at the long-context rates when its input
     * is above their threshold. */
    double costOf(const TokenUsage &usage) const;
};

/**
 * The pricing table: the one shipped in resources/pricing.json, overridden by the user's own
 * `pricing.json` in the application config directory (same shape; its entries win). For a model the
 * longest matching pattern wins, and of its entries the latest effective on the day asked about.
 * A model matching nothing has no price: costs are empty, never 0.
 */
class Pricing final
{
public:
    Pricing() = default;

    /** Parses a table; errors name the file, line and problem. */
    static Result<Pricing> fromJson(const QByteArray &json, const QString &fileName);
    /** The built-in table merged with the user's override file (whose errors are logged and skipped). */
    static const Pricing &shared();
    /** Where the user's override file lives. */
    static QString userFilePath();

    /** Cost in US dollars with the shared table; empty when the model has no price. */
    static std::optional<double> costFor(const QString &modelName, const TokenUsage &usage);

    std::optional<ModelPrice> priceFor(const QString &modelName, QDate on = QDate::currentDate()) const;
    std::optional<double> cost(const QString &modelName, const TokenUsage &usage,
                               QDate on = QDate::currentDate()) const;
    const QList<ModelPrice> &prices() const { return m_prices; }
    /** Lets `other`'s prices win: a model any of them matches is priced by them alone. */
    void overrideWith(const Pricing &other);

private:
    static const ModelPrice *bestOf(const QList<ModelPrice> &prices, const QString &modelName, QDate on);

    QList<ModelPrice> m_overrides;
    QList<ModelPrice> m_prices;
};

} // namespace sf
