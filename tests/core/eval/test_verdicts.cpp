#include "eval/RunSummary.h"
#include "eval/Verdict.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QTest>

using namespace sf;

namespace {

const QString kModel = QStringLiteral("generic:student");

ItemResult item(const QString &arm, const QString &caseId, bool passed, const QString &split)
{
    ItemResult r;
    r.key = {kModel, arm, caseId, 1};
    r.split = split;
    r.passed = passed;
    r.usage.uncachedInput = 100;
    r.usage.output = 20;
    r.latencyMs = 1000;
    return r;
}

/// A constructed run of one model: so many cases passing in both arms, failing in both, passing only without the
/// skill and only with it.
QList<ItemResult> pairedRun(int bothPass, int bothFail, int onlyBaseline, int onlyWithSkill,
                            const QString &split = QStringLiteral("train"), const QString &prefix = QStringLiteral("c"))
{
    QList<ItemResult> results;
    int n = 0;
    const auto add = [&](int count, bool baseline, bool withSkill) {
        for (int i = 0; i < count; ++i) {
            const QString id = prefix + QString::number(n++);
            results.append(item(kBaselineArm, id, baseline, split));
            results.append(item(kWithSkillArm, id, withSkill, split));
        }
    };
    add(bothPass, true, true);
    add(bothFail, false, false);
    add(onlyBaseline, true, false);
    add(onlyWithSkill, false, true);
    return results;
}

Verdict verdictOf(const QList<ItemResult> &results, VerdictThresholds thresholds = {})
{
    const QList<Verdict> verdicts = decideVerdicts(summarizeRun(results), thresholds);
    if (verdicts.size() != 1)
        qFatal("expected one verdict, got %d", int(verdicts.size()));
    return verdicts.first();
}

} // namespace

