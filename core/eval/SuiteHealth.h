#pragma once

#include "Contamination.h"
#include "RunAnalysis.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace sf {

/**
 * Diagnostics of a test suite from one run, computed from the results (never guessed): checks that measure nothing
 * because they pass (or fail) in both arms every time, cases where the skill hurts, cases whose repeats disagree,
 * and items far out in time or tokens. Like skill-creator's benchmark analyst, with numbers.
 */
struct SuiteHealth
{
    /// One check (a verifier of a case, by name or type) that every judged item of every model and arm agreed on.
    struct Check
    {
        QString caseId;
        QString check;    ///< its name in the suite, or its type ("expected.contains" for a case's expected text)
        int items = 0;    ///< judged items that ran it, both arms
        QString type;     ///< "contains", "regex", ...
        QString evidence; ///< what one of its items left (the values a contains check looked for)
    };
    /// A case and model where the with-skill pass rate is below the baseline's.
    struct Harm
    {
        QString caseId;
        QString model;
        double baselineRate = 0;
        double withSkillRate = 0;
        int flipsToFail = 0; ///< paired repeats that passed without the skill and failed with it
    };
    /// A case, model and arm whose repeats disagree (some pass, some fail).
    struct Variance
    {
        QString caseId;
        QString model;
        QString arm;
        int passed = 0;
        int judged = 0;
    };
    /// An item far above its model and arm in latency or tokens: above Tukey's far-out fence (Q3 + 3 IQR), and
    /// both OutlierRatio times the median and an absolute gap above it (OutlierGapMs, OutlierGapTokens), so that
    /// 0.4 s against a median of 0.3 s is not one.
    struct Outlier
    {
        QString caseId;
        QString model;
        QString arm;
        int repeat = 1;
        QString metric; ///< "latency" or "tokens"
        double value = 0;
        double fence = 0;
        double median = 0;
    };

    static constexpr double OutlierRatio = 3;
    static constexpr double OutlierGapMs = 5000;
    static constexpr double OutlierGapTokens = 2000;

    QList<Check> alwaysPass;
    QList<Check> alwaysFail;
    QList<Harm> hurts;
    QList<Variance> highVariance;
    QList<Outlier> outliers;

    bool isEmpty() const;
    QJsonObject toJson() const;
};

/// One finding as every view lists it, in people's words (arms as "with skill" and "without skill", checks by what
/// they expect): what kind, which case, where (model and arm), and the figures.
struct SuiteHealthFinding
{
    QString kind; ///< "check always passes", "check always fails", "skill hurts", "high variance", "outlier"
    QString caseId;
    QString where;
    QString detail;
};
/// The findings in the order a reader should see them: harm first, then checks that measure nothing, variance,
/// outliers.
QList<SuiteHealthFinding> suiteHealthFindings(const SuiteHealth &health);
/// The contamination check as findings beside those: its summary, then each message without the skill that held
/// the skill's text ("local:qwen · without skill · repeat 2").
QList<SuiteHealthFinding> contaminationFindings(const ContaminationReport &report);
/// A check as a reader knows it: its name in the suite in quotes, or what it expects ("expects the reply to contain
/// \"__global__\"") when it has none of its own.
QString describeCheck(const SuiteHealth::Check &check);

/// The diagnostics of @p run's suite. Errors (provider faults) are left out of every figure.
SuiteHealth diagnoseSuite(const RunAnalysis &run);

} // namespace sf
