#pragma once

#include "TriggerRunner.h"
#include "eval/Statistics.h"

#include <QJsonObject>
#include <QMap>

namespace sf {

/// One query with one model: how often the candidate was loaded, and what was loaded instead.
struct QueryOutcome
{
    int queryIndex = 0;
    QString model;
    int trials = 0; ///< answered trials (failed requests are not counted)
    int errors = 0;
    int candidateLoads = 0;
    QMap<QString, int> others{}; ///< another skill's name (or "" for none) -> trials it took instead of the candidate
    double share() const { return trials ? double(candidateLoads) / trials : 0; }
    /// skill-creator's verdict: a should-trigger query passes when share >= 0.5, a should-not one when share < 0.5.
    bool passes(bool shouldTrigger) const { return trials && (shouldTrigger ? share() >= 0.5 : share() < 0.5); }
};

/// The rates of one model over all trials: recall (should-trigger trials that loaded the candidate), false-positive
/// rate (should-not trials that loaded it) and precision (loads that were wanted), each a Wilson 95% interval.
/// Trials of one query are not independent, so the intervals are narrower than the queries alone warrant; the
/// per-query table shows the spread.
struct ModelTriggerRates
{
    QString model;
    stats::Proportion recall{};
    stats::Proportion falsePositiveRate{};
    stats::Proportion precision{};
    int errors = 0;
    int queriesPassed = 0; ///< by the 0.5 threshold
    int queries = 0;
    double costUsd = 0;
    bool costKnown = true;
};

struct TriggerMeasurement
{
    QList<QueryOutcome> outcomes; ///< model-major, then query order
    QList<ModelTriggerRates> models;
};

TriggerMeasurement measureTrigger(const QList<TriggerQuery> &queries, const QString &candidate,
                                  const QStringList &models, const QList<TriggerTrial> &trials);

/// The measurement as JSON (for --json and the GUI's saved results).
QJsonObject triggerMeasurementJson(const TriggerMeasurement &measurement, const QList<TriggerQuery> &queries);

} // namespace sf