/// Each verdict pinned on a constructed run: a clear lift, a clear harm, a tie, too few cases, an open question.
class TestVerdicts final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pairedInterval_containsTheLift_andIsSymmetricUnderSwappingTheArms()
    {
        const stats::PairedTable table{5, 4, 3, 8};
        const stats::Interval ci = stats::pairedDifferenceCi(table);
        const double lift = (8.0 - 3.0) / 20;
        QVERIFY(ci.low < lift && lift < ci.high);
        const stats::Interval swapped = stats::pairedDifferenceCi(stats::PairedTable{5, 4, 8, 3});
        QVERIFY(qAbs(swapped.low + ci.high) < 1e-12);
        QVERIFY(qAbs(swapped.high + ci.low) < 1e-12);
        const stats::Interval none = stats::pairedDifferenceCi(stats::PairedTable{});
        QCOMPARE(none.low, -1.0);
        QCOMPARE(none.high, 1.0);
    }

    void pairedInterval_narrowsAsTheSameProportionsGrow()
    {
        const stats::Interval small = stats::pairedDifferenceCi(2, 2, 1, 5);
        const stats::Interval large = stats::pairedDifferenceCi(20, 20, 10, 50);
        QVERIFY(large.high - large.low < small.high - small.low);
        QVERIFY(small.low < 0 && large.low > 0);
    }

    void clearLift_isKeep()
    {
        const Verdict v = verdictOf(pairedRun(2, 4, 0, 14));
        QCOMPARE(v.kind, Verdict::Kind::Keep);
        QCOMPARE(v.pairs, 20);
        QCOMPARE(v.lift, 0.7);
        QVERIFY(v.liftCi.low > 0);
        QVERIFY(!v.morePairsNeeded);
        QVERIFY(v.reason().startsWith(QStringLiteral("keep: the skill helps (lift +70.0 pp")));
    }

    void clearHarm_isCut_andSaysTheSkillHurts()
    {
        const Verdict v = verdictOf(pairedRun(2, 4, 14, 0));
        QCOMPARE(v.kind, Verdict::Kind::Cut);
        QCOMPARE(v.cutReason, Verdict::CutReason::Hurts);
        QVERIFY(v.liftCi.high < 0);
        QVERIFY(v.reason().startsWith(QStringLiteral("cut: the skill hurts")));
        QCOMPARE(v.toJson().value(QStringLiteral("cut_reason")).toString(), QStringLiteral("hurts"));
    }

    void tie_isCut_forNoLift()
    {
        const Verdict v = verdictOf(pairedRun(5, 5, 5, 5));
        QCOMPARE(v.kind, Verdict::Kind::Cut);
        QCOMPARE(v.cutReason, Verdict::CutReason::NoLift);
        QCOMPARE(v.lift, 0.0);
        QVERIFY(v.reason().startsWith(QStringLiteral("cut: no lift")));
    }

    void tooFewCases_isCantTellYet_withTheCasesStillMissing()
    {
        // Three pairs, all flipped to pass: a lift, but three cases decide nothing under a minimum of ten.
        const Verdict v = verdictOf(pairedRun(0, 0, 0, 3));
        QCOMPARE(v.kind, Verdict::Kind::CantTell);
        QVERIFY(v.tooFewPairs);
        QVERIFY(v.morePairsNeeded);
        QVERIFY(*v.morePairsNeeded >= 7);
        QVERIFY(v.reason().contains(QStringLiteral("fewer than the 10 a verdict needs")));
        QCOMPARE(v.toJson().value(QStringLiteral("verdict")).toString(), QStringLiteral("cant_tell"));
    }

    void intervalSpanningZero_isCantTellYet_withTheCasesThatWouldLikelyDecideIt()
    {
        const stats::PairedTable table{5, 6, 3, 6};
        const Verdict v = verdictOf(pairedRun(5, 6, 3, 6));
        QCOMPARE(v.kind, Verdict::Kind::CantTell);
        QVERIFY(!v.tooFewPairs);
        QVERIFY(v.liftCi.low < 0 && v.liftCi.high > 0);
        QVERIFY(v.morePairsNeeded);
        // At the projected size, the same proportions give an interval above 0; one pair fewer does not.
        const double total = 20 + *v.morePairsNeeded;
        const auto scaled = [&](double n) {
            const double k = n / 20;
            return stats::pairedDifferenceCi(table.bothPass * k, table.bothFail * k, table.onlyFirst * k,
                                             table.onlySecond * k);
        };
        QVERIFY(scaled(total).low > 0);
        QVERIFY(scaled(total - 1).low <= 0);
        QVERIFY(v.reason().contains(QStringLiteral("about %1 more paired cases").arg(*v.morePairsNeeded)));
    }

    void liftBelowTheMinimum_isCut_evenWhenItsIntervalIsAboveZero()
    {
        const Verdict v = verdictOf(pairedRun(2, 4, 0, 14), {0.8, 10});
        QCOMPARE(v.kind, Verdict::Kind::Cut);
        QCOMPARE(v.cutReason, Verdict::CutReason::BelowMinimum);
    }

    void heldOutCases_decideTheVerdict_whenThereAreAny()
    {
        // Train cases show a clear lift; the held-out ones a clear harm: the held-out ones decide.
        QList<ItemResult> results = pairedRun(2, 4, 0, 14, QStringLiteral("train"), QStringLiteral("t"));
        results += pairedRun(2, 4, 14, 0, QStringLiteral("heldout"), QStringLiteral("h"));
        const Verdict v = verdictOf(results);
        QCOMPARE(v.split, QStringLiteral("heldout"));
        QCOMPARE(v.kind, Verdict::Kind::Cut);
        QCOMPARE(v.cutReason, Verdict::CutReason::Hurts);
    }

    void verdictsJson_carriesTheThresholds()
    {
        const VerdictThresholds thresholds{0.05, 12};
        const QJsonObject json =
            verdictsJson(decideVerdicts(summarizeRun(pairedRun(2, 4, 0, 14)), thresholds), thresholds);
        QCOMPARE(json.value(QStringLiteral("thresholds")).toObject().value(QStringLiteral("min_pairs")).toInt(), 12);
        QVERIFY(json.value(QStringLiteral("rule")).toString().contains(QStringLiteral("+5.0 pp")));
        QCOMPARE(json.value(QStringLiteral("models")).toArray().size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestVerdicts)
#include "test_verdicts.moc"
