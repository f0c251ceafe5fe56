#pragma once

#include "RunSummary.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <optional>

namespace sf {

/// When a lift is worth keeping a skill for. Settings (AppSettings, the CLI's flags), never hidden: every place
/// that shows a verdict also shows these.
struct VerdictThresholds
{
    /// Keep needs the lift above this (in pass-rate units, 0.05 = 5 points) and its interval above 0.
    double minLift = 0.0;
    /// Fewer paired cases than this and the verdict is "can't tell yet", whatever the interval says.
    int minPairs = 10;

    /// "keep: lift > +0.0 pp with its 95% interval above 0; at least 10 paired cases".
    QString describe() const;
    QJsonObject toJson() const;
};

/**
 * What to do with a skill for one model, from the paired statistics (held-out cases where there are any).
 * Keep: the lift is above the minimum and its interval lies above 0. Cut: no lift, or the skill hurts (its interval
 * lies below 0), or a lift below the minimum. Can't tell yet: too few pairs, or a lift whose interval spans 0, with
 * the further paired cases that would likely decide it.
 */
struct Verdict
{
    enum class Kind
    {
        Keep,
        Cut,
        CantTell
    };
    /// Why a cut: the reasons differ in what the user should do next.
    enum class CutReason
    {
        None,
        NoLift,
        Hurts,
        BelowMinimum
    };

    QString model;
    QString split; ///< the split it was decided on: "heldout" when the run has held-out cases, else "all"
    Kind kind = Kind::CantTell;
    CutReason cutReason = CutReason::None;
    double lift = 0;
    stats::Interval liftCi{-1, 1};
    int pairs = 0;
    int minPairs = 0;         ///< the threshold it was decided with
    bool tooFewPairs = false; ///< can't tell yet because pairs < minPairs
    /// Can't tell yet: how many more paired cases would likely decide it, if the pass rates stay as measured;
    /// nullopt when no number of cases would (a lift of 0), or beyond kMaxMorePairs.
    std::optional<int> morePairsNeeded;

    static constexpr int kMaxMorePairs = 100000;

    /// "keep", "cut" or "can't tell yet".
    QString word() const;
    /// "keep", "cut", "cant_tell" for machine-readable output.
    QString code() const;
    /// The verdict and why, in one sentence: "cut: the skill hurts (lift -40.0 pp, 95% interval [-62.1, -15.2])".
    QString reason() const;
    QJsonObject toJson() const;
};

/// The verdict on one comparison.
Verdict decideVerdict(const ArmComparison &comparison, const VerdictThresholds &thresholds);
/// One verdict per model of @p summary, on held-out cases where the model has any, in the summary's model order.
QList<Verdict> decideVerdicts(const RunSummary &summary, const VerdictThresholds &thresholds);
/// The verdicts as JSON, with the thresholds they were decided by.
QJsonObject verdictsJson(const QList<Verdict> &verdicts, const VerdictThresholds &thresholds);

/// The paired cases a table would need, in total, for its lift's interval to exclude 0 if its proportions held;
/// nullopt when none would (a lift of 0) or above @p cap.
std::optional<int> pairsToDecide(const stats::PairedTable &table, int cap);

} // namespace sf
