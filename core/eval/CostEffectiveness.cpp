#include "CostEffectiveness.h"

namespace sf {

namespace {
QJsonValue optionalJson(const std::optional<double> &value)
{
    return value ? QJsonValue(*value) : QJsonValue();
}
} // namespace

QString ArmCostEffectiveness::costNote() const
{
    if (unpricedItems > 0 && unpricedItems == judged)
        return QStringLiteral("price unknown (%1)").arg(priceUnknownHint({model}));
    if (unpricedItems > 0)
        return QStringLiteral("partly priced: %1 of %2 items made requests without a price, so no total is shown (%3)")
            .arg(unpricedItems)
            .arg(judged)
            .arg(priceUnknownHint({model}));
    if (pricedFromTotals > 0)
        return QStringLiteral("priced afterwards: %1 of %2 items from their recorded requests, %3 from their token "
                              "totals (a tier chosen by the sum)")
            .arg(pricedAfterwards - pricedFromTotals)
            .arg(judged)
            .arg(pricedFromTotals);
    if (pricedAfterwards > 0)
        return QStringLiteral("priced afterwards: %1 of %2 items from their recorded requests")
            .arg(pricedAfterwards)
            .arg(judged);
    return {};
}

QJsonObject ArmCostEffectiveness::toJson() const
{
    return {{QStringLiteral("model"), model},
            {QStringLiteral("arm"), arm},
            {QStringLiteral("split"), split},
            {QStringLiteral("passes"), passes},
            {QStringLiteral("judged"), judged},
            {QStringLiteral("pass_rate"), passRate},
            {QStringLiteral("mean_cost_per_item_usd"), optionalJson(meanCostPerItem)},
            {QStringLiteral("total_cost_usd"), optionalJson(totalCost)},
            {QStringLiteral("cost_per_pass_usd"), optionalJson(costPerPass)},
            {QStringLiteral("passes_per_usd"), optionalJson(passesPerDollar)},
            {QStringLiteral("cost_note"), costNote()}};
}

QList<ArmCostEffectiveness> costEffectiveness(const RunSummary &summary, const QString &split)
{
    QList<ArmCostEffectiveness> entries;
    for (const ArmSummary &a : summary.arms) {
        if (a.split != split)
            continue;
        ArmCostEffectiveness e;
        e.model = a.model;
        e.arm = a.arm;
        e.split = a.split;
        e.passes = a.passRate.successes;
        e.judged = a.passRate.trials;
        e.passRate = a.passRate.rate;
        e.unpricedItems = a.unpricedItems;
        e.pricedAfterwards = a.pricedAfterwards;
        e.pricedFromTotals = a.pricedFromTotals;
        // The summary's cost distribution covers exactly the judged items, and only when each had a price.
        if (a.costUsd && a.costUsd->n > 0) {
            e.meanCostPerItem = a.costUsd->mean;
            e.totalCost = a.costUsd->mean * a.costUsd->n;
            if (e.passes > 0)
                e.costPerPass = *e.totalCost / e.passes;
            if (*e.totalCost > 0)
                e.passesPerDollar = e.passes / *e.totalCost;
        }
        entries.append(e);
    }
    return entries;
}

QJsonArray costEffectivenessJson(const QList<ArmCostEffectiveness> &entries)
{
    QJsonArray list;
    for (const ArmCostEffectiveness &e : entries)
        list.append(e.toJson());
    return list;
}

const ArmCostEffectiveness *findCostEffectiveness(const QList<ArmCostEffectiveness> &entries, const QString &model,
                                                  const QString &arm)
{
    for (const ArmCostEffectiveness &e : entries) {
        if (e.model == model && e.arm == arm)
            return &e;
    }
    return nullptr;
}

} // namespace sf
