#include "SkippedChecks.h"
#include "eval/RunSummary.h"
#include "eval/Statistics.h"

#include <QTest>
#include <algorithm>
#include <numeric>
#include <random>

using namespace sf;

namespace {

ItemResult item(const QString &arm, const QString &caseId, bool passed, const QString &split = QStringLiteral("train"))
{
    ItemResult r;
    r.key = {QStringLiteral("generic:m"), arm, caseId, 1};
    r.split = split;
    r.passed = passed;
    r.usage.uncachedInput = 100;
    r.usage.output = passed ? 50 : 10;
    r.latencyMs = 1000;
    return r;
}

} // namespace

/// Every figure here was worked out by hand (or from the textbook formula) before the code was run.
class TestStatistics final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void wilson_matchesTextbookValues()
    {
        const stats::Proportion none = stats::wilson(0, 10);
        QCOMPARE(none.rate, 0.0);
        QCOMPARE(none.ci.low, 0.0);
        QVERIFY(qAbs(none.ci.high - 0.2775) < 1e-4);
        const stats::Proportion half = stats::wilson(5, 10);
        QVERIFY(qAbs(half.ci.low - 0.2366) < 1e-4);
        QVERIFY(qAbs(half.ci.high - 0.7634) < 1e-4);
        const stats::Proportion most = stats::wilson(8, 10);
        QVERIFY(qAbs(most.ci.low - 0.4902) < 1e-4);
        QVERIFY(qAbs(most.ci.high - 0.9433) < 1e-4);
        const stats::Proportion all = stats::wilson(10, 10);
        QCOMPARE(all.ci.high, 1.0);
        QVERIFY(qAbs(all.ci.low - 0.7225) < 1e-4);
    }

    void wilson_noTrials_isTheWholeRange()
    {
        const stats::Proportion p = stats::wilson(0, 0);
        QCOMPARE(p.ci.low, 0.0);
        QCOMPARE(p.ci.high, 1.0);
    }

    void mcnemar_exactBinomialTwoSided()
    {
        QCOMPARE(stats::mcnemarExactP(0, 0), 1.0);
        QVERIFY(qAbs(stats::mcnemarExactP(0, 5) - 0.0625) < 1e-12);          // 2 * (1/2)^5
        QVERIFY(qAbs(stats::mcnemarExactP(9, 1) - 22.0 / 1024) < 1e-12);     // 2 * (1 + 10) / 2^10
        QCOMPARE(stats::mcnemarExactP(3, 3), 1.0);                           // 2 * 42/64 capped at 1
        QVERIFY(qAbs(stats::mcnemarExactP(2, 8) - 2 * 56.0 / 1024) < 1e-12); // (1 + 10 + 45) / 2^10, doubled
    }

    void median_andQuantiles()
    {
        QCOMPARE(stats::median({4, 1, 3, 2}), 2.5);
        QCOMPARE(stats::median({5, 1, 3}), 3.0);
        QCOMPARE(stats::quantileSorted({10, 20, 30, 40, 50}, 0.25), 20.0);
        QCOMPARE(stats::quantileSorted({10, 20}, 0.75), 17.5);
    }

    void bootstrap_constantSample_hasAZeroWidthInterval()
    {
        const stats::Distribution d = stats::describe({7, 7, 7});
        QCOMPARE(d.mean, 7.0);
        QCOMPARE(d.meanCi.low, 7.0);
        QCOMPARE(d.meanCi.high, 7.0);
        QCOMPARE(d.medianCi.high, 7.0);
    }

    void bootstrap_isSeeded_andBracketsTheMean()
    {
        const QList<double> values{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        const stats::Distribution a = stats::describe(values, 42);
        const stats::Distribution b = stats::describe(values, 42);
        QCOMPARE(a.meanCi.low, b.meanCi.low);
        QCOMPARE(a.meanCi.high, b.meanCi.high);
        QCOMPARE(a.mean, 5.5);
        QCOMPARE(a.median, 5.5);
        QVERIFY(a.meanCi.low < 5.5 && a.meanCi.high > 5.5);
        QVERIFY(a.meanCi.low >= 1 && a.meanCi.high <= 10);
        // The standard error is about 0.91, so the 95% interval is roughly 5.5 +- 1.8.
        QVERIFY(a.meanCi.high - a.meanCi.low > 2.5 && a.meanCi.high - a.meanCi.low < 4.5);
    }

    void resampleIndices_areXoshiro256StarStarAsSpecified_andUniform()
    {
        // Known answers from an independent implementation of splitmix64 seeding and xoshiro256**.
        stats::ResampleIndices indices(20260101);
        QList<qsizetype> first;
        for (int i = 0; i < 6; ++i)
            first.append(indices.next(1000));
        QCOMPARE(first, (QList<qsizetype>{30, 343, 488, 679, 26, 1}));
        // Every index in range, and each of 10 about equally often (chi-square, 9 degrees of freedom: 27.9 is
        // the 0.1% critical value).
        QList<int> counts(10);
        const int draws = 100000;
        for (int i = 0; i < draws; ++i) {
            const qsizetype index = indices.next(10);
            QVERIFY(index >= 0 && index < 10);
            ++counts[index];
        }
        double chiSquare = 0;
        for (int c : counts)
            chiSquare += (c - draws / 10.0) * (c - draws / 10.0) / (draws / 10.0);
        QVERIFY2(chiSquare < 27.9, qPrintable(QString::number(chiSquare)));
    }

    void bootstrap_countingResamples_givesExactlyWhatSortingEachResampleGives()
    {
        // The textbook way, kept here as the reference: draw, sort, take the mean and the median, 2000 times.
        auto reference = [](QList<double> values, quint64 seed) {
            std::sort(values.begin(), values.end());
            stats::ResampleIndices indices(seed);
            QList<double> means, medians;
            QList<double> sample(values.size());
            for (int r = 0; r < 2000; ++r) {
                for (double &v : sample)
                    v = values[indices.next(values.size())];
                std::sort(sample.begin(), sample.end());
                means.append(std::accumulate(sample.cbegin(), sample.cend(), 0.0) / double(sample.size()));
                medians.append(stats::quantileSorted(sample, 0.5));
            }
            std::sort(means.begin(), means.end());
            std::sort(medians.begin(), medians.end());
            return QList<double>{stats::quantileSorted(means, 0.025), stats::quantileSorted(means, 0.975),
                                 stats::quantileSorted(medians, 0.025), stats::quantileSorted(medians, 0.975)};
        };
        std::mt19937_64 make(7);
        for (int n : {1, 2, 3, 4, 9, 10, 31, 64}) {
            QList<double> values;
            for (int i = 0; i < n; ++i)
                values.append(double(make() % 50) * 0.37); // ties on purpose
            const stats::Distribution d = stats::describe(values, 99);
            const QList<double> expected = reference(values, 99);
            QCOMPARE(d.meanCi.low, expected[0]);
            QCOMPARE(d.meanCi.high, expected[1]);
            QCOMPARE(d.medianCi.low, expected[2]);
            QCOMPARE(d.medianCi.high, expected[3]);
        }
    }

    void summary_pairsArmsOnCaseAndRepeat_andListsFlips()
    {
        // baseline: pass fail fail pass; with_skill: pass pass pass fail.
        const QList<ItemResult> results{
            item(kBaselineArm, QStringLiteral("c1"), true),  item(kBaselineArm, QStringLiteral("c2"), false),
            item(kBaselineArm, QStringLiteral("c3"), false), item(kBaselineArm, QStringLiteral("c4"), true),
            item(kWithSkillArm, QStringLiteral("c1"), true), item(kWithSkillArm, QStringLiteral("c2"), true),
            item(kWithSkillArm, QStringLiteral("c3"), true), item(kWithSkillArm, QStringLiteral("c4"), false)};
        const RunSummary s = summarizeRun(results);
        const ArmComparison *c = s.comparison(QStringLiteral("generic:m"));
        QVERIFY(c);
        QCOMPARE(c->table.bothPass, 1);
        QCOMPARE(c->table.onlySecond, 2);
        QCOMPARE(c->table.onlyFirst, 1);
        QCOMPARE(c->table.bothFail, 0);
        QCOMPARE(c->lift, 0.25);
        QCOMPARE(c->pValue, 1.0); // 2 * (1 + 3) / 8
        QCOMPARE(c->flippedToPass, (QStringList{QStringLiteral("c2#1"), QStringLiteral("c3#1")}));
        QCOMPARE(c->flippedToFail, QStringList{QStringLiteral("c4#1")});
        const ArmSummary *with = s.arm(QStringLiteral("generic:m"), kWithSkillArm);
        QCOMPARE(with->passRate.successes, 3);
        QCOMPARE(with->passRate.trials, 4);
        QCOMPARE(with->tokens.mean, (150.0 * 3 + 110) / 4);
        QVERIFY(!with->costUsd); // no item had a price: unknown, not zero
        QVERIFY(!s.arm(QStringLiteral("generic:m"), kWithSkillArm, QStringLiteral("heldout")));
    }

    void summary_errorsAreCountedApart_andHeldOutReportedSeparately()
    {
        QList<ItemResult> results{item(kBaselineArm, QStringLiteral("t"), false),
                                  item(kWithSkillArm, QStringLiteral("t"), true),
                                  item(kBaselineArm, QStringLiteral("h"), false, QStringLiteral("heldout")),
                                  item(kWithSkillArm, QStringLiteral("h"), false, QStringLiteral("heldout")),
                                  item(kBaselineArm, QStringLiteral("e"), false),
                                  item(kWithSkillArm, QStringLiteral("e"), false)};
        results[5].error = QStringLiteral("HTTP 500");
        const RunSummary s = summarizeRun(results);
        const ArmSummary *with = s.arm(QStringLiteral("generic:m"), kWithSkillArm);
        QCOMPARE(with->items, 3);
        QCOMPARE(with->errors, 1);
        QCOMPARE(with->passRate.trials, 2);
        QCOMPARE(s.comparison(QStringLiteral("generic:m"))->table.pairs(), 2); // the pair with an error is left out
        QCOMPARE(s.comparison(QStringLiteral("generic:m"), QStringLiteral("train"))->lift, 1.0);
        QCOMPARE(s.comparison(QStringLiteral("generic:m"), QStringLiteral("heldout"))->lift, 0.0);
        QCOMPARE(s.arm(QStringLiteral("generic:m"), kWithSkillArm, QStringLiteral("heldout"))->passRate.trials, 1);
    }

    void summary_triggerRate_countsItemsThatLoadedTheSkill()
    {
        QList<ItemResult> results{item(kWithSkillArm, QStringLiteral("a"), true),
                                  item(kWithSkillArm, QStringLiteral("b"), false),
                                  item(kWithSkillArm, QStringLiteral("c"), false)};
        results[0].skillLoaded = true;
        results[1].skillLoaded = false;
        results[2].skillLoaded = true;
        const RunSummary s = summarizeRun(results);
        const ArmSummary *with = s.arm(QStringLiteral("generic:m"), kWithSkillArm);
        QVERIFY(with->triggerRate);
        QCOMPARE(with->triggerRate->successes, 2);
        QCOMPARE(with->triggerRate->trials, 3);
    }

    // b940095: every report table and verdict writes a lift through liftInPoints; a lift that rounds to zero at one
    // decimal reads "0.0 pp" whichever side of zero it lies, never "-0.0 pp" (nor "+0.0 pp").
    void liftInPoints_signedToOneDecimal_andZeroNeverNegative()
    {
        QCOMPARE(liftInPoints(0.5), QStringLiteral("+50.0 pp"));
        QCOMPARE(liftInPoints(-0.125), QStringLiteral("-12.5 pp"));
        QCOMPARE(liftInPoints(-0.001), QStringLiteral("-0.1 pp"));
        QCOMPARE(liftInPoints(0.0), QStringLiteral("0.0 pp"));
        QCOMPARE(liftInPoints(-0.0), QStringLiteral("0.0 pp"));
        QCOMPARE(liftInPoints(-0.0004), QStringLiteral("0.0 pp"));
        QCOMPARE(liftInPoints(-0.00049), QStringLiteral("0.0 pp"));
        QCOMPARE(liftInPoints(0.0004), QStringLiteral("0.0 pp"));
    }
};

SF_TEST_GUILESS_MAIN(TestStatistics)
#include "test_statistics.moc"
