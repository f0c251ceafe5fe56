#pragma once

#include "trace/Trace.h"
#include "usage/CostTally.h"

#include <QStringList>
#include <optional>
#include <vector>

namespace sf {

class Pricing;

/// The PROVIDER:MODEL name the pricing table knows a model of a @p format trace by: Claude Code writes
/// "claude-opus-4-5-20251101" (anthropic), Codex "gpt-5-codex" (openai), inspect_ai "openai/gpt-4o".
QString pricingModelName(const QString &format, const QString &model);

/// What a trace cost by the pricing table, per turn and in total. A turn with usage whose model has no
/// price has no cost (never $0) and is counted as unpriced; each turn is priced on the day of its
/// timestamp.
struct TraceCost
{
    std::vector<std::vector<std::optional<double>>> turns;   ///< [thread][turn] in US dollars
    std::vector<std::vector<std::optional<double>>> running; ///< [thread][turn]: priced turns so far
    double totalUsd = 0;                                     ///< of the priced turns
    qint64 pricedTurns = 0;
    qint64 unpricedTurns = 0; ///< turns with usage whose model has no price
    QStringList unpricedModels;
    /// Each price used, as "MODEL: $… input, … per million tokens, from ORIGIN"; a priced turn's index into it is in
    /// sourceIndex[thread][turn] (-1 for a turn without a price), so every cost shown can say where it came from.
    QStringList priceSources;
    std::vector<std::vector<qint32>> sourceIndex;

    bool hasCost() const { return pricedTurns > 0; }
    std::optional<double> turn(int thread, int turn) const;
    std::optional<double> runningTotal(int thread, int turn) const;
    /// Where turn @p turn's price came from (an entry of priceSources), or an empty string.
    QString priceSource(int thread, int turn) const;

    static TraceCost of(const Trace &trace);
    static TraceCost of(const Trace &trace, const Pricing &pricing);
};

} // namespace sf
