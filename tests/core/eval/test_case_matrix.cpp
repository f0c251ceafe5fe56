#include "SkippedChecks.h"
#include "eval/RunAnalysis.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;

namespace {

const QString kHaiku = QStringLiteral("anthropic:claude-haiku-4-5");
const QString kGemma = QStringLiteral("local:gemma-3-270m");

QString fixtureRun(const QString &version)
{
    return QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/runs/skill-%1").arg(version);
}

RunAnalysis load(const QString &version)
{
    auto loaded = analyzeRun(fixtureRun(version));
    if (auto *error = std::get_if<LoadError>(&loaded))
        qFatal("%s", qPrintable(error->toString()));
    return std::get<RunAnalysis>(std::move(loaded));
}

const CaseCell &cell(const RunAnalysis &run, const QString &caseId, const QString &model, const QString &arm)
{
    const int row = run.matrix.rowOf(caseId);
    const int column = run.matrix.columnOf(model, arm);
    if (row < 0 || column < 0)
        qFatal("no cell %s %s %s", qPrintable(caseId), qPrintable(model), qPrintable(arm));
    return run.matrix.rows[row].cells[column];
}

} // namespace

/// The case matrix and the run-to-run diff over the fixture runs (tests/fixtures/runs, written by
/// make_fixture_runs.py); every expected figure was read off the fixture's results by hand.
class TestCaseMatrix final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void columns_areModelsInOrder_baselineBeforeWithSkill()
    {
        const RunAnalysis run = load(QStringLiteral("v1"));
        const QList<CaseColumn> expected{{kHaiku, kBaselineArm}, {kHaiku, kWithSkillArm},
                                         {kGemma, kBaselineArm}, {kGemma, kWithSkillArm}};
        QCOMPARE(run.matrix.columns, expected);
        QCOMPARE(run.matrix.rows.size(), 5);
        QCOMPARE(run.matrix.rows[0].caseId, QStringLiteral("rmsnorm-basic"));
        QCOMPARE(run.matrix.rows[3].split, QStringLiteral("heldout"));
    }

    void cells_countPassesOverRepeats_andKeepErrorsApart()
    {
        const RunAnalysis run = load(QStringLiteral("v1"));
        const CaseCell &partly = cell(run, QStringLiteral("rmsnorm-basic"), kGemma, kWithSkillArm);
        QCOMPARE(partly.passed, 1);
        QCOMPARE(partly.judged, 2);
        QCOMPARE(*partly.passRate(), 0.5);
        QCOMPARE(partly.items.size(), 2);
        QCOMPARE(run.results[partly.items[0]].key.repeat, 1);
        QCOMPARE(run.results[partly.items[1]].key.repeat, 2);

        const CaseCell &faulted = cell(run, QStringLiteral("layernorm-fused"), kHaiku, kBaselineArm);
        QCOMPARE(faulted.judged, 1);
        QCOMPARE(faulted.errors, 1);
        QCOMPARE(*faulted.passRate(), 0.0);
        QVERIFY(run.matrix.rows[run.matrix.rowOf(QStringLiteral("layernorm-fused"))].hasError);
    }

    void flips_comeFromTheSummary_andSkipPairsWithAnError()
    {
        const RunAnalysis run = load(QStringLiteral("v1"));
        const CaseRow &basic = run.matrix.rows[run.matrix.rowOf(QStringLiteral("rmsnorm-basic"))];
        QCOMPARE(basic.flipsToPass, 3); // haiku on both repeats, gemma on the first
        QCOMPARE(basic.flipsToFail, 0);
        const CaseRow &fused = run.matrix.rows[run.matrix.rowOf(QStringLiteral("layernorm-fused"))];
        QCOMPARE(fused.flipsToPass, 1); // the second repeat's baseline is an error: no pair
        int flipsInMatrix = 0;
        for (const CaseRow &row : run.matrix.rows)
            flipsInMatrix += row.flipsToPass + row.flipsToFail;
        int flipsInSummary = 0;
        for (const ArmComparison &c : run.summary.comparisons) {
            if (c.split == QLatin1String("all"))
                flipsInSummary += int(c.flippedToPass.size() + c.flippedToFail.size());
        }
        QCOMPARE(flipsInMatrix, flipsInSummary);
    }

    void diff_listsChangedCells_largestFirst()
    {
        const QList<CaseChange> changes = diffCaseMatrices(load(QStringLiteral("v1")).matrix,
                                                           load(QStringLiteral("v2")).matrix);
        QVERIFY(!changes.isEmpty());
        auto find = [&](const QString &caseId, const QString &model, const QString &arm) -> const CaseChange * {
            for (const CaseChange &c : changes) {
                if (c.caseId == caseId && c.model == model && c.arm == arm)
                    return &c;
            }
            return nullptr;
        };
        const CaseChange *fused = find(QStringLiteral("layernorm-fused"), kHaiku, kBaselineArm);
        QVERIFY(fused);
        QCOMPARE(fused->delta(), 1.0);
        const CaseChange *geglu = find(QStringLiteral("geglu-heldout"), kHaiku, kBaselineArm);
        QVERIFY(geglu);
        QCOMPARE(geglu->delta(), -0.5);
        QVERIFY(!find(QStringLiteral("rmsnorm-basic"), kHaiku, kWithSkillArm)); // 1.0 in both runs
        for (qsizetype i = 1; i < changes.size(); ++i)
            QVERIFY(std::abs(changes[i - 1].delta()) >= std::abs(changes[i].delta()));
    }

    void diff_ofAColumnOnlyOneRunHas_isOneSided()
    {
        RunAnalysis before = load(QStringLiteral("v1"));
        QList<ItemResult> onlyHaiku;
        for (const ItemResult &r : before.results) {
            if (r.key.model == kHaiku)
                onlyHaiku.append(r);
        }
        const RunAnalysis after = analyzeResults(before.dir, before.manifest, onlyHaiku);
        const QList<CaseChange> changes = diffCaseMatrices(before.matrix, after.matrix);
        QVERIFY(!changes.isEmpty());
        for (const CaseChange &c : changes) {
            QCOMPARE(c.model, kGemma);
            QVERIFY(c.before.has_value());
            QVERIFY(!c.after.has_value());
        }
    }

    void readingARun_neverChangesIt()
    {
        QTemporaryDir dir;
        const QString run = dir.filePath(QStringLiteral("run"));
        QVERIFY(QDir().mkpath(run));
        QVERIFY(QFile::copy(fixtureRun(QStringLiteral("v1")) + QStringLiteral("/run.json"),
                            run + QStringLiteral("/run.json")));
        QFile results(run + QStringLiteral("/results.jsonl"));
        QVERIFY(results.open(QIODevice::WriteOnly));
        QFile source(fixtureRun(QStringLiteral("v1")) + QStringLiteral("/results.jsonl"));
        QVERIFY(source.open(QIODevice::ReadOnly));
        const QByteArray firstLine = source.readLine();
        const QByteArray beingWritten = QByteArrayLiteral("{\"model\":\"anthropic:claude-haiku-4-5\",\"ar");
        results.write(firstLine + beingWritten);
        results.close();

        auto loaded = analyzeRun(run);
        QVERIFY(std::holds_alternative<RunAnalysis>(loaded));
        QCOMPARE(std::get<RunAnalysis>(loaded).results.size(), 1);
        QVERIFY(results.open(QIODevice::ReadOnly));
        QCOMPARE(results.readAll(), firstLine + beingWritten);
    }

    void transcript_isReadFromTheRunFolder_butNeverOutsideIt()
    {
        const RunAnalysis run = load(QStringLiteral("v1"));
        const QJsonObject transcript = run.transcript(run.results.first());
        QCOMPARE(transcript.value(QStringLiteral("case")).toString(), run.results.first().key.caseId);
        ItemResult escaping = run.results.first();
        escaping.transcript = QStringLiteral("../skill-v2/run.json");
        QVERIFY(run.transcript(escaping).isEmpty());
    }

    void label_namesTheSkillVersionAndDate()
    {
        QCOMPARE(load(QStringLiteral("v2")).label(), QStringLiteral("diffusers-cuda-rmsnorm v2 (2026-11-22 10:00)"));
    }
};

SF_TEST_GUILESS_MAIN(TestCaseMatrix)
#include "test_case_matrix.moc"
