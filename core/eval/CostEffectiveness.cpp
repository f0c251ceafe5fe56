#include "CostEffectiveness.h"

namespace sf {

namespace {
QJsonValue optionalJson(const std::optional<double> &value)
{
    return value ? QJsonValue(*value) : QJsonValue();
}
} // namespace

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
            {QStringLiteral("passes_per_usd"), optionalJson(passesPerDollar)}};
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
