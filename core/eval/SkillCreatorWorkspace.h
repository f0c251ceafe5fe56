#pragma once

#include "RunStore.h"

#include <QJsonArray>
#include <QList>
#include <QString>
#include <variant>

namespace sf {

/// Whether @p dir is a skill-creator workspace (<skill>-workspace/ with iteration-N/ folders) or one of its
/// iteration folders (eval folders holding with_skill/ or without_skill/, or those holding eval folders).
bool isSkillCreatorWorkspace(const QString &dir);

/// Reads a skill-creator workspace (its newest iteration: highest number, then suffix, so iteration-5b is newer
/// than iteration-5) or one iteration folder into a new run under @p runsDir: each eval is a case, with_skill and
/// without_skill its arms (old_skill is left out: it is neither), each run-N/ (or run_N/) folder a repeat (an arm
/// folder without them is repeat 1). Evals may be laid out as <eval>/with_skill/ (skill-creator's layout, any eval
/// folder name) or with_skill/<eval>/. An item passes when every graded statement of its
/// grading.json passed: `expectations` (skill-creator) or `assertion_results` (other graders), each kept as a check
/// with its evidence, and the item's provider is kSkillCreatorProvider (statementPassRates counts them as skill-creator
/// does); timing.json gives its tokens and time. The model is benchmark.json's executor_model where there is one, and
/// its run_summary's pass rate per arm is kept in run.json's parameters (kSkillCreatorBenchmarkKey) to be checked
/// against the gradings. The new store, or an error naming the file.
std::variant<RunStore, QString> importSkillCreatorWorkspace(const QString &dir, const QString &runsDir);

/// A case of a run as skill-creator's files number it.
struct SkillCreatorEval
{
    QString caseId;
    int evalId = 0; ///< an integer, as skill-creator's evals.json, aggregator and viewer expect
    QString folder; ///< eval-<id>, or eval-<id>-<name> when the case's id is not that number
};

/// An item's verifier outcomes as skill-creator's graders list them, [{text, passed, evidence}] (the viewer needs exactly
/// these names), with how many passed in @p passed. A verifier's text is its name, or its type when it has none.
QJsonArray skillCreatorExpectations(const ItemResult &result, int *passed);

/// The cases @p model ran, in the run's order, numbered for skill-creator: ids that are all whole numbers keep them
/// (a run of skill-creator's own evals.json); others are numbered 1, 2, ... and their folders carry the id as a
/// descriptive name ("eval-3-warp-sum"), as skill-creator asks of eval folders.
QList<SkillCreatorEval> skillCreatorEvals(const QList<ItemResult> &results, const QString &model);

/// Writes @p model's items of the run as one iteration of the skill-creator workspace @p workspaceDir (made when
/// missing), so skill-creator's aggregator and viewer read it: iteration-N/benchmark.json, and per case
/// eval-<id>[-<name>]/eval_metadata.json {eval_id, eval_name, prompt, assertions} with
/// <with_skill|without_skill>/run-<repeat>/ holding grading.json (expectations with evidence, summary,
/// execution_metrics, timing), timing.json and outputs/ (final-answer.md, transcript.md, metrics.json and the
/// files the student's workspace held at the end). N is one past the workspace's highest iteration, unless an
/// iteration already holds an export of this run and model: that one is replaced, so a second export changes
/// nothing. The iteration is built in a temporary folder beside it and renamed into place, so a failed export
/// leaves the workspace as it was. "" with *iterationDir set, or an error naming the file.
QString exportSkillCreatorWorkspace(const RunStore &store, const QString &model, const QString &workspaceDir,
                                    QString *iterationDir = nullptr);

} // namespace sf
