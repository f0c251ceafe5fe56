#include "SkippedChecks.h"
#include "eval/RunExport.h"
#include "eval/RunSummary.h"

#include <QDir>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;

namespace {

ItemResult item(const QString &arm, const QString &caseId, int repeat, bool passed)
{
    ItemResult r;
    r.key = {QStringLiteral("generic:m"), arm, caseId, repeat};
    r.passed = passed;
    r.usage.uncachedInput = 100;
    r.usage.output = 20;
    r.latencyMs = 2000;
    r.llmMs = 1500;
    r.turns = 2;
    r.toolCalls = 1;
    r.toolCallCounts.insert(QStringLiteral("run_command"), 1);
    r.stopReason = StopReason::Answered;
    r.startedAt = QStringLiteral("2026-11-30T01:00:00Z");
    VerifierOutcome v;
    v.type = QStringLiteral("contains");
    v.name = QStringLiteral("expected.contains");
    v.passed = passed;
    v.evidence = passed ? QStringLiteral("found") : QStringLiteral("missing");
    r.verifiers.append(v);
    return r;
}

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace

class TestRunExport final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    RunStore sampleRun()
    {
        RunManifest manifest;
        manifest.skillName = QStringLiteral("rmsnorm");
        manifest.models = {{QStringLiteral("generic:m"), QStringLiteral("generic"), QStringLiteral("m-1")}};
        manifest.startedAt = QStringLiteral("2026-11-30T01:00:00Z");
        RunStore store = std::get<RunStore>(RunStore::create(m_dir.filePath(QStringLiteral("runs")), manifest));
        // Two cases, one repeat: baseline passes 1 of 2, with_skill 2 of 2.
        for (const ItemResult &r :
             {item(kBaselineArm, QStringLiteral("a"), 1, true), item(kBaselineArm, QStringLiteral("b"), 1, false),
              item(kWithSkillArm, QStringLiteral("a"), 1, true), item(kWithSkillArm, QStringLiteral("b"), 1, true)})
            store.append(r);
        return store;
    }

private Q_SLOTS:
    void upskillBatch_hasRunFoldersSummaryAndCsv()
    {
        const RunStore store = sampleRun();
        const QString out = m_dir.filePath(QStringLiteral("upskill"));
        QCOMPARE(exportUpskillBatch(store, out), QString());
        const QJsonObject baseline = readJson(out + QStringLiteral("/run_1/run_result.json"));
        const QJsonObject with = readJson(out + QStringLiteral("/run_2/run_result.json"));
        QCOMPARE(baseline.value(QStringLiteral("run_type")).toString(), QStringLiteral("baseline"));
        QCOMPARE(with.value(QStringLiteral("run_type")).toString(), QStringLiteral("with_skill"));
        QCOMPARE(baseline.value(QStringLiteral("passed")).toBool(), false); // 1 of 2 is not more than half
        QCOMPARE(with.value(QStringLiteral("passed")).toBool(), true);      // +50 points: beneficial
        QCOMPARE(baseline.value(QStringLiteral("assertions_passed")).toInt(), 1);
        QCOMPARE(with.value(QStringLiteral("assertions_passed")).toInt(), 2);
        QCOMPARE(with.value(QStringLiteral("assertions_total")).toInt(), 2);
        const QJsonObject stats = with.value(QStringLiteral("stats")).toObject();
        QCOMPARE(stats.value(QStringLiteral("total_tokens")).toInt(), 240);
        QCOMPARE(stats.value(QStringLiteral("tool_time_ms")).toInt(), 1000);
        QCOMPARE(stats.value(QStringLiteral("execute_calls")).toInt(), 2);
        QCOMPARE(readJson(out + QStringLiteral("/run_1/run_metadata.json")).value(QStringLiteral("run_number")).toInt(),
                 1);
        const QJsonObject batch = readJson(out + QStringLiteral("/batch_summary.json"));
        QCOMPARE(batch.value(QStringLiteral("total_runs")).toInt(), 2);
        QCOMPARE(batch.value(QStringLiteral("passed_runs")).toInt(), 1);
        QFile csv(out + QStringLiteral("/results.csv"));
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 3);
        QVERIFY(lines[0].startsWith("batch_id,run_number,model,task,timestamp,passed"));
        QCOMPARE(lines[0].split(',').size(), lines[2].split(',').size());
    }

    // Issue 33: the with-skill run's "passed" is upskill's own is_beneficial against the baseline of the same model and
    // repeat, not "more than half its cases": 3 of 7 with the skill over 0 of 7 without is beneficial, and 6 of 7
    // over 6 of 7 with as many tokens is not.
    void upskillBatch_withSkillPassed_isUpskillsBeneficialRule()
    {
        RunManifest manifest;
        manifest.skillName = QStringLiteral("changelog");
        manifest.models = {{QStringLiteral("generic:m"), QStringLiteral("generic"), QString()}};
        RunStore store = std::get<RunStore>(RunStore::create(m_dir.filePath(QStringLiteral("runs-verdict")), manifest));
        for (int c = 0; c < 7; ++c) {
            const QString id = QStringLiteral("case-%1").arg(c);
            store.append(item(kBaselineArm, id, 1, false));
            store.append(item(kWithSkillArm, id, 1, c < 3));
            store.append(item(kBaselineArm, id, 2, c < 6));
            store.append(item(kWithSkillArm, id, 2, c < 6));
        }
        const QString out = m_dir.filePath(QStringLiteral("upskill-verdict"));
        QCOMPARE(exportUpskillBatch(store, out), QString());
        const auto result = [&](int run) { return readJson(out + QStringLiteral("/run_%1/run_result.json").arg(run)); };
        QCOMPARE(result(2).value(QStringLiteral("run_type")).toString(), QStringLiteral("with_skill"));
        QCOMPARE(result(2).value(QStringLiteral("passed")).toBool(), true); // 3/7 < half, yet +43 points
        QCOMPARE(result(2).value(QStringLiteral("assertions_passed")).toInt(), 3);
        QCOMPARE(result(2).value(QStringLiteral("assertions_total")).toInt(), 7);
        QCOMPARE(result(3).value(QStringLiteral("passed")).toBool(), true);  // baseline 6/7 > half
        QCOMPARE(result(4).value(QStringLiteral("passed")).toBool(), false); // 6/7 over 6/7, same tokens
        QCOMPARE(readJson(out + QStringLiteral("/batch_summary.json")).value(QStringLiteral("passed_runs")).toInt(), 2);
    }

    void upskillBatch_importedBack_keepsEachArmsPassRate()
    {
        const RunStore store = sampleRun();
        const QString out = m_dir.filePath(QStringLiteral("upskill-roundtrip"));
        QCOMPARE(exportUpskillBatch(store, out), QString());
        auto imported = importUpskillBatch(out, m_dir.filePath(QStringLiteral("imported")));
        QVERIFY(std::holds_alternative<RunStore>(imported));
        const RunStore &again = std::get<RunStore>(imported);
        QCOMPARE(again.results().size(), 4); // 2 cases per arm, as counted
        QCOMPARE(again.manifest().skillName, QStringLiteral("rmsnorm"));
        const RunSummary summary = summarizeRun(again.results());
        QCOMPARE(summary.arm(QStringLiteral("generic:m"), kBaselineArm)->passRate.successes, 1);
        QCOMPARE(summary.arm(QStringLiteral("generic:m"), kWithSkillArm)->passRate.successes, 2);
        qint64 output = 0;
        for (const ItemResult &r : again.results())
            output += r.key.arm == kWithSkillArm ? r.usage.output : 0;
        QCOMPARE(output, 40); // the run's tokens, shared out over its items
        QVERIFY(std::holds_alternative<QString>(importUpskillBatch(m_dir.path(), m_dir.filePath(QStringLiteral("x")))));
    }

    // Issue 33: upskill 0.2.1 printed 0% -> 43% (3 of 7); imported as one item per arm scored by the run's flag it
    // read 0 of 1 -> 1 of 1, +100 points. Now: the counts upskill printed, unpaired, no paired statistic claimed.
    void upskill021Batch_importsThePrintedCounts_unpaired()
    {
        const QString runs = QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/runs/upskill-0.2.1-runs");
        auto imported = importUpskillBatch(runs + QStringLiteral("/2026_12_01_10_15"),
                                           m_dir.filePath(QStringLiteral("imported-021")));
        if (const QString *error = std::get_if<QString>(&imported))
            QFAIL(qPrintable(*error));
        const RunStore &store = std::get<RunStore>(imported);
        QCOMPARE(store.results().size(), 14);
        QCOMPARE(store.manifest().parameters.value(QStringLiteral("granularity")).toString(), QStringLiteral("counts"));
        QCOMPARE(store.manifest().parameters.value(QStringLiteral("paired")).toBool(), false);
        QCOMPARE(store.manifest().status, QStringLiteral("finished"));
        QVERIFY(!store.manifest().finishedAt.isEmpty());
        const QString model = QStringLiteral("generic.qwen2.5-coder-1.5b");
        const RunSummary summary = summarizeRun(store.results());
        QCOMPARE(summary.arm(model, kBaselineArm)->passRate.successes, 0);
        QCOMPARE(summary.arm(model, kBaselineArm)->passRate.trials, 7);
        QCOMPARE(summary.arm(model, kWithSkillArm)->passRate.successes, 3);
        QCOMPARE(summary.arm(model, kWithSkillArm)->passRate.trials, 7);
        const ArmComparison *comparison = summary.comparison(model);
        QVERIFY(!comparison || comparison->table.pairs() == 0);
        qint64 latency = 0;
        for (const ItemResult &r : store.results())
            latency += r.key.arm == kWithSkillArm ? r.latencyMs : 0;
        QCOMPARE(latency, 41234); // the run's span, shared out, not counted seven times

        // upskill's times are local and zoneless ("2026-12-01T10:15:03"), and a run's is when it finished: the batch
        // began at its folder's minute, and every time is kept in UTC like Skillforge's own.
        const auto utc = [](const QDateTime &local) { return local.toUTC().toString(Qt::ISODateWithMs); };
        QCOMPARE(store.manifest().startedAt, utc(QDateTime(QDate(2026, 12, 1), QTime(10, 15))));
        QCOMPARE(store.results().first().startedAt, utc(QDateTime(QDate(2026, 12, 1), QTime(10, 15, 3))));
        QVERIFY(store.results().first().startedAt.endsWith(u'Z'));

        // Interrupted after its baseline: what finished imports, and the run says it was interrupted.
        imported = importUpskillBatch(runs + QStringLiteral("/2026_12_01_11_02"),
                                      m_dir.filePath(QStringLiteral("imported-021-cut")));
        if (const QString *error = std::get_if<QString>(&imported))
            QFAIL(qPrintable(*error));
        const RunStore &cut = std::get<RunStore>(imported);
        QCOMPARE(cut.results().size(), 7);
        QCOMPARE(cut.manifest().status, QStringLiteral("interrupted"));
        QCOMPARE(cut.manifest().parameters.value(QStringLiteral("runs_without_result")).toInt(), 1);

        // upskill's runs/ folder: a batch per eval.
        QCOMPARE(upskillBatchesIn(runs),
                 QStringList({runs + QStringLiteral("/2026_12_01_10_15"), runs + QStringLiteral("/2026_12_01_11_02")}));
        QVERIFY(upskillBatchesIn(runs + QStringLiteral("/2026_12_01_10_15")).isEmpty());
    }

    void upskillV2Batch_eachTestOfEachArmBecomesAnItem_modelsFromTheFolderNames()
    {
        const QString batch = QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/runs/upskill-v2-batch");
        auto imported = importUpskillBatch(batch, m_dir.filePath(QStringLiteral("imported-v2")));
        if (const QString *error = std::get_if<QString>(&imported))
            QFAIL(qPrintable(*error));
        const RunStore &store = std::get<RunStore>(imported);
        QCOMPARE(store.results().size(), 8); // 2 models x 2 arms x 2 tests
        QCOMPARE(store.manifest().skillName, QStringLiteral("cuda-build"));
        QCOMPARE(store.manifest().parameters.value(QStringLiteral("granularity")).toString(), QStringLiteral("test"));
        QCOMPARE(store.manifest().models.size(), 2);
        QCOMPARE(store.manifest().models[0].name, QStringLiteral("hf:moonshotai/Kimi-K2"));
        QCOMPARE(store.manifest().startedAt, // upskill's local "2026-03-30T10:15:01", kept in UTC
                 QDateTime(QDate(2026, 3, 30), QTime(10, 15, 1)).toUTC().toString(Qt::ISODateWithMs));

        QHash<QString, ItemResult> byKey;
        for (const ItemResult &r : store.results())
            byKey.insert(r.key.toString(), r);
        const auto item = [&](const char *model, const QString &arm, const char *test) {
            return byKey.value(ItemKey{QString::fromLatin1(model), arm, QString::fromLatin1(test), 1}.toString());
        };
        const ItemResult kimiBaseline2 = item("hf:moonshotai/Kimi-K2", kBaselineArm, "test_2");
        QVERIFY(!kimiBaseline2.passed);
        QCOMPARE(kimiBaseline2.answer, QStringLiteral("stdio.h"));
        QCOMPARE(kimiBaseline2.usage.uncachedInput, 102);
        QCOMPARE(kimiBaseline2.latencyMs, 1502);
        QCOMPARE(kimiBaseline2.toolCallCounts.value(QStringLiteral("execute")), 1);
        QVERIFY(kimiBaseline2.verifiers.first().evidence.contains(QStringLiteral("cuda_runtime.h")));
        QVERIFY(item("hf:moonshotai/Kimi-K2", kWithSkillArm, "test_2").passed);
        const ItemResult sonnetError = item("sonnet", kBaselineArm, "test_2");
        QCOMPARE(sonnetError.error, QStringLiteral("429 Too Many Requests"));
        QCOMPARE(sonnetError.stopReason, StopReason::Error);

        // Case by case, the arms pair up: with the skill both tests pass, without it only test_1.
        const RunSummary summary = summarizeRun(store.results());
        QCOMPARE(summary.comparison(QStringLiteral("hf:moonshotai/Kimi-K2"))->table.pairs(), 2);
        QCOMPARE(summary.comparison(QStringLiteral("hf:moonshotai/Kimi-K2"))->lift, 0.5);
    }

    void upskillV1Batch_withoutPerTestResults_importsItsCounts_orOneItemPerRunWithout()
    {
        const QString batch = m_dir.filePath(QStringLiteral("v1-batch"));
        QVERIFY(QDir().mkpath(batch + QStringLiteral("/run_1")));
        QFile file(batch + QStringLiteral("/run_1/run_result.json"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"metadata": {"model": "kimi", "task": "t", "batch_id": "b", "run_number": 1,
                       "timestamp": "2026-01-01T00:00:00"}, "passed": true, "assertions_passed": 2,
                       "assertions_total": 2, "run_type": "with_skill", "skill_name": "s"})");
        file.close();
        auto imported = importUpskillBatch(batch, m_dir.filePath(QStringLiteral("imported-v1")));
        QVERIFY(std::holds_alternative<RunStore>(imported));
        const RunStore &store = std::get<RunStore>(imported);
        QCOMPARE(store.results().size(), 2);
        QCOMPARE(store.results().first().key.caseId, QStringLiteral("run1-1"));
        QCOMPARE(store.manifest().parameters.value(QStringLiteral("granularity")).toString(), QStringLiteral("counts"));

        // No counts at all: the run's own flag, one item for the whole suite.
        const QString bare = m_dir.filePath(QStringLiteral("v1-batch-bare"));
        QVERIFY(QDir().mkpath(bare + QStringLiteral("/run_1")));
        QFile flagOnly(bare + QStringLiteral("/run_1/run_result.json"));
        QVERIFY(flagOnly.open(QIODevice::WriteOnly));
        flagOnly.write(R"({"metadata": {"model": "kimi", "task": "t", "batch_id": "b", "run_number": 1,
                           "timestamp": "2026-01-01T00:00:00"}, "passed": true, "run_type": "with_skill"})");
        flagOnly.close();
        imported = importUpskillBatch(bare, m_dir.filePath(QStringLiteral("imported-v1-bare")));
        QVERIFY(std::holds_alternative<RunStore>(imported));
        QCOMPARE(std::get<RunStore>(imported).results().size(), 1);
        QCOMPARE(std::get<RunStore>(imported).results().first().key.caseId, QStringLiteral("suite"));
        QCOMPARE(std::get<RunStore>(imported).manifest().parameters.value(QStringLiteral("granularity")).toString(),
                 QStringLiteral("run"));
    }

    void upskillTestResultThatIsNotJson_isAnErrorNamingTheFile()
    {
        const QString batch = m_dir.filePath(QStringLiteral("broken-batch"));
        QVERIFY(QDir().mkpath(batch + QStringLiteral("/eval_kimi/baseline/test_1")));
        QFile file(batch + QStringLiteral("/eval_kimi/baseline/test_1/test_result.json"));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"success\": tru");
        file.close();
        auto imported = importUpskillBatch(batch, m_dir.filePath(QStringLiteral("imported-broken")));
        QVERIFY(std::holds_alternative<QString>(imported));
        QVERIFY2(std::get<QString>(imported).contains(QStringLiteral("test_1/test_result.json")),
                 qPrintable(std::get<QString>(imported)));
    }

    void skillCreatorBenchmark_hasConfigurationsSummaryAndDeltas()
    {
        const RunStore store = sampleRun();
        const QString path = m_dir.filePath(QStringLiteral("benchmark.json"));
        QCOMPARE(exportSkillCreatorBenchmark(store, QStringLiteral("generic:m"), path), QString());
        const QJsonObject b = readJson(path);
        QCOMPARE(b.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("executor_model")).toString(),
                 QStringLiteral("generic:m"));
        QCOMPARE(b.value(QStringLiteral("runs")).toArray().size(), 4);
        const QJsonObject first = b.value(QStringLiteral("runs")).toArray().first().toObject();
        QCOMPARE(first.value(QStringLiteral("configuration")).toString(), QStringLiteral("without_skill"));
        QCOMPARE(first.value(QStringLiteral("expectations"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("text"))
                     .toString(),
                 QStringLiteral("expected.contains"));
        const QJsonObject summary = b.value(QStringLiteral("run_summary")).toObject();
        const QJsonObject without =
            summary.value(QStringLiteral("without_skill")).toObject().value(QStringLiteral("pass_rate")).toObject();
        QCOMPARE(without.value(QStringLiteral("mean")).toDouble(), 0.5);
        QVERIFY(qAbs(without.value(QStringLiteral("stddev")).toDouble() - std::sqrt(0.5)) <
                1e-12); // sample stddev of {1, 0}
        QCOMPARE(summary.value(QStringLiteral("delta")).toObject().value(QStringLiteral("pass_rate")).toString(),
                 QStringLiteral("+0.50"));
        QCOMPARE(summary.value(QStringLiteral("delta")).toObject().value(QStringLiteral("tokens")).toString(),
                 QStringLiteral("+0"));
    }
};

SF_TEST_GUILESS_MAIN(TestRunExport)
#include "test_run_export.moc"
