#pragma once

#include "RunSummary.h"

#include <QJsonArray>
#include <QList>
#include <optional>

namespace sf {

/// What a model and arm paid for what passed, over one split: the figures that say whether a small model with the
/// skill beats a large one without it for less. Only where every judged item had a price.
struct ArmCostEffectiveness
{
    QString model;
    QString arm;
    QString split;
    int passes = 0;
    int judged = 0;
    double passRate = 0;
    std::optional<double> meanCostPerItem; ///< USD; nullopt when some item had no price
    std::optional<double> totalCost;       ///< USD over the judged items
    std::optional<double> costPerPass;     ///< total cost / passes; nullopt without a pass or a price
    std::optional<double> passesPerDollar; ///< passes / total cost (= pass rate per dollar per item); nullopt at $0
    int unpricedItems = 0;                 ///< judged items some request of which has no price
    int pricedAfterwards = 0;              ///< judged items priced after the run (RunRepricing.h)
    int pricedFromTotals = 0;              ///< of those, from their token totals

    /// Why there is no cost, or how it was worked out when not as the run went: "price unknown (no table prices M;
    /// add a price to …)", "partly priced: 2 of 8 items …", "priced afterwards from each recorded request"; "" else.
    QString costNote() const;
    QJsonObject toJson() const;
};

/// One entry per model and arm of @p summary over @p split, in the summary's order.
QList<ArmCostEffectiveness> costEffectiveness(const RunSummary &summary, const QString &split = QStringLiteral("all"));
QJsonArray costEffectivenessJson(const QList<ArmCostEffectiveness> &entries);
/// The entry for @p model and @p arm, or nullptr.
const ArmCostEffectiveness *findCostEffectiveness(const QList<ArmCostEffectiveness> &entries, const QString &model,
                                                  const QString &arm);

} // namespace sf
