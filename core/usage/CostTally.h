#pragma once

#include "TokenUsage.h"

#include <QDateTime>
#include <QString>
#include <QStringList>
#include <optional>

namespace sf {

class Pricing;

/**
 * What many requests cost, each priced on its own: its own day, its own tier (chosen by that request's prompt), its
 * own per-request fee. An item, a teacher's work and a whole run add their requests up here, never their tokens (a
 * sum of tokens crosses tiers no single request crossed, and pays a per-request fee once). A request no table prices
 * is counted apart with its model named, so a sum that misses some requests says so instead of passing for the whole.
 */
struct CostTally
{
    double pricedUsd = 0; ///< the priced requests, added up
    int pricedRequests = 0;
    int unpricedRequests = 0;
    QStringList unpricedModels; ///< each model of an unpriced request, once

    /** One request's cost as the model client priced it; empty: no table prices @p model. */
    void add(const QString &model, std::optional<double> cost);
    /** Prices one request of @p model that used @p usage and ended at @p at, with @p pricing. */
    void addRequest(const Pricing &pricing, const QString &model, const TokenUsage &usage, const QDateTime &at);
    CostTally &operator+=(const CostTally &other);

    int requests() const { return pricedRequests + unpricedRequests; }
    /** The whole cost: empty when any request has no price. No request at all costs $0. */
    std::optional<double> total() const;
    bool isPartlyPriced() const { return pricedRequests > 0 && unpricedRequests > 0; }

    /** "$0.0123"; "price unknown (no table prices M; …)"; "$0.0123 for 2 of 3 requests, the rest unpriced (…)". */
    QString text() const;
};

/** Dollars as people read them everywhere: $0.0123 below a dollar, $12.34 above. */
QString formatUsd(double usd);

/** What to say when no table prices @p models: which ones, and where a price can be added. */
QString priceUnknownHint(const QStringList &models);

} // namespace sf
