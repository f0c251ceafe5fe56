#pragma once

#include "RunStore.h"

#include <QString>
#include <variant>

namespace sf {

/// Writes a run in huggingface/upskill's batch layout into @p outDir: run_N/run_metadata.json and
/// run_N/run_result.json for each (model, arm, repeat) — upskill's "run" is one arm over the whole suite, passed
/// when more than half its cases pass (upskill v2) — plus batch_summary.json and results.csv. "" or an error.
QString exportUpskillBatch(const RunStore &store, const QString &outDir);

/// Writes skill-creator's benchmark.json for one model of the run (configurations with_skill / without_skill,
/// per-item results and expectations, mean/stddev/min/max summaries and the deltas; cases numbered as
/// skillCreatorEvals() numbers them, the run's id in metadata.skillforge_run_id). "" or an error. The whole workspace
/// is exportSkillCreatorWorkspace() in SkillCreatorWorkspace.h.
QString exportSkillCreatorBenchmark(const RunStore &store, const QString &model, const QString &path);

/// Reads an upskill batch folder into a new run under @p runsDir, at the finest grain the folder records. Where
/// upskill v2 kept each test's result (<eval|eval_MODEL|attempt_N>/<with-skill|baseline>/test_K/test_result.json),
/// each becomes one item of case "test_K", so the arms pair up case by case; the model comes from the folder name,
/// or from run_N when the batch ran one model. Otherwise (upskill 0.2.1) each run_N/run_result.json becomes as many
/// items as its assertions_total, assertions_passed of them passing, so the pass rates are the ones upskill printed;
/// each on a case of its own, as the files do not say which test was which, so nothing pairs and no paired
/// statistic is claimed (run.json's parameters say "granularity": "counts", "paired": false). A batch interrupted
/// part-way imports the runs that finished ("interrupted"). The new store, or an error naming the file.
std::variant<RunStore, QString> importUpskillBatch(const QString &batchDir, const QString &runsDir);
/// The upskill batches directly inside @p folder (upskill's runs/ folder holds one per `eval`), by name; empty when
/// @p folder is itself a batch or holds none.
QStringList upskillBatchesIn(const QString &folder);

} // namespace sf
