#include "SkippedChecks.h"
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

    void aSmallGapOrASmallRatio_isNoOutlier_evenBeyondTheFence()
    {
        // One model and arm, eight items around 300 ms and 150 tokens, the last three a little or much further out.
        QList<ItemResult> results;
        for (int repeat = 1; repeat <= 8; ++repeat)
            results.append(item(kBaselineArm, QStringLiteral("quick"), repeat, true, 300 + repeat % 2));
        results[5].latencyMs = 400;    // beyond the fence (the spread is 1 ms), 0.1 s above: not far out
        results[6].usage.output = 850; // 6.7× the median's tokens but only 850 more: not far out
        results[7].latencyMs = 3000;   // 10× the median, but not 5 s above it: not far out
        QVERIFY(diagnoseSuite(analyzeResults(QString(), RunManifest{}, results)).outliers.isEmpty());
        results[7].latencyMs = 6000; // 20× and 5.7 s above: far out
        const SuiteHealth health = diagnoseSuite(analyzeResults(QString(), RunManifest{}, results));
        QCOMPARE(health.outliers.size(), 1);
        QCOMPARE(health.outliers[0].value, 6000.0);
    }

    void findings_sayArmsAndChecksInPeoplesWords()
    {
        QList<ItemResult> results = constructedRun().results;
        // A case's own expected text, as the suite reader names it, passing everywhere.
        for (ItemResult &r : results)
            r.verifiers.append({QStringLiteral("contains"),
                                QStringLiteral("expected.contains"),
                                true,
                                true,
                                QStringLiteral("found all of: \"__global__\""),
                                {},
                                {},
                                {}});
        const QList<SuiteHealthFinding> findings =
            suiteHealthFindings(diagnoseSuite(analyzeResults(QString(), RunManifest{}, results)));
        QStringList text;
        for (const SuiteHealthFinding &f : findings)
            text.append(f.kind + u'|' + f.caseId + u'|' + f.where + u'|' + f.detail);
        const QString all = text.join(u'\n');
        for (const QString &internal :
             {QStringLiteral("with_skill"), QStringLiteral("baseline"), QStringLiteral("expected.contains"),
              QStringLiteral("sha256"), QStringLiteral("fence"), QStringLiteral("both arms")})
            QVERIFY2(!all.contains(internal), qPrintable(internal + u'\n' + all));
        QVERIFY2(all.contains(QStringLiteral("high variance|flaky|generic:student · without skill|")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("outlier|hurt|generic:student · with skill · repeat 1|latency 100.0 s, ")),
                 qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("\"well formed\" — passed on all 4 items, with and without the skill")),
                 qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("expects the reply to contain \"__global__\" — passed on all 4 items")),
                 qPrintable(all));
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

SF_TEST_GUILESS_MAIN(TestSuiteHealth)
#include "test_suite_health.moc"
