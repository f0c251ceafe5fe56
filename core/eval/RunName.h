#pragma once

#include "RunStore.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace sf {

/**
 * Names of runs for people. A run id ("20261202T062336Z-73cfd3") is for files and tooltips; a person tells runs
 * apart by what they measured. Every list of runs (the project sidebar, run choices, chart legends, job titles,
 * reports) names them here, so a run reads the same everywhere.
 */

/// How much a name says beyond what tells runs apart.
enum class RunNaming
{
    WithStart, ///< always when the run started: for lists, where a person looks for the one run they remember
    Short      ///< the start only where nothing else tells runs apart: for legends, where room is short
};

/// The names of @p runs, in their order: each run's skill and the skill's version; then, only among runs that would
/// otherwise share a name, what tells them apart, in this order until it does: the student models, the suite, who
/// drove the student, the skill's delivery mode; then when the run started (UTC, to the minute, to the second where
/// the minute is shared): "diffusers-cuda-rmsnorm v2 · gemma-3-270m (2026-11-22 10:00)". Runs alike in all of these
/// get "#2", "#3"… in list order. The run id only for a run that names no skill, suite or start.
QStringList runNames(const QList<RunManifest> &runs, RunNaming naming = RunNaming::WithStart);

/// What tells @p names apart, for a legend too narrow for whole names: without the words they all start with
/// ("rmsnorm v1", "rmsnorm v2" → "v1", "v2"); the whole names when one is all another starts with.
QStringList distinctParts(const QStringList &names);

/// One run named on its own: "diffusers-cuda-rmsnorm v2 (2026-11-22 10:00)", runNames() of it alone.
QString runName(const RunManifest &run);

/// Every fact that names @p run, one per line, for a tooltip: its id, skill and version, models, suite, who drove
/// the student, mode and start time.
QString runDescription(const RunManifest &run);

/// A recorded skill version as people read it: "v2" stays "v2"; a stored version's id ("20260304T094126Z-3f9a1c")
/// becomes "version of 2026-03-04 09:41".
QString skillVersionText(const QString &version);

} // namespace sf
