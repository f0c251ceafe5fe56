#pragma once

#include "CaseMatrix.h"
#include "RunStore.h"
#include "RunSummary.h"
#include "common/LoadError.h"

#include <variant>

namespace sf {

/// A finished (or interrupted) run read for looking at: what was run, its results, their statistics and the
/// case matrix. The Compare view and every report read the same one, so they show the same numbers.
struct RunAnalysis
{
    QString dir;
    RunManifest manifest;
    QList<ItemResult> results;
    RunSummary summary;
    CaseMatrix matrix;

    /// The run named on its own (RunName.h's runName): the skill, its version and the run's date; where runs are
    /// listed together, runNames() tells them apart.
    QString label() const;
    /// The transcript of @p result as stored in the run folder, or an empty object when it is missing.
    QJsonObject transcript(const ItemResult &result) const;
};

/// Reads the run folder at @p runDir without changing it (a run still being written is fine).
std::variant<RunAnalysis, LoadError> analyzeRun(const QString &runDir);
/// The analysis of results already in memory.
RunAnalysis analyzeResults(QString dir, RunManifest manifest, QList<ItemResult> results);

} // namespace sf
