#pragma once

#include "EvalResult.h"
#include "Statistics.h"

#include <QJsonObject>
#include <QList>
#include <QStringList>
#include <optional>

namespace sf {

/// One model and arm over one split: pass rate with its interval, and the cost of getting there.
struct ArmSummary
{
    QString model;
    QString arm;
    QString split; ///< "all", "train" or "heldout"
    int items = 0; ///< results, errors included
    int errors = 0;
    stats::Proportion passRate; ///< over the items that did not end in an error
    stats::Distribution tokens; ///< total tokens per item
    stats::Distribution latencyMs;
    std::optional<stats::Distribution> costUsd; ///< only when every item has a cost
    int unpricedItems = 0;    ///< judged items without a whole cost: some request of theirs has no price
    int pricedAfterwards = 0; ///< judged items priced after the run from what they recorded (RunRepricing.h)
    int pricedFromTotals = 0; ///< of those, from their token totals (no per-request record)
    std::optional<stats::Proportion> triggerRate; ///< agentic with_skill: items that loaded the skill
};

/// baseline against with_skill for one model over one split, paired on (case, repeat).
struct ArmComparison
{
    QString model;
    QString split;
    double lift = 0;               ///< with_skill pass rate minus baseline pass rate, over the pairs
    stats::Interval liftCi{-1, 1}; ///< Newcombe's paired score interval of the lift
    stats::PairedTable table;
    double pValue = 1;         ///< exact McNemar
    QStringList flippedToPass; ///< "case#repeat": failed without the skill, passed with it
    QStringList flippedToFail;
};

/// Everything the statistics say about a run.
struct RunSummary
{
    QList<ArmSummary> arms;
    QList<ArmComparison> comparisons;

    const ArmSummary *arm(const QString &model, const QString &arm, const QString &split = QStringLiteral("all")) const;
    const ArmComparison *comparison(const QString &model, const QString &split = QStringLiteral("all")) const;
    QJsonObject toJson() const;
};

/// Summarizes @p results: "all" always, and "train" and "heldout" apart when any result is held out.
RunSummary summarizeRun(const QList<ItemResult> &results, quint64 seed = 20260101);

/// A lift (a difference of pass rates, 0.5 = 50 points) as people read it everywhere: "+50.0 pp", "-12.5 pp", "0.0 pp".
QString liftInPoints(double lift);

} // namespace sf
