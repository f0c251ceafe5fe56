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
        QCOMPARE(with.value(QStringLiteral("passed")).toBool(), true);
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

    void upskillBatch_importedBack_pairsTheArms()
    {
        const RunStore store = sampleRun();
        const QString out = m_dir.filePath(QStringLiteral("upskill-roundtrip"));
        QCOMPARE(exportUpskillBatch(store, out), QString());
        auto imported = importUpskillBatch(out, m_dir.filePath(QStringLiteral("imported")));
        QVERIFY(std::holds_alternative<RunStore>(imported));
        const RunStore &again = std::get<RunStore>(imported);
        QCOMPARE(again.results().size(), 2);
        QCOMPARE(again.manifest().skillName, QStringLiteral("rmsnorm"));
        QCOMPARE(again.results()[0].key.arm, kBaselineArm);
        QCOMPARE(again.results()[1].key.repeat, 1);
        QCOMPARE(again.results()[1].passed, true);
        QCOMPARE(again.results()[1].usage.output, 40);
        QVERIFY(std::holds_alternative<QString>(importUpskillBatch(m_dir.path(), m_dir.filePath(QStringLiteral("x")))));
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
        QCOMPARE(store.manifest().startedAt, QStringLiteral("2026-03-30T10:15:01"));

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

    void upskillV1Batch_withoutPerTestResults_importsOneItemPerRun()
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
        QCOMPARE(store.results().size(), 1);
        QCOMPARE(store.results().first().key.caseId, QStringLiteral("suite"));
        QCOMPARE(store.manifest().parameters.value(QStringLiteral("granularity")).toString(), QStringLiteral("run"));
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

QTEST_GUILESS_MAIN(TestRunExport)
#include "test_run_export.moc"
