#include "Report.h"
#include "ReportTables_p.h"
#include "agents/Harness.h"
#include "eval/RunSummary.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonValue>
#include <QMap>
#include <QSet>
#include <algorithm>

namespace sf::report {

QString percent(double rate, int decimals)
{
    return QString::number(rate * 100, 'f', decimals) + u'%';
}

QString percentInterval(const stats::Interval &ci)
{
    return QStringLiteral("[%1–%2]").arg(QString::number(ci.low * 100, 'f', 1), QString::number(ci.high * 100, 'f', 1));
}

QString pValue(double p)
{
    if (p < 0.001)
        return QStringLiteral("< 0.001");
    return QString::number(p, 'f', 3);
}

QString withInterval(double value, const stats::Interval &ci, QString (*format)(double))
{
    return QStringLiteral("%1 [%2–%3]").arg(format(value), format(ci.low), format(ci.high));
}

QString tokensText(double v)
{
    return QString::number(qRound64(v));
}

QString costText(double v)
{
    return u'$' + QString::number(v, 'f', v < 0.01 ? 5 : 3);
}

QString secondsText(double ms)
{
    return QString::number(ms / 1000, 'f', 2) + QStringLiteral(" s");
}

QString repeatsText(const RunAnalysis &run)
{
    // What ran, not only what the run asked for: a case's own "repeats" wins over the run's unless the run said
    // otherwise, so one number would misstate the cost and the sample size.
    QMap<int, int> casesByRepeats;
    for (const CaseRow &row : run.matrix.rows) {
        qsizetype repeats = 0;
        for (const CaseCell &cell : row.cells)
            repeats = std::max(repeats, cell.items.size());
        ++casesByRepeats[int(repeats)];
    }
    QStringList counts;
    for (auto it = casesByRepeats.begin(); it != casesByRepeats.end(); ++it)
        counts.append(QStringLiteral("%1 for %2 %3")
                          .arg(it.key())
                          .arg(it.value())
                          .arg(it.value() == 1 ? QStringLiteral("case") : QStringLiteral("cases")));
    QString ran = casesByRepeats.size() == 1 ? QString::number(casesByRepeats.firstKey()) : counts.join(u", ");
    if (casesByRepeats.isEmpty())
        ran = QStringLiteral("(none ran)");

    const QJsonObject &parameters = run.manifest.parameters;
    const QJsonValue asked = parameters.value(QStringLiteral("runs"));
    if (!asked.isDouble())
        return ran;
    const bool forEveryCase = parameters.value(QStringLiteral("runs_for_every_case")).toBool();
    if (casesByRepeats.size() == 1 && casesByRepeats.firstKey() == asked.toInt())
        return ran;
    return QStringLiteral("%1 (the run asked for %2%3)")
        .arg(ran)
        .arg(asked.toInt())
        .arg(forEveryCase ? QStringLiteral(" for every case") : QStringLiteral("; a case's own repeats win"));
}

QStringList splitsOf(const RunAnalysis &run)
{
    QStringList splits{QStringLiteral("all")};
    for (const QString &split : {QStringLiteral("train"), QStringLiteral("heldout")}) {
        if (std::any_of(run.summary.arms.begin(), run.summary.arms.end(),
                        [&](const ArmSummary &a) { return a.split == split; }))
            splits.append(split);
    }
    return splits;
}

QString splitTitle(const QString &split)
{
    if (split == u"train")
        return QStringLiteral("train cases");
    if (split == u"heldout")
        return QStringLiteral("held-out cases");
    return QStringLiteral("all cases");
}

QList<QPair<QString, QString>> measuredFacts(const RunAnalysis &run)
{
    const RunManifest &m = run.manifest;
    QList<QPair<QString, QString>> facts;
    facts.append({QStringLiteral("Skill"), m.skillName});
    facts.append({QStringLiteral("Skill version"),
                  m.skillVersion.isEmpty() ? QStringLiteral("(not snapshotted)") : m.skillVersion});
    facts.append({QStringLiteral("Skill content hash"), m.skillHash});
    facts.append({QStringLiteral("Test suite"), m.suitePath});
    facts.append({QStringLiteral("Suite hash"), m.suiteHash});
    QStringList models;
    for (const RunModel &model : m.models) {
        QString line = QStringLiteral("%1 (provider %2").arg(model.name, model.provider);
        if (!model.resolvedId.isEmpty())
            line += QStringLiteral(", resolved as %1").arg(model.resolvedId);
        models.append(line + u')');
    }
    facts.append({QStringLiteral("Models"), models.join(QStringLiteral("; "))});
    facts.append({QStringLiteral("Prices"), runPricesText(m)});
    int heldOut = 0;
    for (const CaseRow &row : run.matrix.rows)
        heldOut += row.split == u"heldout" ? 1 : 0;
    facts.append({QStringLiteral("Cases"), QStringLiteral("%1 (%2 train, %3 held out)")
                                               .arg(run.matrix.rows.size())
                                               .arg(run.matrix.rows.size() - heldOut)
                                               .arg(heldOut)});
    facts.append({QStringLiteral("Repeats per case"), repeatsText(run)});
    facts.append({QStringLiteral("Student harness"), harnessText(m)});
    // An agent CLI finds the skill itself; the loop's mode says nothing about such a run.
    const QString harness = m.harness.value(QStringLiteral("name")).toString();
    const QString mode = m.parameters.value(QStringLiteral("mode")).toString();
    if (Harness::isAgentCli(harness))
        facts.append(
            {QStringLiteral("Skill delivery"),
             QStringLiteral("installed in the with-skill arm's workspace (%1) for %2 to discover")
                 .arg(harness == Harness::Codex ? QStringLiteral(".agents/skills/") : QStringLiteral(".claude/skills/"),
                      Harness::label(harness))});
    else
        facts.append({QStringLiteral("Skill delivery"), mode.isEmpty() ? QStringLiteral("(not recorded)") : mode});
    facts.append({QStringLiteral("Items"),
                  QStringLiteral("%1 finished of %2 planned").arg(run.results.size()).arg(m.plannedItems)});
    facts.append({QStringLiteral("Run"), QStringLiteral("%1 (%2)").arg(m.runId, m.status)});
    // An imported run was made by another tool, which records neither Skillforge's version nor always an end.
    const QString importedFrom = m.parameters.value(QStringLiteral("imported_from")).toString();
    const QString madeBy = m.parameters.value(QStringLiteral("format")).toString();
    facts.append({QStringLiteral("Started"), m.startedAt.isEmpty() ? QStringLiteral("(not recorded)") : m.startedAt});
    facts.append({QStringLiteral("Finished"), !m.finishedAt.isEmpty() ? m.finishedAt
                                              : importedFrom.isEmpty()
                                                  ? QStringLiteral("(not finished)")
                                                  : QStringLiteral("(not recorded by %1)").arg(madeBy)});
    if (importedFrom.isEmpty())
        facts.append(
            {QStringLiteral("Run made with"), QStringLiteral("Skillforge %1 on %2").arg(m.appVersion, m.host)});
    else
        facts.append({QStringLiteral("Run made with"),
                      QStringLiteral("%1, imported from %2")
                          .arg(madeBy.isEmpty() ? QStringLiteral("another tool") : madeBy, importedFrom)});
    facts.append({QStringLiteral("Report made with"), generatedBy()});
    return facts;
}

QString harnessText(const RunManifest &manifest)
{
    const QString name = manifest.harness.value(QStringLiteral("name")).toString();
    if (name.isEmpty())
        return Harness::label(Harness::Builtin);
    QString text = Harness::label(name);
    if (const QString version = manifest.harness.value(QStringLiteral("version")).toString(); !version.isEmpty())
        text += u' ' + version;
    if (const QString source = manifest.harness.value(QStringLiteral("source")).toString(); !source.isEmpty())
        text += QStringLiteral(" (%1)").arg(source);
    return text;
}

QString skillLoadedText(const stats::Proportion &loaded)
{
    return QStringLiteral("%1 of %2 (%3 %4)")
        .arg(loaded.successes)
        .arg(loaded.trials)
        .arg(percent(loaded.rate), percentInterval(loaded.ci));
}

bool isSilentBypass(const ItemResult &result)
{
    return result.key.arm == kWithSkillArm && !result.isError() && result.skillLoaded && !*result.skillLoaded;
}

int silentBypasses(const RunAnalysis &run, const CaseCell &cell)
{
    return int(std::count_if(cell.items.begin(), cell.items.end(),
                             [&](int item) { return isSilentBypass(run.results[item]); }));
}

QString silentBypassMeaning()
{
    return QStringLiteral("A silent bypass is a with-skill item that never loaded the skill: its outcome says nothing "
                          "about the skill's content.");
}

Table passRateTable(const RunAnalysis &run, const QString &split)
{
    Table table;
    table.title = QStringLiteral("Pass rate, %1").arg(splitTitle(split));
    table.header = {QStringLiteral("Model"),       QStringLiteral("Arm"),    QStringLiteral("Items"),
                    QStringLiteral("Errors"),      QStringLiteral("Passed"), QStringLiteral("Pass rate"),
                    QStringLiteral("95% interval")};
    bool trigger = false;
    for (const ArmSummary &a : run.summary.arms)
        trigger = trigger || (a.split == split && a.triggerRate);
    if (trigger)
        table.header.append(QStringLiteral("Skill loaded (items)"));
    for (const ArmSummary &a : run.summary.arms) {
        if (a.split != split)
            continue;
        QStringList row{a.model,
                        armLabel(a.arm),
                        QString::number(a.items),
                        QString::number(a.errors),
                        QStringLiteral("%1 of %2").arg(a.passRate.successes).arg(a.passRate.trials),
                        a.passRate.trials ? percent(a.passRate.rate) : QStringLiteral("—"),
                        a.passRate.trials ? percentInterval(a.passRate.ci) : QStringLiteral("—")};
        if (trigger)
            row.append(a.triggerRate ? QStringLiteral("%1 of %2 (%3)")
                                           .arg(a.triggerRate->successes)
                                           .arg(a.triggerRate->trials)
                                           .arg(percent(a.triggerRate->rate))
                                     : QString());
        table.rows.append(row);
    }
    table.note = QStringLiteral("Pass rate over the items that ended without an error; Wilson 95% score intervals.");
    if (trigger)
        table.note += QStringLiteral(" Skill loaded: the with-skill items, of those that ended without an error, in "
                                     "which the student loaded the skill.");
    return table;
}

Table statementPassRateTable(const RunAnalysis &run, const QString &split)
{
    Table table;
    table.title =
        QStringLiteral("Two pass rates: Skillforge's cases and skill-creator's statements, %1").arg(splitTitle(split));
    const QList<StatementPassRate> rates = statementPassRates(run, split);
    const bool benchmark =
        std::any_of(rates.begin(), rates.end(), [](const StatementPassRate &r) { return r.benchmarkRate.has_value(); });
    table.header = {QStringLiteral("Model"), QStringLiteral("Arm"), QStringLiteral("Case pass rate (Skillforge's)"),
                    QStringLiteral("Statements passed"), QStringLiteral("Statement pass rate (skill-creator's)")};
    if (benchmark)
        table.header.append(QStringLiteral("benchmark.json says"));
    QStringList mismatches;
    for (const StatementPassRate &r : rates) {
        QStringList row{
            r.model, armLabel(r.arm),
            QStringLiteral("%1 of %2 items (%3)").arg(r.itemsPassed).arg(r.items).arg(percent(r.caseRate())),
            QStringLiteral("%1 of %2").arg(r.statementsPassed).arg(r.statements),
            r.items ? percent(r.statementRate) : QStringLiteral("—")};
        if (benchmark)
            row.append(!r.benchmarkRate          ? QStringLiteral("—")
                       : r.agreesWithBenchmark() ? QStringLiteral("%1 (the same)").arg(percent(*r.benchmarkRate))
                                                 : QStringLiteral("%1 (differs)").arg(percent(*r.benchmarkRate)));
        if (const QString mismatch = benchmarkMismatch(r); !mismatch.isEmpty())
            mismatches.append(mismatch + u'.');
        table.rows.append(row);
    }
    table.note = statementPassRateExplanation();
    if (!mismatches.isEmpty())
        table.note += u' ' + mismatches.join(u' ');
    return table;
}

QString unknownPricesNote(const QList<const RunAnalysis *> &runs)
{
    const auto priced = [](const ItemResult &r) { return r.costUsd.has_value(); };
    if (std::any_of(runs.begin(), runs.end(),
                    [&](const RunAnalysis *r) { return std::any_of(r->results.begin(), r->results.end(), priced); }))
        return {};
    QStringList models;
    for (const RunAnalysis *r : runs) {
        for (const ArmSummary &a : r->summary.arms) {
            if (!models.contains(a.model))
                models.append(a.model);
        }
    }
    return QStringLiteral("Cost: %1 (in the app: Tools → Update Prices…).")
        .arg(priceUnknownHint(models.isEmpty() ? QStringList{QStringLiteral("any model")} : models));
}

Table costTable(const RunAnalysis &run, const QString &split, bool withCosts)
{
    Table table;
    table.title = withCosts ? QStringLiteral("Tokens, cost and latency per item, %1").arg(splitTitle(split))
                            : QStringLiteral("Tokens and latency per item, %1").arg(splitTitle(split));
    table.header = {QStringLiteral("Model"), QStringLiteral("Arm"), QStringLiteral("Tokens mean"),
                    QStringLiteral("Tokens median")};
    if (withCosts)
        table.header << QStringLiteral("Cost mean") << QStringLiteral("Cost median");
    table.header << QStringLiteral("Latency mean") << QStringLiteral("Latency median");
    for (const ArmSummary &a : run.summary.arms) {
        if (a.split != split)
            continue;
        QStringList row{a.model, armLabel(a.arm), withInterval(a.tokens.mean, a.tokens.meanCi, tokensText),
                        withInterval(a.tokens.median, a.tokens.medianCi, tokensText)};
        if (withCosts && a.costUsd) {
            row << withInterval(a.costUsd->mean, a.costUsd->meanCi, costText)
                << withInterval(a.costUsd->median, a.costUsd->medianCi, costText);
        } else if (withCosts) {
            // Some items made a request no table prices: a mean of the rest would pass for the whole.
            const QString why = a.unpricedItems > 0 && a.unpricedItems < a.passRate.trials
                                    ? QStringLiteral("(partly priced)")
                                    : QStringLiteral("(price unknown)");
            row << why << why;
        }
        row << withInterval(a.latencyMs.mean, a.latencyMs.meanCi, secondsText)
            << withInterval(a.latencyMs.median, a.latencyMs.medianCi, secondsText);
        table.rows.append(row);
    }
    table.note = QStringLiteral("Tokens are input plus output. Brackets: 95% percentile bootstrap intervals "
                                "(seeded, so the same run gives the same report).");
    if (withCosts)
        table.note += QStringLiteral(" Cost only where every item had a price.");
    return table;
}

namespace {

QString flipList(const QStringList &pairs)
{
    if (pairs.isEmpty())
        return QStringLiteral("0");
    QStringList shown = pairs.mid(0, 8);
    QString text = QStringLiteral("%1: %2").arg(pairs.size()).arg(shown.join(QStringLiteral(", ")));
    if (pairs.size() > shown.size())
        text += QStringLiteral(" and %1 more").arg(pairs.size() - shown.size());
    return text;
}

} // namespace

Table liftTable(const RunAnalysis &run, const QString &split)
{
    Table table;
    table.title = QStringLiteral("Lift from the skill, %1").arg(splitTitle(split));
    table.header = {QStringLiteral("Model"),           QStringLiteral("Pairs"),          QStringLiteral("Lift"),
                    QStringLiteral("p (McNemar)"),     QStringLiteral("Both pass"),      QStringLiteral("Both fail"),
                    QStringLiteral("Flipped to pass"), QStringLiteral("Flipped to fail")};
    for (const ArmComparison &c : run.summary.comparisons) {
        if (c.split != split)
            continue;
        table.rows.append({c.model, QString::number(c.table.pairs()), liftInPoints(c.lift), pValue(c.pValue),
                           QString::number(c.table.bothPass), QString::number(c.table.bothFail),
                           flipList(c.flippedToPass), flipList(c.flippedToFail)});
    }
    table.note =
        QStringLiteral("Pairs are (case, repeat) judged in both arms. Lift: the pass rate with the skill minus "
                       "the one without, over those pairs; p: two-sided exact McNemar test of the flipped pairs.");
    return table;
}

bool hasActivation(const RunAnalysis &run, const QString &split)
{
    return std::any_of(run.summary.arms.begin(), run.summary.arms.end(), [&](const ArmSummary &a) {
        return a.split == split && a.arm == kWithSkillArm && a.triggerRate;
    });
}

Table activationTable(const RunAnalysis &run, const QString &split)
{
    // Beside the lift, whether the skill was loaded at all: a lift measured on items that never read the skill says
    // nothing about its content.
    Table table;
    table.title = QStringLiteral("Skill activation beside the lift, %1").arg(splitTitle(split));
    table.header = {QStringLiteral("Model"), QStringLiteral("Lift"), QStringLiteral("Skill loaded (with skill)"),
                    QStringLiteral("Silent bypasses")};
    for (const ArmComparison &c : run.summary.comparisons) {
        if (c.split != split)
            continue;
        const ArmSummary *withSkill = run.summary.arm(c.model, kWithSkillArm, split);
        if (!withSkill || !withSkill->triggerRate)
            continue;
        const stats::Proportion &loaded = *withSkill->triggerRate;
        table.rows.append({c.model, liftInPoints(c.lift), skillLoadedText(loaded),
                           QString::number(loaded.trials - loaded.successes)});
    }
    table.note = QStringLiteral("Skill loaded: with-skill items that ended without an error and loaded the skill, with "
                                "the Wilson 95% interval. ") +
                 silentBypassMeaning();
    return table;
}

Table silentBypassTable(const RunAnalysis &run, int limit)
{
    Table table;
    table.title = QStringLiteral("Silent bypasses");
    table.header = {QStringLiteral("Case"), QStringLiteral("Model"), QStringLiteral("Repeat"),
                    QStringLiteral("Outcome")};
    int total = 0;
    for (const ItemResult &r : run.results) {
        if (!isSilentBypass(r))
            continue;
        ++total;
        if (table.rows.size() < limit)
            table.rows.append({r.key.caseId, r.key.model, QString::number(r.key.repeat), outcomeOf(r)});
    }
    table.note = silentBypassMeaning();
    if (total > limit)
        table.note += QStringLiteral(" The first %1 of %2 are listed.").arg(limit).arg(total);
    return table;
}

Table costEffectivenessTable(const RunAnalysis &run, const QString &split)
{
    Table table;
    table.title = QStringLiteral("Cost-effectiveness, %1").arg(splitTitle(split));
    table.header = {QStringLiteral("Model"),         QStringLiteral("Arm"),           QStringLiteral("Pass rate"),
                    QStringLiteral("Cost per item"), QStringLiteral("Cost per pass"), QStringLiteral("Passes per $1")};
    const QString unknown = QStringLiteral("(price unknown)");
    const QList<ArmCostEffectiveness> entries = costEffectiveness(run.summary, split);
    for (const ArmCostEffectiveness &e : entries) {
        table.rows.append(
            {e.model, armLabel(e.arm), e.judged ? percent(e.passRate) : QStringLiteral("—"),
             e.meanCostPerItem ? costText(*e.meanCostPerItem) : unknown,
             e.costPerPass ? costText(*e.costPerPass) : (e.totalCost ? QStringLiteral("no pass") : unknown),
             e.passesPerDollar ? QString::number(*e.passesPerDollar, 'f', 1)
             : e.totalCost     ? QStringLiteral("free")
                               : unknown});
    }
    table.note = QStringLiteral("Cost per pass: what the arm spent on its judged items over the items that passed; "
                                "passes per $1 is its inverse (the pass rate per dollar spent per item). Each request "
                                "is priced on its own: its own tier, cache buckets and fee.");
    for (const ArmCostEffectiveness &e : entries)
        if (const QString note = e.costNote(); !note.isEmpty())
            table.note += QStringLiteral(" %1, %2: %3.").arg(e.model, armLabel(e.arm), note);
    return table;
}

QList<Table> statisticsTables(const RunAnalysis &run, const VerdictThresholds &verdicts, bool withCosts)
{
    QList<Table> tables{verdictTable(run, verdicts)};
    for (const QString &split : splitsOf(run)) {
        tables.append(passRateTable(run, split));
        if (Table statements = statementPassRateTable(run, split); !statements.rows.isEmpty())
            tables.append(std::move(statements));
        tables.append(liftTable(run, split));
        if (hasActivation(run, split))
            tables.append(activationTable(run, split));
        tables.append(costTable(run, split, withCosts));
        if (withCosts)
            tables.append(costEffectivenessTable(run, split));
    }
    if (std::any_of(run.results.begin(), run.results.end(), isSilentBypass))
        tables.append(silentBypassTable(run));
    return tables;
}

Table suiteHealthTable(const RunAnalysis &run, int limit)
{
    Table table;
    table.title = QStringLiteral("Suite health");
    table.header = {QStringLiteral("Finding"), QStringLiteral("Case"), QStringLiteral("Where"),
                    QStringLiteral("Detail")};
    const QList<SuiteHealthFinding> findings = suiteHealthFindings(diagnoseSuite(run));
    for (const SuiteHealthFinding &f : findings) {
        if (table.rows.size() >= limit)
            break;
        table.rows.append({f.kind, f.caseId, f.where, f.detail});
    }
    table.note =
        findings.isEmpty()
            ? QStringLiteral(
                  "No check passed or failed every time with and without the skill, no case got worse with the "
                  "skill, no case's repeats disagreed and no item was far out in time or tokens.")
            : QStringLiteral("Computed from the results: a check that passes (or fails) every time, with and "
                             "without the skill, measures nothing about it; high variance: repeats that disagree; "
                             "outlier: far above the rest of its model and arm (beyond the third quartile "
                             "plus three interquartile ranges, over three times the median, and 5 s or 2000 "
                             "tokens above it).");
    if (findings.size() > limit)
        table.note += QStringLiteral(" The first %1 of %2 are listed.").arg(limit).arg(findings.size());
    return table;
}

Table contaminationTable(const ContaminationReport &report)
{
    Table table;
    table.title = QStringLiteral("Contamination check");
    table.header = {QStringLiteral("Arm or item"), QStringLiteral("Fixed prompt hash or where"),
                    QStringLiteral("Prompt variants"), QStringLiteral("Skills seen or skill line found")};
    for (const ContaminationReport::ArmPrompt &a : report.arms)
        table.rows.append({armLabel(a.arm), a.fixedHash.isEmpty() ? QStringLiteral("(no transcript)") : a.fixedHash,
                           QString::number(a.variants),
                           a.skillsSeen.isEmpty() ? QStringLiteral("none") : a.skillsSeen.join(QStringLiteral(", "))});
    for (const ContaminationReport::Leak &l : report.leaks)
        table.rows.append({QStringLiteral("%1, %2").arg(l.caseId(), l.itemLabel()), l.where, QString(), l.line});
    table.note =
        report.summary() +
        QStringLiteral(" Fixed prompt: the system prompt without its skill section, hashed per arm; the "
                       "skill's lines of 30 characters or more were searched for in every message without the skill.");
    return table;
}

Table verdictTable(const RunAnalysis &run, const VerdictThresholds &thresholds)
{
    Table table;
    table.title = QStringLiteral("Verdicts");
    table.header = {QStringLiteral("Model"), QStringLiteral("Decided on"),   QStringLiteral("Verdict"),
                    QStringLiteral("Lift"),  QStringLiteral("95% interval"), QStringLiteral("Pairs"),
                    QStringLiteral("Why")};
    for (const Verdict &v : decideVerdicts(run.summary, thresholds)) {
        table.rows.append(
            {v.model, splitTitle(v.split), v.word(), liftInPoints(v.lift),
             QStringLiteral("[%1, %2] pp")
                 .arg(QString::number(v.liftCi.low * 100, 'f', 1), QString::number(v.liftCi.high * 100, 'f', 1)),
             QString::number(v.pairs), v.reason()});
    }
    table.note = QStringLiteral("Thresholds: %1. Interval: Newcombe's paired score interval of the lift.")
                     .arg(thresholds.describe());
    return table;
}

Table changesTable(const RunAnalysis &before, const RunAnalysis &after, int limit)
{
    Table table;
    table.title = QStringLiteral("What changed per case: %1 → %2").arg(before.label(), after.label());
    table.header = {QStringLiteral("Case"),   QStringLiteral("Model"), QStringLiteral("Arm"),
                    QStringLiteral("Before"), QStringLiteral("After"), QStringLiteral("Change")};
    const QList<CaseChange> changes = diffCaseMatrices(before.matrix, after.matrix);
    for (const CaseChange &c : changes) {
        if (table.rows.size() >= limit)
            break;
        const auto rate = [](std::optional<double> r) { return r ? percent(*r, 0) : QStringLiteral("—"); };
        QString delta = QStringLiteral("only in one run");
        if (c.before && c.after)
            delta = QStringLiteral("%1%2 pp").arg(c.delta() > 0 ? QStringLiteral("+") : QString(),
                                                  QString::number(c.delta() * 100, 'f', 0));
        table.rows.append({c.caseId, c.model, armLabel(c.arm), rate(c.before), rate(c.after), delta});
    }
    table.note = changes.isEmpty() ? QStringLiteral("No case changed its pass rate between the two runs.")
                                   : QStringLiteral("%1 cells changed; largest change first.").arg(changes.size());
    if (changes.size() > limit)
        table.note += QStringLiteral(" The first %1 are listed.").arg(limit);
    return table;
}

QList<int> matrixOrder(const CaseMatrix &matrix)
{
    QList<int> order(matrix.rows.size());
    for (qsizetype i = 0; i < order.size(); ++i)
        order[i] = int(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        const CaseRow &ra = matrix.rows[a], &rb = matrix.rows[b];
        return ra.flipsToPass + ra.flipsToFail > rb.flipsToPass + rb.flipsToFail;
    });
    return order;
}

