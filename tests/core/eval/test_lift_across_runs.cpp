#include "SkippedChecks.h"
#include "eval/LiftAcrossRuns.h"

#include <QTest>

using namespace sf;

namespace {

/// A run started at @p startedAt in which @p model flips @p flips of 12 paired cases to pass.
RunAnalysis runWith(const QString &startedAt, const QString &model, int flips)
{
    QList<ItemResult> results;
    for (int i = 0; i < 12; ++i) {
        for (const QString &arm : {kBaselineArm, kWithSkillArm}) {
            ItemResult r;
            r.key = {model, arm, QStringLiteral("c%1").arg(i), 1};
            r.passed = arm == kWithSkillArm && i < flips;
            r.latencyMs = 1000;
            results.append(r);
        }
    }
    RunManifest manifest;
    manifest.startedAt = startedAt;
    manifest.runId = startedAt;
    return analyzeResults(QString(), manifest, results);
}

} // namespace

/// Many runs side by side: the model × run matrix of lift and verdicts, oldest run first.
class TestLiftAcrossRuns final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void runsOrderedByStart_modelsByFirstAppearance_cellsAreEachRunsVerdict()
    {
        const RunAnalysis v3 = runWith(QStringLiteral("2026-12-03T00:00:00Z"), QStringLiteral("generic:a"), 12);
        const RunAnalysis v1 = runWith(QStringLiteral("2026-12-01T00:00:00Z"), QStringLiteral("generic:a"), 0);
        const RunAnalysis v2 = runWith(QStringLiteral("2026-12-02T00:00:00Z"), QStringLiteral("generic:b"), 3);
        const LiftAcrossRuns across = liftAcrossRuns({&v3, &v1, &v2}, {});
        QCOMPARE(across.runs, (QList<const RunAnalysis *>{&v1, &v2, &v3}));
        QCOMPARE(across.models, (QStringList{QStringLiteral("generic:a"), QStringLiteral("generic:b")}));
        QCOMPARE(across.cells.size(), 2);
        // generic:a: no lift in v1, not measured in v2, a clear lift in v3.
        QVERIFY(across.cells[0][0] && across.cells[0][0]->kind == Verdict::Kind::Cut);
        QVERIFY(!across.cells[0][1]);
        QVERIFY(across.cells[0][2] && across.cells[0][2]->kind == Verdict::Kind::Keep);
        QCOMPARE(across.cells[0][2]->lift, 1.0);
        // generic:b only in v2: 3 of 12 flipped, an interval that spans 0.
        QVERIFY(!across.cells[1][0] && !across.cells[1][2]);
        QCOMPARE(across.cells[1][1]->lift, 0.25);
        QCOMPARE(across.cells[1][1]->kind, Verdict::Kind::CantTell);
    }

    void noRuns_isAnEmptyMatrix()
    {
        const LiftAcrossRuns across = liftAcrossRuns({nullptr}, {});
        QVERIFY(across.runs.isEmpty() && across.models.isEmpty() && across.cells.isEmpty());
    }
};

SF_TEST_GUILESS_MAIN(TestLiftAcrossRuns)
#include "test_lift_across_runs.moc"
