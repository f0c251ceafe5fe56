#pragma once

#include "EvalResult.h"

#include <QHash>
#include <optional>

namespace sf {

/**
 * What a run has spent, and what its next item may cost: the running total a run shows while it goes, and what a
 * spending cap decides on. The spend is every recorded item's priced requests (a partly priced item's priced part; an
 * item that ended in an error paid for its requests too). An item may cost as much as the dearest of the run's items
 * of its model and arm so far, else of its model, else a first guess: a cap decided on the mean would be passed by
 * every item dearer than the mean.
 */
class RunSpend final
{
public:
    void add(const ItemResult &result);

    double spentUsd() const { return m_spentUsd; }
    /// Items some request of which had no price: spentUsd() is then less than the run spent.
    int unpricedItems() const { return m_unpricedItems; }
    /// What the item @p key may cost: the dearest answered item of its model and arm, else of its model, else
    /// @p firstGuess (firstItemGuessUsd()).
    std::optional<double> mayCostUsd(const ItemKey &key, std::optional<double> firstGuess) const;
    /// The running total as a run's progress shows it: "$0.0123 spent", "$0.0123 spent of a $0.50 cap",
    /// "$0.0100 spent and 1 item unpriced", "spend unknown (2 items unpriced)".
    QString describe(std::optional<double> capUsd = std::nullopt) const;

private:
    double m_spentUsd = 0;
    int m_unpricedItems = 0;
    QHash<QString, double> m_mostByModelAndArm; ///< "model|arm" and "model": the dearest answered item so far
};

/// Before any item of @p model finished: one model call with @p promptTokens of prompt and a whole reply of
/// @p maxOutputTokens, at @p model's price now. Empty when no table prices it.
std::optional<double> firstItemGuessUsd(const QString &model, qint64 promptTokens, int maxOutputTokens);

} // namespace sf
