#pragma once

#include "eval/Contamination.h"
#include "eval/CostEffectiveness.h"
#include "eval/RunAnalysis.h"
#include "eval/StatementPassRate.h"
#include "eval/SuiteHealth.h"
#include "eval/Verdict.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

namespace sf::report {

/// A table as every format draws it: HTML, Markdown and PDF each render the same rows, so they say the same.
struct Table
{
    QString title;
    QStringList header;
    QList<QStringList> rows;
    QString note; ///< one sentence under the table: what the figures are
};

QString percent(double rate, int decimals = 1);
/// "[41.2–80.1]" for a 0..1 interval, in percent.
QString percentInterval(const stats::Interval &ci);
QString pValue(double p);
/// "1234 [1100–1380]" style mean or median with its interval, through @p format for each number.
QString withInterval(double value, const stats::Interval &ci, QString (*format)(double));
QString tokensText(double v);
QString costText(double v);
QString secondsText(double ms);

/// How many repeats each case had, as they ran ("3", or "1 for 4 cases, 3 for 7 cases"), with what the run asked for
/// where that differs.
QString repeatsText(const RunAnalysis &run);
/// The splits a run's summary has: "all", then "train" and "heldout" when any case is held out.
QStringList splitsOf(const RunAnalysis &run);
QString splitTitle(const QString &split);

/// What was measured, as label and value: skill, version, hash, suite, models and providers, the student's harness,
/// repeats, dates, app versions. Every run gives the same labels in the same order, so runs line up side by side.
QList<QPair<QString, QString>> measuredFacts(const RunAnalysis &run);

/// Who drove the student: "Claude Code 2.1.332 (pinned by setup: PyPI claude-agent-sdk 0.2.189)" for an agent-CLI
/// run (run.json's harness), "Skillforge's loop" otherwise.
QString harnessText(const RunManifest &manifest);
/// "8 of 10 (80.0% [49.0–94.3])": with-skill items that loaded the skill, with the Wilson interval.
QString skillLoadedText(const stats::Proportion &loaded);
/// A with-skill item that ended without an error and never loaded the skill (an agent CLI or the agentic loop
/// decided not to): its outcome says nothing about the skill's content.
bool isSilentBypass(const ItemResult &result);
/// The silent bypasses among the items of @p cell.
int silentBypasses(const RunAnalysis &run, const CaseCell &cell);
/// What a reader is told a silent bypass means, in one sentence.
QString silentBypassMeaning();

Table passRateTable(const RunAnalysis &run, const QString &split);
/// Per model and arm of a run graded by statements (an imported skill-creator workspace): Skillforge's case pass rate
/// beside skill-creator's statement pass rate, the statements counted, and benchmark.json's own figure where the
/// import kept one. No rows when no item of @p split was graded by statements: the reports leave it out then.
Table statementPassRateTable(const RunAnalysis &run, const QString &split);
/// "" when some run of @p runs has a price; otherwise the one sentence every report says instead of the cost charts,
/// columns and tables: "Cost: no price is known for local:gemma-3-270m (see Tools → Update Prices…)."
QString unknownPricesNote(const QList<const RunAnalysis *> &runs);
/// Tokens, cost and latency per item of each model and arm; without @p withCosts, tokens and latency alone.
Table costTable(const RunAnalysis &run, const QString &split, bool withCosts = true);
Table liftTable(const RunAnalysis &run, const QString &split);
/// Whether any with-skill arm of @p split recorded whether it loaded the skill (agent CLIs, the agentic loop).
bool hasActivation(const RunAnalysis &run, const QString &split);
/// Per model: its lift, and beside it how often the with-skill arm loaded the skill (k of n with the Wilson interval)
/// and how many of its items were silent bypasses.
Table activationTable(const RunAnalysis &run, const QString &split);
/// Every silent bypass (case, model, repeat, outcome), at most @p limit rows.
Table silentBypassTable(const RunAnalysis &run, int limit = 300);
/// Cost per passed case and passes per dollar for each model and arm.
Table costEffectivenessTable(const RunAnalysis &run, const QString &split);
/// The tables of one run's statistics, in the order every paged format (HTML, Markdown, PDF) shows them: verdicts,
/// then per split the pass rate, statement pass rate (where graded by statements), lift, skill activation (where
/// recorded), tokens and latency (with cost and cost-effectiveness when @p withCosts), then the silent bypasses.
QList<Table> statisticsTables(const RunAnalysis &run, const VerdictThresholds &verdicts, bool withCosts);
/// The suite's own health: harm, checks that measure nothing, variance and outliers, at most @p limit rows.
Table suiteHealthTable(const RunAnalysis &run, int limit = 300);
/// Whether the arms compared like with like: each arm's fixed-prompt hash and the skills it saw, then every baseline
/// message that held the skill's text; the summary in the note.
Table contaminationTable(const ContaminationReport &report);
/// One verdict per model (keep, cut, can't tell yet), the thresholds in the note.
Table verdictTable(const RunAnalysis &run, const VerdictThresholds &thresholds);
/// What changed per case and column from @p before to @p after (diffCaseMatrices), at most @p limit rows.
Table changesTable(const RunAnalysis &before, const RunAnalysis &after, int limit = 500);

/// Row indices of the case matrix with flipped cases first (most flips first), then the rest in suite order.
QList<int> matrixOrder(const CaseMatrix &matrix);
/// "2/2", "1/2, 1 error", "error" or "—".
QString cellText(const CaseCell &cell);
/// cellText() with the silent-bypass mark: "○" when no judged repeat loaded the skill, "◐" when some did not.
QString markedCellText(const RunAnalysis &run, const CaseCell &cell);
/// "model · arm" headings for the case matrix columns.
QString columnTitle(const CaseColumn &column);
/// The case matrix as a plain table (Markdown, PDF), flipped cases first, at most @p limit rows.
Table matrixTable(const RunAnalysis &run, int limit = 500);

/// "pass", "fail" or "error".
QString outcomeOf(const ItemResult &result);

/// The items whose details a report shows, in the order it shows them (items of flipped cases, then errors,
/// then failures, then passes), at most @p cap.
QList<int> detailItems(const RunAnalysis &run, int cap);

/// "Skillforge 0.1.0, 2026-11-30 04:00 UTC": who made the report and when.
QString generatedBy();

} // namespace sf::report
