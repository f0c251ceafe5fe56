#include "SkippedChecks.h"
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

    // f604cb3: the lift's interval is Newcombe's method 10 (Stat Med 17:2635-2650, 1998), pinned to 4 decimals where
    // the Wald interval (in brackets) differs in the 3rd: a simpler interval would pass the two checks above. The
    // numbers come from an independent Python implementation, written for this test, not from this code:
    //   z = NormalDist().inv_cdf(0.975)
    //   def wilson(x, n): p = x / n; a = 2*n*p + z*z; b = z*sqrt(z*z + 4*n*p*(1 - p)); return ((a-b) / (2*(n + z*z)),
    //                                                                                        (a+b) / (2*(n + z*z)))
    //   def method10(a, b, c, d):  # both pass, only the first, only the second, both fail; CI of p2 - p1
    //       n = a+b+c+d; p1, p2 = (a+b)/n, (a+c)/n; l1, u1 = wilson(a+b, n); l2, u2 = wilson(a+c, n)
    //       den = (a+b)*(c+d)*(a+c)*(b+d); phi = (a*d - b*c)/sqrt(den) if den > 0 else 0
    //       lo = p2-p1 - sqrt((p2-l2)**2 - 2*phi*(p2-l2)*(u1-p1) + (u1-p1)**2)
    //       hi = p2-p1 + sqrt((u2-p2)**2 - 2*phi*(u2-p2)*(p1-l1) + (p1-l1)**2); return max(-1, lo), min(1, hi)
    void pairedInterval_isNewcombesMethod10_toFourDecimals_notWald()
    {
        struct Pinned
        {
            stats::PairedTable table; // bothPass, bothFail, onlyFirst, onlySecond: method10(a, d, b, c) above
            double low;
            double high;
        };
        const Pinned pinned[] = {
            {{12, 3, 2, 8}, 0.003445, 0.443606},  // [Wald 0.010626, 0.469374]
            {{36, 0, 2, 12}, 0.056930, 0.340428}, // [Wald 0.064210, 0.335790]; negative phi
            {{0, 10, 0, 4}, 0.012308, 0.546491},  // [Wald 0.049075, 0.522353]; the first arm passes none: phi is 0
            {{5, 3, 1, 1}, -0.242049, 0.242049},  // [Wald -0.277181, 0.277181]
        };
        for (const Pinned &p : pinned) {
            const stats::Interval ci = stats::pairedDifferenceCi(p.table);
            const QByteArray got = QByteArray::number(ci.low, 'f', 6) + ", " + QByteArray::number(ci.high, 'f', 6);
            QVERIFY2(qAbs(ci.low - p.low) < 5e-5 && qAbs(ci.high - p.high) < 5e-5, got.constData());
        }
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

SF_TEST_GUILESS_MAIN(TestVerdicts)
#include "test_verdicts.moc"
