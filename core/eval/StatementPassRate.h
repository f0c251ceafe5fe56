#pragma once

#include "RunAnalysis.h"

#include <QList>
#include <QString>
#include <optional>

namespace sf {

/// The provider importSkillCreatorWorkspace records on each item: its verifiers are the expectations of a
/// skill-creator grading.json, one statement each.
inline const QString kSkillCreatorProvider = QStringLiteral("skill-creator");

/// The key of run.json's parameters where an import keeps what the workspace's benchmark.json reports:
/// {"file": path, "pass_rate": {"<arm id>": run_summary.<configuration>.pass_rate.mean}}.
inline const QString kSkillCreatorBenchmarkKey = QStringLiteral("skill_creator_benchmark");

/// Whether @p result was graded statement by statement, as skill-creator's grader grades a run: an item imported
/// from a skill-creator workspace with at least one expectation. Skillforge's own runs grade a suite's expectations
/// with one judge score for all of them, so they have no per-statement outcome and are not counted here.
bool isStatementGraded(const ItemResult &result);

/// One model and arm over one split of a run whose items are graded by statements, counted both ways: Skillforge's
/// case pass rate (an item passes when every statement passed) and skill-creator's statement pass rate (each item's
/// passed statements over its statements, averaged over the items, as aggregate_benchmark.py's run_summary does).
/// The two differ whenever items pass some statements and fail others.
struct StatementPassRate
{
    QString model;
    QString arm;
    QString split;
    int items = 0;       ///< statement-graded items that ended without an error
    int itemsPassed = 0; ///< those whose every statement passed
    int statements = 0;  ///< over those items
    int statementsPassed = 0;
    double statementRate = 0; ///< the mean over items of passed / all statements; 0 without items
    /// run_summary's pass_rate mean for this arm in the imported benchmark.json (split "all" only).
    std::optional<double> benchmarkRate;
    QString benchmarkFile;

    double caseRate() const { return items ? double(itemsPassed) / items : 0.0; }
    /// Whether benchmark.json's figure is the one computed here. skill-creator's grader rounds each run's rate to
    /// two decimals and the aggregator rounds the mean to four, so figures within half a percentage point agree.
    /// True when there is no figure to check.
    bool agreesWithBenchmark() const;
};

/// The statement-graded model, arm and split combinations of @p run (those of @p split when given), in its summary's
/// order; empty when no item of the run was graded by statements.
QList<StatementPassRate> statementPassRates(const RunAnalysis &run, const QString &split = {});

/// Why a run's two pass rates differ, for a note or a tooltip.
QString statementPassRateExplanation();
/// "benchmark.json (…/iteration-1/benchmark.json) reports 70.0% for this arm; its statements give 73.3% here." when
/// the figures disagree, "" otherwise.
QString benchmarkMismatch(const StatementPassRate &rate);

} // namespace sf
