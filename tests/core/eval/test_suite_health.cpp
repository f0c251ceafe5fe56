#include "eval/SuiteHealth.h"

#include <QJsonArray>
#include <QTest>

using namespace sf;

namespace {

const QString kModel = QStringLiteral("generic:student");

ItemResult item(const QString &arm, const QString &caseId, int repeat, bool passed, qint64 latencyMs)
{
    ItemResult r;
    r.key = {kModel, arm, caseId, repeat};
    r.passed = passed;
    r.latencyMs = latencyMs;
    r.usage.uncachedInput = 100;
    r.usage.output = 50;
    r.verifiers.append(
        {QStringLiteral("contains"), QStringLiteral("mentions the kernel"), passed, true, {}, {}, {}, {}});
    r.verifiers.append({QStringLiteral("regex"), QStringLiteral("well formed"), true, true, {}, {}, {}, {}});
    return r;
}

/// Four cases, two repeats, both arms: "steady" passes everywhere, "hurt" passes only without the skill, "flaky"
/// passes once in two without it, "never" fails everywhere; one item took a hundred times the others' time.
RunAnalysis constructedRun()
{
    QList<ItemResult> results;
    qint64 latency = 1000;
    for (int repeat = 1; repeat <= 2; ++repeat) {
        for (const QString &arm : {kBaselineArm, kWithSkillArm}) {
            const bool skill = arm == kWithSkillArm;
            results.append(item(arm, QStringLiteral("steady"), repeat, true, latency += 10));
            results.append(item(arm, QStringLiteral("hurt"), repeat, !skill, latency += 10));
            results.append(item(arm, QStringLiteral("flaky"), repeat, skill || repeat == 1, latency += 10));
            results.append(item(arm, QStringLiteral("never"), repeat, false, latency += 10));
        }
    }
    results[5].latencyMs = 100000; // with_skill "hurt", repeat 1
    return analyzeResults(QString(), RunManifest{}, results);
}

} // namespace

/// The suite's own health, computed on a constructed run whose every diagnosis is known.
class TestSuiteHealth final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void checksThatAgreeInBothArmsEveryTime_areListed_asMeasuringNothing()
    {
        const SuiteHealth health = diagnoseSuite(constructedRun());
        // "well formed" passes on every item of every case; "mentions the kernel" only on "steady".
        QStringList always;
        for (const SuiteHealth::Check &c : health.alwaysPass)
            always.append(c.caseId + u'/' + c.check);
        QVERIFY(always.contains(QStringLiteral("steady/mentions the kernel")));
        QVERIFY(always.contains(QStringLiteral("never/well formed")));
        QVERIFY(!always.contains(QStringLiteral("hurt/mentions the kernel")));
        QCOMPARE(health.alwaysFail.size(), 1);
        QCOMPARE(health.alwaysFail[0].caseId, QStringLiteral("never"));
        QCOMPARE(health.alwaysFail[0].check, QStringLiteral("mentions the kernel"));
        QCOMPARE(health.alwaysFail[0].items, 4);
    }

    void caseWhereTheSkillHurts_isListed_withItsRatesAndFlips()
    {
        const SuiteHealth health = diagnoseSuite(constructedRun());
        QCOMPARE(health.hurts.size(), 1);
        QCOMPARE(health.hurts[0].caseId, QStringLiteral("hurt"));
        QCOMPARE(health.hurts[0].baselineRate, 1.0);
        QCOMPARE(health.hurts[0].withSkillRate, 0.0);
        QCOMPARE(health.hurts[0].flipsToFail, 2);
    }

    void caseWhoseRepeatsDisagree_isHighVariance()
    {
        const SuiteHealth health = diagnoseSuite(constructedRun());
        QCOMPARE(health.highVariance.size(), 1);
        QCOMPARE(health.highVariance[0].caseId, QStringLiteral("flaky"));
        QCOMPARE(health.highVariance[0].arm, kBaselineArm);
        QCOMPARE(health.highVariance[0].passed, 1);
        QCOMPARE(health.highVariance[0].judged, 2);
    }

    void itemFarAboveItsArmsLatency_isAnOutlier_andTokensAreNot()
    {
        const SuiteHealth health = diagnoseSuite(constructedRun());
        QCOMPARE(health.outliers.size(), 1);
        const SuiteHealth::Outlier &o = health.outliers[0];
        QCOMPARE(o.caseId, QStringLiteral("hurt"));
        QCOMPARE(o.arm, kWithSkillArm);
        QCOMPARE(o.metric, QStringLiteral("latency"));
        QCOMPARE(o.value, 100000.0);
        QVERIFY(o.fence < o.value && o.median < o.fence);
    }

    void errorsAndUnavailableChecks_sayNothing_andJsonNamesEveryList()
    {
        RunAnalysis run = constructedRun();
        QList<ItemResult> results = run.results;
        results[0].error = QStringLiteral("provider fault");
        results[1].verifiers[1].available = false;
        const SuiteHealth health = diagnoseSuite(analyzeResults(QString(), RunManifest{}, results));
        for (const SuiteHealth::Check &c : health.alwaysPass) {
            if (c.caseId == u"steady" && c.check == u"well formed")
                QCOMPARE(c.items, 3); // the errored item left out
            if (c.caseId == u"hurt" && c.check == u"well formed")
                QCOMPARE(c.items, 3); // the item whose check could not run left out
        }
        const QJsonObject json = health.toJson();
        for (const char *key : {"checks_always_pass", "checks_always_fail", "cases_where_the_skill_hurts",
                                "high_variance_cases", "outliers"})
            QVERIFY2(json.value(QLatin1String(key)).isArray(), key);
        QCOMPARE(json.value(QStringLiteral("cases_where_the_skill_hurts")).toArray().size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestSuiteHealth)
#include "test_suite_health.moc"
