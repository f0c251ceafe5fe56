#pragma once

#include "RunAnalysis.h"
#include "Verdict.h"

#include <QList>
#include <QStringList>
#include <optional>

namespace sf {

/// The lift of every model in each of several runs (skill versions, teachers, models), oldest run first: a
/// model × run matrix of verdicts (each with its lift, interval and pairs), and the trend across a skill's
/// versions read along a row.
struct LiftAcrossRuns
{
    QList<const RunAnalysis *> runs; ///< by start time, oldest first
    QStringList models;              ///< in order of first appearance
    /// cells[model][run]; nullopt when the run did not measure the model.
    QList<QList<std::optional<Verdict>>> cells;
};

/// Each run's verdicts (held-out cases where the run has any) under @p thresholds.
LiftAcrossRuns liftAcrossRuns(QList<const RunAnalysis *> runs, const VerdictThresholds &thresholds);

} // namespace sf
