#include "RunSummary.h"

#include <QHash>
#include <QJsonArray>
#include <QSet>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>
#include <optional>

namespace sf {

namespace {

bool inSplit(const ItemResult &r, const QString &split)
{
    return split == QLatin1String("all") || r.split == split;
}

QJsonObject intervalJson(const stats::Interval &i)
{
    return {{QStringLiteral("low"), i.low}, {QStringLiteral("high"), i.high}};
}

QJsonObject proportionJson(const stats::Proportion &p)
{
    return {{QStringLiteral("successes"), p.successes},
            {QStringLiteral("trials"), p.trials},
            {QStringLiteral("rate"), p.rate},
            {QStringLiteral("ci95"), intervalJson(p.ci)}};
}

QJsonObject distributionJson(const stats::Distribution &d)
{
    return {{QStringLiteral("n"), d.n},
            {QStringLiteral("mean"), d.mean},
            {QStringLiteral("mean_ci95"), intervalJson(d.meanCi)},
            {QStringLiteral("median"), d.median},
            {QStringLiteral("median_ci95"), intervalJson(d.medianCi)}};
}

// One model and arm over one split; nullopt when the run has no such item.
std::optional<ArmSummary> summarizeArm(const QList<ItemResult> &results, const QString &model, const QString &armName,
                                        const QString &split, quint64 seed)
{
    ArmSummary a;
    a.model = model;
    a.arm = armName;
    a.split = split;
    int passed = 0;
    int judged = 0;
    int loaded = 0;
    int loadable = 0;
    QList<double> tokens, latency, cost;
    for (const ItemResult &r : results) {
        if (r.key.model != model || r.key.arm != armName || !inSplit(r, split))
            continue;
        ++a.items;
        if (r.isError()) {
            ++a.errors;
            continue;
        }
        ++judged;
        passed += r.passed ? 1 : 0;
        tokens.append(double(r.totalTokens()));
        latency.append(double(r.latencyMs));
        if (r.costUsd)
            cost.append(*r.costUsd);
        else
            ++a.unpricedItems;
        if (!r.costPriced.isEmpty())
            ++a.pricedAfterwards;
        if (r.costPriced == CostPriced::AfterwardsFromTotals)
            ++a.pricedFromTotals;
        if (r.skillLoaded) {
            ++loadable;
            loaded += *r.skillLoaded ? 1 : 0;
        }
    }
    if (a.items == 0)
        return std::nullopt;
    a.passRate = stats::wilson(passed, judged);
    a.tokens = stats::describe(tokens, seed);
    a.latencyMs = stats::describe(latency, seed);
    if (a.unpricedItems == 0 && !cost.isEmpty())
        a.costUsd = stats::describe(cost, seed);
    if (loadable > 0)
        a.triggerRate = stats::wilson(loaded, loadable);
    return a;
}

} // namespace

const ArmSummary *RunSummary::arm(const QString &model, const QString &armName, const QString &split) const
{
    for (const ArmSummary &a : arms) {
        if (a.model == model && a.arm == armName && a.split == split)
            return &a;
    }
    return nullptr;
}

const ArmComparison *RunSummary::comparison(const QString &model, const QString &split) const
{
    for (const ArmComparison &c : comparisons) {
        if (c.model == model && c.split == split)
            return &c;
    }
    return nullptr;
}

RunSummary summarizeRun(const QList<ItemResult> &results, quint64 seed)
{
    RunSummary summary;
    QStringList models;
    bool anyHeldOut = false;
    for (const ItemResult &r : results) {
        if (!models.contains(r.key.model))
            models.append(r.key.model);
        anyHeldOut = anyHeldOut || r.split == QLatin1String("heldout");
    }
    QStringList splits{QStringLiteral("all")};
    if (anyHeldOut)
        splits << QStringLiteral("train") << QStringLiteral("heldout");

    // Each arm's bootstrap is independent and seeded, so working them out on every core gives the same numbers in
    // the same order (a 40,000-item run has 120 of them, each of 2,000 resamples).
    struct ArmTask
    {
        QString split;
        QString model;
        QString arm;
    };
    QList<ArmTask> tasks;
    for (const QString &split : splits) {
        for (const QString &model : models) {
            for (const QString &armName : {kBaselineArm, kWithSkillArm})
                tasks.append({split, model, armName});
        }
    }
    // A pool of its own: callers often run on the global pool (the Compare view loads runs there), and waiting
    // there for work queued behind themselves would never end.
    static QThreadPool pool;
    const QList<std::optional<ArmSummary>> arms = QtConcurrent::blockingMapped(
        &pool, tasks,
        [&](const ArmTask &task) { return summarizeArm(results, task.model, task.arm, task.split, seed); });
    for (const std::optional<ArmSummary> &arm : arms) {
        if (arm)
            summary.arms.append(*arm);
    }

    for (const QString &split : splits) {
        for (const QString &model : models) {
            // Pair the arms on (case, repeat); a pair with an error on either side says nothing about the skill.
            QHash<QString, const ItemResult *> baseline;
            for (const ItemResult &r : results) {
                if (r.key.model == model && r.key.arm == kBaselineArm && inSplit(r, split) && !r.isError())
                    baseline.insert(r.key.caseId + u'#' + QString::number(r.key.repeat), &r);
            }
            ArmComparison c;
            c.model = model;
            c.split = split;
            for (const ItemResult &r : results) {
                if (r.key.model != model || r.key.arm != kWithSkillArm || !inSplit(r, split) || r.isError())
                    continue;
                const QString pair = r.key.caseId + u'#' + QString::number(r.key.repeat);
                const ItemResult *b = baseline.value(pair);
                if (!b)
                    continue;
                if (b->passed && r.passed)
                    ++c.table.bothPass;
                else if (!b->passed && !r.passed)
                    ++c.table.bothFail;
                else if (b->passed) {
                    ++c.table.onlyFirst;
                    c.flippedToFail.append(pair);
                } else {
                    ++c.table.onlySecond;
                    c.flippedToPass.append(pair);
                }
            }
            if (c.table.pairs() == 0)
                continue;
            c.lift = double(c.table.onlySecond - c.table.onlyFirst) / c.table.pairs();
            c.liftCi = stats::pairedDifferenceCi(c.table);
            c.pValue = stats::mcnemarExactP(c.table.onlyFirst, c.table.onlySecond);
            c.flippedToPass.sort();
            c.flippedToFail.sort();
            summary.comparisons.append(c);
        }
    }
    return summary;
}

QJsonObject RunSummary::toJson() const
{
    QJsonArray armList;
    for (const ArmSummary &a : arms) {
        QJsonObject o{
            {QStringLiteral("model"), a.model},
            {QStringLiteral("arm"), a.arm},
            {QStringLiteral("split"), a.split},
            {QStringLiteral("items"), a.items},
            {QStringLiteral("errors"), a.errors},
            {QStringLiteral("pass_rate"), proportionJson(a.passRate)},
            {QStringLiteral("tokens"), distributionJson(a.tokens)},
            {QStringLiteral("latency_ms"), distributionJson(a.latencyMs)},
            {QStringLiteral("cost_usd"), a.costUsd ? QJsonValue(distributionJson(*a.costUsd)) : QJsonValue()}};
        if (a.triggerRate)
            o.insert(QStringLiteral("trigger_rate"), proportionJson(*a.triggerRate));
        if (a.unpricedItems > 0)
            o.insert(QStringLiteral("cost_unpriced_items"), a.unpricedItems);
        if (a.pricedAfterwards > 0)
            o.insert(QStringLiteral("cost_priced_afterwards_items"), a.pricedAfterwards);
        if (a.pricedFromTotals > 0)
            o.insert(QStringLiteral("cost_priced_from_totals_items"), a.pricedFromTotals);
        armList.append(o);
    }
    QJsonArray comparisonList;
    for (const ArmComparison &c : comparisons) {
        comparisonList.append(
            QJsonObject{{QStringLiteral("model"), c.model},
                        {QStringLiteral("split"), c.split},
                        {QStringLiteral("lift"), c.lift},
                        {QStringLiteral("lift_ci95"), intervalJson(c.liftCi)},
                        {QStringLiteral("pairs"), c.table.pairs()},
                        {QStringLiteral("both_pass"), c.table.bothPass},
                        {QStringLiteral("both_fail"), c.table.bothFail},
                        {QStringLiteral("only_baseline"), c.table.onlyFirst},
                        {QStringLiteral("only_with_skill"), c.table.onlySecond},
                        {QStringLiteral("mcnemar_p"), c.pValue},
                        {QStringLiteral("flipped_to_pass"), QJsonArray::fromStringList(c.flippedToPass)},
                        {QStringLiteral("flipped_to_fail"), QJsonArray::fromStringList(c.flippedToFail)}});
    }
    return {{QStringLiteral("arms"), armList}, {QStringLiteral("comparisons"), comparisonList}};
}

QString liftInPoints(double lift)
{
    const QString points = QString::number(lift * 100, 'f', 1);
    // A lift that rounds to zero reads "0.0 pp", never "-0.0 pp".
    if (points == QLatin1String("0.0") || points == QLatin1String("-0.0"))
        return QStringLiteral("0.0 pp");
    return (lift > 0 ? QStringLiteral("+") : QString()) + points + QStringLiteral(" pp");
}

} // namespace sf