QString cellText(const CaseCell &cell)
{
    if (cell.judged == 0)
        return cell.errors ? QStringLiteral("error") : QStringLiteral("—");
    QString text = QStringLiteral("%1/%2").arg(cell.passed).arg(cell.judged);
    if (cell.errors)
        text += QStringLiteral(", %1 error%2").arg(cell.errors).arg(cell.errors > 1 ? QStringLiteral("s") : QString());
    return text;
}

QString markedCellText(const RunAnalysis &run, const CaseCell &cell)
{
    const int bypasses = silentBypasses(run, cell);
    if (bypasses == 0)
        return cellText(cell);
    return cellText(cell) + (bypasses == cell.judged ? QStringLiteral(" ○") : QStringLiteral(" ◐"));
}

QString columnTitle(const CaseColumn &column)
{
    return QStringLiteral("%1 · %2").arg(column.model, armLabel(column.arm));
}

Table matrixTable(const RunAnalysis &run, int limit)
{
    Table table;
    table.title = QStringLiteral("Case matrix");
    table.header = {QStringLiteral("Case"), QStringLiteral("Split"), QStringLiteral("Flips")};
    for (const CaseColumn &column : run.matrix.columns)
        table.header.append(columnTitle(column));
    const QList<int> order = matrixOrder(run.matrix);
    for (int index : order) {
        if (table.rows.size() >= limit)
            break;
        const CaseRow &row = run.matrix.rows[index];
        QStringList cells{row.caseId, row.split,
                          row.flipped() ? QStringLiteral("+%1 / −%2").arg(row.flipsToPass).arg(row.flipsToFail)
                                        : QString()};
        for (const CaseCell &cell : row.cells)
            cells.append(markedCellText(run, cell));
        table.rows.append(cells);
    }
    table.note = QStringLiteral("Passed of judged repeats per case, model and arm; flipped cases first (+ failed "
                                "without the skill and passed with it, − the reverse).");
    if (std::any_of(run.results.begin(), run.results.end(), isSilentBypass))
        table.note += QStringLiteral(" ○: no repeat loaded the skill (a silent bypass: the outcome says nothing about "
                                     "its content); ◐: some repeats did not.");
    if (run.matrix.rows.size() > limit)
        table.note += QStringLiteral(" The first %1 of %2 cases are listed.").arg(limit).arg(run.matrix.rows.size());
    return table;
}

QString outcomeOf(const ItemResult &result)
{
    if (result.isError())
        return QStringLiteral("error");
    return result.passed ? QStringLiteral("pass") : QStringLiteral("fail");
}

QList<int> detailItems(const RunAnalysis &run, int cap)
{
    QSet<QString> flippedCases;
    for (const CaseRow &row : run.matrix.rows) {
        if (row.flipped())
            flippedCases.insert(row.caseId);
    }
    const auto rank = [&](const ItemResult &r) {
        if (flippedCases.contains(r.key.caseId))
            return 0;
        if (r.isError())
            return 1;
        return r.passed ? 3 : 2;
    };
    QList<int> order(run.results.size());
    for (qsizetype i = 0; i < order.size(); ++i)
        order[i] = int(i);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return rank(run.results[a]) < rank(run.results[b]); });
    if (order.size() > cap)
        order.resize(cap);
    return order;
}

QString generatedBy()
{
    return QStringLiteral("Skillforge %1, %2")
        .arg(QCoreApplication::applicationVersion().isEmpty() ? QStringLiteral(SKILLFORGE_VERSION)
                                                              : QCoreApplication::applicationVersion(),
             QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")));
}

} // namespace sf::report
