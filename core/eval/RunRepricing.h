#pragma once

#include "EvalResult.h"

#include <QList>
#include <QString>

namespace sf {

class Pricing;

/**
 * Prices the items of a run recorded before every request was priced as it came back (its items have usage and no
 * cost, and say nothing of unpriced requests). Each such item is priced from the requests its transcript recorded,
 * each at its own rates and tier on the day it ended (the item's day where the request has no time), and marked
 * CostPriced::Afterwards; where the transcript holds no per-request usage, from the item's token totals, marked
 * CostPriced::AfterwardsFromTotals (a tier is then chosen by the sum). An item of a model no table prices stays
 * without a cost, its requests counted as unpriced. Nothing is written: results.jsonl stays as it was recorded.
 * Returns how many items got a cost.
 */
int priceAfterwards(QList<ItemResult> &results, const QString &runDir, const Pricing &pricing);

/// Whether @p item was recorded before requests were priced one by one and has usage to price.
bool needsPricingAfterwards(const ItemResult &item);

} // namespace sf
