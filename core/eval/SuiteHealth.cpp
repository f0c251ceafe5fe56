#include "SuiteHealth.h"

#include <QHash>
#include <QJsonArray>
#include <QMap>
#include <QSet>
#include <algorithm>

namespace sf {

namespace {

QString checkName(const VerifierOutcome &v)
{
    return v.name.isEmpty() ? v.type : v.name;
}

struct CheckTally
{
    int passed = 0;
    int failed = 0;
    QSet<QString> arms;
    QString type;
    QString evidence; ///< a passing item's, where one passed: it names every value looked for
};

/// "found all of: \"a\", \"b\"" -> "\"a\", \"b\"": the values a contains check's evidence names.
QString quotedValues(const QString &evidence)
{
    const qsizetype colon = evidence.indexOf(QStringLiteral(": \""));
    return colon < 0 ? QString() : evidence.mid(colon + 2);
}

} // namespace

bool SuiteHealth::isEmpty() const
{
    return alwaysPass.isEmpty() && alwaysFail.isEmpty() && hurts.isEmpty() && highVariance.isEmpty() &&
           outliers.isEmpty();
}

SuiteHealth diagnoseSuite(const RunAnalysis &run)
{
    SuiteHealth health;

    // Checks: per case and verifier, over every judged item that ran it (an unavailable check says nothing).
    QMap<QPair<QString, QString>, CheckTally> checks; // ordered: the report lists them by case, then check
    for (const ItemResult &r : run.results) {
        if (r.isError())
            continue;
        for (const VerifierOutcome &v : r.verifiers) {
            if (!v.available || !v.jobError.isEmpty())
                continue;
            CheckTally &t = checks[{r.key.caseId, checkName(v)}];
            ++(v.passed ? t.passed : t.failed);
            t.arms.insert(r.key.arm);
            t.type = v.type;
            if (t.evidence.isEmpty() || (v.passed && t.passed == 1))
                t.evidence = v.evidence;
        }
    }
    for (auto it = checks.cbegin(); it != checks.cend(); ++it) {
        // Only a check seen in both arms can say it measures nothing about the skill.
        if (!it->arms.contains(kBaselineArm) || !it->arms.contains(kWithSkillArm))
            continue;
        const SuiteHealth::Check check{it.key().first, it.key().second, it->passed + it->failed, it->type,
                                       it->evidence};
        if (it->failed == 0)
            health.alwaysPass.append(check);
        else if (it->passed == 0)
            health.alwaysFail.append(check);
    }

    // Harm and variance from the case matrix (the same cells the Compare view colours).
    const CaseMatrix &m = run.matrix;
    for (const CaseRow &row : m.rows) {
        for (qsizetype c = 0; c < m.columns.size(); ++c) {
            const CaseCell &cell = row.cells[c];
            if (cell.judged >= 2 && cell.passed > 0 && cell.passed < cell.judged)
                health.highVariance.append(
                    {row.caseId, m.columns[c].model, m.columns[c].arm, cell.passed, cell.judged});
            if (m.columns[c].arm != kWithSkillArm)
                continue;
            for (qsizetype b = 0; b < m.columns.size(); ++b) {
                if (m.columns[b].model != m.columns[c].model || m.columns[b].arm != kBaselineArm)
                    continue;
                const auto withSkill = cell.passRate();
                const auto baseline = row.cells[b].passRate();
                if (withSkill && baseline && *withSkill < *baseline) {
                    int flips = 0;
                    for (const ArmComparison &comparison : run.summary.comparisons) {
                        if (comparison.model != m.columns[c].model || comparison.split != u"all")
                            continue;
                        for (const QString &pair : comparison.flippedToFail)
                            flips += pair.section(u'#', 0, -2) == row.caseId ? 1 : 0;
                    }
                    health.hurts.append({row.caseId, m.columns[c].model, *baseline, *withSkill, flips});
                }
            }
        }
    }
    // The most uncertain first: a pass rate nearest one half.
    std::stable_sort(health.highVariance.begin(), health.highVariance.end(),
                     [](const SuiteHealth::Variance &a, const SuiteHealth::Variance &b) {
                         const auto spread = [](const SuiteHealth::Variance &v) {
                             const double p = double(v.passed) / v.judged;
                             return p * (1 - p);
                         };
                         return spread(a) > spread(b);
                     });
    std::stable_sort(health.hurts.begin(), health.hurts.end(),
                     [](const SuiteHealth::Harm &a, const SuiteHealth::Harm &b) {
                         return a.baselineRate - a.withSkillRate > b.baselineRate - b.withSkillRate;
                     });

    // Outliers per model and arm, in latency and in tokens.
    QHash<QString, QList<int>> groups;
    for (int i = 0; i < run.results.size(); ++i) {
        const ItemResult &r = run.results[i];
        if (!r.isError())
            groups[r.key.model + u'|' + r.key.arm].append(i);
    }
    QStringList keys = groups.keys();
    keys.sort();
    for (const QString &key : keys) {
        const QList<int> &items = groups[key];
        if (items.size() < 4)
            continue; // too few items for quartiles that mean anything
        for (const QString &metric : {QStringLiteral("latency"), QStringLiteral("tokens")}) {
            const auto valueOf = [&](int i) {
                const ItemResult &r = run.results[i];
                return metric == u"latency" ? double(r.latencyMs) : double(r.totalTokens());
            };
            QList<double> values;
            for (int i : items)
                values.append(valueOf(i));
            std::sort(values.begin(), values.end());
            const double q1 = stats::quantileSorted(values, 0.25);
            const double q3 = stats::quantileSorted(values, 0.75);
            const double fence = q3 + 3 * (q3 - q1);
            const double median = stats::quantileSorted(values, 0.5);
            // Far out by the fence, and by enough to matter: a ratio alone flags 0.4 s against 0.3 s, a gap alone a
            // minute against fifty seconds.
            const double gap = metric == u"latency" ? SuiteHealth::OutlierGapMs : SuiteHealth::OutlierGapTokens;
            for (int i : items) {
                const double v = valueOf(i);
                if (v > fence && v > SuiteHealth::OutlierRatio * median && v - median > gap) {
                    const ItemResult &r = run.results[i];
                    health.outliers.append(
                        {r.key.caseId, r.key.model, r.key.arm, r.key.repeat, metric, v, fence, median});
                }
            }
        }
    }
    return health;
}

QString describeCheck(const SuiteHealth::Check &check)
{
    // A name the suite's author gave is theirs to read; the reader's own names ("expected.contains") and bare types
    // are said as what the check expects.
    const bool named = check.check != check.type && check.check != u"expected.contains";
    if (named)
        return QStringLiteral("\"%1\"").arg(check.check);
    const QString values = quotedValues(check.evidence);
    if (check.type == u"contains")
        return values.isEmpty() ? QStringLiteral("expects the reply to contain the case's expected text")
                                : QStringLiteral("expects the reply to contain %1").arg(values);
    if (check.type == u"not_contains")
        return values.isEmpty() ? QStringLiteral("expects the reply to leave out the case's text")
                                : QStringLiteral("expects the reply not to contain %1").arg(values);
    static const QHash<QString, QString> byType{
        {QStringLiteral("regex"), QStringLiteral("expects the reply to match a pattern")},
        {QStringLiteral("json_valid"), QStringLiteral("expects valid JSON")},
        {QStringLiteral("file_exists"), QStringLiteral("expects a file in the workspace")},
        {QStringLiteral("file_contains"), QStringLiteral("expects a file with given text")},
        {QStringLiteral("command"), QStringLiteral("expects a command to succeed")},
        {QStringLiteral("llm_judge"), QStringLiteral("the judge's rubric")},
        {QStringLiteral("cuda_kernel"), QStringLiteral("expects a correct CUDA kernel")}};
    return byType.value(check.type, QStringLiteral("the %1 check").arg(check.check));
}

QList<SuiteHealthFinding> suiteHealthFindings(const SuiteHealth &health)
{
    const auto percent = [](double rate) -> QString { return QString::number(rate * 100, 'f', 0) + u'%'; };
    const QString everywhere = QStringLiteral("every model, with and without the skill");
    QList<SuiteHealthFinding> findings;
    for (const SuiteHealth::Harm &h : health.hurts)
        findings.append({QStringLiteral("skill hurts"), h.caseId, h.model,
                         QStringLiteral("pass rate %1 without the skill, %2 with it; %3 paired repeats flipped to fail")
                             .arg(percent(h.baselineRate), percent(h.withSkillRate))
                             .arg(h.flipsToFail)});
    for (const SuiteHealth::Check &c : health.alwaysPass)
        findings.append({QStringLiteral("check always passes"), c.caseId, everywhere,
                         QStringLiteral("%1 — passed on all %2 items, with and without the skill: it measures nothing")
                             .arg(describeCheck(c))
                             .arg(c.items)});
    for (const SuiteHealth::Check &c : health.alwaysFail)
        findings.append({QStringLiteral("check always fails"), c.caseId, everywhere,
                         QStringLiteral("%1 — failed on all %2 items, with and without the skill: too hard, or broken")
                             .arg(describeCheck(c))
                             .arg(c.items)});
    for (const SuiteHealth::Variance &v : health.highVariance)
        findings.append({QStringLiteral("high variance"), v.caseId, v.model + QStringLiteral(" · ") + armLabel(v.arm),
                         QStringLiteral("passed %1 of %2 repeats").arg(v.passed).arg(v.judged)});
    for (const SuiteHealth::Outlier &o : health.outliers) {
        const bool latency = o.metric == u"latency";
        const auto value = [latency](double v) -> QString {
            if (latency)
                return QString::number(v / 1000, 'f', 1) + QStringLiteral(" s");
            return QString::number(qRound64(v));
        };
        findings.append({QStringLiteral("outlier"), o.caseId,
                         QStringLiteral("%1 · %2 · repeat %3").arg(o.model, armLabel(o.arm)).arg(o.repeat),
                         QStringLiteral("%1 %2, %3× the median of %4")
                             .arg(latency ? QStringLiteral("latency") : QStringLiteral("tokens"), value(o.value),
                                  QString::number(o.median > 0 ? o.value / o.median : 0, 'f', 0), value(o.median))});
    }
    return findings;
}

QList<SuiteHealthFinding> contaminationFindings(const ContaminationReport &report)
{
    QList<SuiteHealthFinding> findings{{QStringLiteral("contamination check"), QString(),
                                        QStringLiteral("with and without the skill"), report.summary()}};
    for (const ContaminationReport::Leak &leak : report.leaks)
        findings.append({QStringLiteral("skill text without the skill"), leak.caseId(), leak.itemLabel(),
                         QStringLiteral("%1: \"%2\"").arg(leak.where, leak.line)});
    return findings;
}

QJsonObject SuiteHealth::toJson() const
{
    const auto checksJson = [](const QList<Check> &list) {
        QJsonArray array;
        for (const Check &c : list)
            array.append(QJsonObject{{QStringLiteral("case"), c.caseId},
                                     {QStringLiteral("check"), c.check},
                                     {QStringLiteral("items"), c.items}});
        return array;
    };
    QJsonArray harm;
    for (const Harm &h : hurts)
        harm.append(QJsonObject{{QStringLiteral("case"), h.caseId},
                                {QStringLiteral("model"), h.model},
                                {QStringLiteral("baseline_pass_rate"), h.baselineRate},
                                {QStringLiteral("with_skill_pass_rate"), h.withSkillRate},
                                {QStringLiteral("flips_to_fail"), h.flipsToFail}});
    QJsonArray variance;
    for (const Variance &v : highVariance)
        variance.append(QJsonObject{{QStringLiteral("case"), v.caseId},
                                    {QStringLiteral("model"), v.model},
                                    {QStringLiteral("arm"), v.arm},
                                    {QStringLiteral("passed"), v.passed},
                                    {QStringLiteral("judged"), v.judged}});
    QJsonArray far;
    for (const Outlier &o : outliers)
        far.append(QJsonObject{{QStringLiteral("case"), o.caseId},
                               {QStringLiteral("model"), o.model},
                               {QStringLiteral("arm"), o.arm},
                               {QStringLiteral("repeat"), o.repeat},
                               {QStringLiteral("metric"), o.metric},
                               {QStringLiteral("value"), o.value},
                               {QStringLiteral("fence"), o.fence},
                               {QStringLiteral("median"), o.median}});
    return {{QStringLiteral("checks_always_pass"), checksJson(alwaysPass)},
            {QStringLiteral("checks_always_fail"), checksJson(alwaysFail)},
            {QStringLiteral("cases_where_the_skill_hurts"), harm},
            {QStringLiteral("high_variance_cases"), variance},
            {QStringLiteral("outliers"), far}};
}

} // namespace sf
