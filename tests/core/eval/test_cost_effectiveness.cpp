#include "SkippedChecks.h"
#include "eval/CostEffectiveness.h"

#include <QJsonObject>
#include <QTest>

using namespace sf;

namespace {

/// @p passes of @p items cases of @p model in @p arm, each costing @p cost (none: unpriced).
QList<ItemResult> arm(const QString &model, const QString &armName, int items, int passes, std::optional<double> cost)
{
    QList<ItemResult> results;
    for (int i = 0; i < items; ++i) {
        ItemResult r;
        r.key = {model, armName, QStringLiteral("c%1").arg(i), 1};
        r.passed = i < passes;
        r.costUsd = cost;
        r.latencyMs = 1000;
        results.append(r);
    }
    return results;
}

} // namespace

/// Cost per passed case and passes per dollar, worked out by hand for constructed runs: the 2026 headline of a small
/// model with a skill beating a large one without it at a fifth of the cost.
class TestCostEffectiveness final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void smallModelWithSkill_beatsLargeModelWithout_atAFifthOfTheCostPerPass()
    {
        const QString small = QStringLiteral("generic:small"), large = QStringLiteral("generic:large");
        QList<ItemResult> results = arm(small, kBaselineArm, 10, 3, 0.001);
        results += arm(small, kWithSkillArm, 10, 8, 0.002); // $0.02 for 8 passes
        results += arm(large, kBaselineArm, 10, 8, 0.010);  // $0.10 for 8 passes
        results += arm(large, kWithSkillArm, 10, 9, 0.012);
        const QList<ArmCostEffectiveness> entries = costEffectiveness(summarizeRun(results));
        QCOMPARE(entries.size(), 4);
        const ArmCostEffectiveness *smallSkill = findCostEffectiveness(entries, small, kWithSkillArm);
        const ArmCostEffectiveness *largeBase = findCostEffectiveness(entries, large, kBaselineArm);
        QVERIFY(smallSkill && largeBase);
        QCOMPARE(smallSkill->passes, 8);
        QVERIFY(qAbs(*smallSkill->totalCost - 0.02) < 1e-12);
        QVERIFY(qAbs(*smallSkill->costPerPass - 0.0025) < 1e-12);
        QVERIFY(qAbs(*smallSkill->passesPerDollar - 400) < 1e-9);
        QVERIFY(qAbs(*largeBase->costPerPass - 0.0125) < 1e-12);
        QVERIFY(qAbs(*largeBase->passesPerDollar - 80) < 1e-9);
        QVERIFY(qAbs(*largeBase->costPerPass / *smallSkill->costPerPass - 5) < 1e-9);
        QVERIFY(qAbs(*smallSkill->meanCostPerItem - 0.002) < 1e-12);
    }

    void armWithoutAPass_hasACostButNoCostPerPass()
    {
        const QList<ArmCostEffectiveness> entries =
            costEffectiveness(summarizeRun(arm(QStringLiteral("generic:m"), kBaselineArm, 4, 0, 0.01)));
        QCOMPARE(entries.size(), 1);
        QVERIFY(entries[0].totalCost);
        QVERIFY(!entries[0].costPerPass);
        QCOMPARE(*entries[0].passesPerDollar, 0.0);
    }

    void unpricedArm_hasNoCostFigures_andJsonSaysNull()
    {
        const QList<ArmCostEffectiveness> entries =
            costEffectiveness(summarizeRun(arm(QStringLiteral("generic:m"), kWithSkillArm, 4, 2, std::nullopt)));
        QCOMPARE(entries.size(), 1);
        QVERIFY(!entries[0].totalCost && !entries[0].costPerPass && !entries[0].passesPerDollar);
        QCOMPARE(entries[0].passRate, 0.5);
        const QJsonObject json = entries[0].toJson();
        QVERIFY(json.value(QStringLiteral("cost_per_pass_usd")).isNull());
        QCOMPARE(json.value(QStringLiteral("passes")).toInt(), 2);
    }
};

SF_TEST_GUILESS_MAIN(TestCostEffectiveness)
#include "test_cost_effectiveness.moc"
