#include "CostTally.h"

#include "Pricing.h"

using namespace Qt::StringLiterals;

namespace sf {

void CostTally::add(const QString &model, std::optional<double> cost)
{
    if (cost) {
        pricedUsd += *cost;
        ++pricedRequests;
        return;
    }
    ++unpricedRequests;
    if (!unpricedModels.contains(model))
        unpricedModels.append(model);
}

void CostTally::addRequest(const Pricing &pricing, const QString &model, const TokenUsage &usage, const QDateTime &at)
{
    add(model, pricing.cost(model, usage, at));
}

CostTally &CostTally::operator+=(const CostTally &other)
{
    pricedUsd += other.pricedUsd;
    pricedRequests += other.pricedRequests;
    unpricedRequests += other.unpricedRequests;
    for (const QString &model : other.unpricedModels)
        if (!unpricedModels.contains(model))
            unpricedModels.append(model);
    return *this;
}

std::optional<double> CostTally::total() const
{
    if (unpricedRequests > 0)
        return std::nullopt;
    return pricedUsd;
}

QString CostTally::text() const
{
    if (unpricedRequests == 0)
        return formatUsd(pricedUsd);
    if (pricedRequests == 0)
        return u"price unknown (%1)"_s.arg(priceUnknownHint(unpricedModels));
    return u"%1 for %2 of %3 requests, the rest unpriced (%4)"_s.arg(formatUsd(pricedUsd))
        .arg(pricedRequests)
        .arg(requests())
        .arg(priceUnknownHint(unpricedModels));
}

QString formatUsd(double usd)
{
    return u'$' + QString::number(usd, 'f', usd < 1.0 ? 4 : 2);
}

QString priceUnknownHint(const QStringList &models)
{
    return u"no table prices %1; add a price to %2 or run `skillforge prices update`"_s.arg(models.join(u", "_s),
                                                                                            Pricing::userFilePath());
}

} // namespace sf
