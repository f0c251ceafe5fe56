#include "SkippedChecks.h"
#include "eval/RunStore.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;

namespace {

ItemResult result(const QString &caseId, bool passed)
{
    ItemResult r;
    r.key = {QStringLiteral("generic:m"), kWithSkillArm, caseId, 1};
    r.passed = passed;
    r.usage.uncachedInput = 12;
    r.usage.cacheRead = 3;
    r.usage.output = 5;
    r.stopReason = StopReason::Answered;
    VerifierOutcome v;
    v.type = QStringLiteral("contains");
    v.passed = passed;
    v.evidence = QStringLiteral("found all of: \"x\"");
    r.verifiers.append(v);
    return r;
}

} // namespace

class TestRunStore final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void create_writesTheManifest_withACollisionFreeId()
    {
        QTemporaryDir runs;
        RunManifest manifest;
        manifest.skillName = QStringLiteral("s");
        manifest.skillHash = QStringLiteral("sha256:ab");
        manifest.models = {{QStringLiteral("generic:m"), QStringLiteral("generic"), {}}};
        manifest.parameters = {{QStringLiteral("runs"), 3}};
        QSet<QString> ids;
        for (int i = 0; i < 5; ++i) {
            auto store = RunStore::create(runs.path(), manifest);
            QVERIFY(std::holds_alternative<RunStore>(store));
            ids.insert(std::get<RunStore>(store).manifest().runId);
        }
        QCOMPARE(ids.size(), 5);
        auto reopened = RunStore::open(QDir(runs.path()).filePath(*ids.begin()));
        QVERIFY(std::holds_alternative<RunStore>(reopened));
        const RunManifest &m = std::get<RunStore>(reopened).manifest();
        QCOMPARE(m.skillHash, QStringLiteral("sha256:ab"));
        QCOMPARE(m.models.first().provider, QStringLiteral("generic"));
        QCOMPARE(m.parameters.value(QStringLiteral("runs")).toInt(), 3);
    }

    void append_thenOpen_readsEveryResultBack()
    {
        QTemporaryDir runs;
        auto created = RunStore::create(runs.path(), {});
        RunStore store = std::get<RunStore>(std::move(created));
        QCOMPARE(store.append(result(QStringLiteral("a"), true)), QString());
        QCOMPARE(store.append(result(QStringLiteral("b"), false)), QString());
        auto reopened = RunStore::open(store.dir(), RunStore::Access::ReadOnly);
        const RunStore &again = std::get<RunStore>(reopened);
        QCOMPARE(again.results().size(), 2);
        const ItemResult &first = again.results().first();
        QCOMPARE(first.key, result(QStringLiteral("a"), true).key);
        QCOMPARE(first.usage.cacheRead, 3);
        QCOMPARE(first.verifiers.first().evidence, QStringLiteral("found all of: \"x\""));
        QVERIFY(!first.costUsd);
        QVERIFY(again.hasResult(first.key));
    }

    void open_dropsACutLastLine_andAppendsContinueCleanly()
    {
        QTemporaryDir runs;
        RunStore store = std::get<RunStore>(RunStore::create(runs.path(), {}));
        QCOMPARE(store.append(result(QStringLiteral("a"), true)), QString());
        QFile file(QDir(store.dir()).filePath(QStringLiteral("results.jsonl")));
        QVERIFY(file.open(QIODevice::Append));
        file.write("{\"model\":\"generic:m\",\"arm\":\"with_skill\",\"ca"); // a kill -9 in the middle of a write
        file.close();
        store.releaseWriterLock(); // the killed writer's lock went with it
        RunStore again = std::get<RunStore>(RunStore::open(store.dir()));
        QCOMPARE(again.results().size(), 1);
        QCOMPARE(again.append(result(QStringLiteral("b"), true)), QString());
        const RunStore third = std::get<RunStore>(RunStore::open(store.dir(), RunStore::Access::ReadOnly));
        QCOMPARE(third.results().size(), 2);
        QCOMPARE(third.results().last().key.caseId, QStringLiteral("b"));
    }

    void aSecondLineForAnItem_supersedesTheFirst_inMemoryAndOnReading()
    {
        QTemporaryDir runs;
        RunStore store = std::get<RunStore>(RunStore::create(runs.path(), {}));
        ItemResult failed = result(QStringLiteral("a"), false);
        failed.stopReason = StopReason::Error;
        failed.error = QStringLiteral("HTTP 503");
        QCOMPARE(store.append(failed), QString());
        QCOMPARE(store.append(result(QStringLiteral("b"), true)), QString());
        QCOMPARE(store.append(result(QStringLiteral("a"), true)), QString()); // the retry
        QCOMPARE(store.results().size(), 2);
        QVERIFY(!store.results().first().isError());
        QVERIFY(store.results().first().passed);

        // The file keeps the history: three lines, of which readers keep the last per item.
        QFile file(QDir(store.dir()).filePath(QStringLiteral("results.jsonl")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll().count('\n'), 3);
        const RunStore again = std::get<RunStore>(RunStore::open(store.dir(), RunStore::Access::ReadOnly));
        QCOMPARE(again.results().size(), 2);
        QCOMPARE(again.results().first().key.caseId, QStringLiteral("a"));
        QVERIFY(again.results().first().passed);
        QVERIFY(!again.results().first().isError());
    }

    void oneWriterPerRun_aSecondIsRefusedNamingTheFirst_readersAreNot()
    {
        QTemporaryDir runs;
        RunStore writer = std::get<RunStore>(RunStore::create(runs.path(), {}));
        QCOMPARE(writer.append(result(QStringLiteral("a"), true)), QString());
        const std::optional<QString> holder = RunLock::holder(writer.dir());
        QVERIFY(holder);
        QVERIFY2(holder->contains(QStringLiteral("pid %1 on ").arg(QCoreApplication::applicationPid())), qPrintable(*holder));

        auto second = RunStore::open(writer.dir());
        QVERIFY(std::holds_alternative<LoadError>(second));
        const QString refusal = std::get<LoadError>(second).toString();
        QVERIFY2(refusal.contains(QStringLiteral("is being written by")) &&
                     refusal.contains(QString::number(QCoreApplication::applicationPid())),
                 qPrintable(refusal));
        // Reading needs no lock, and looking at the holder takes none.
        auto reader = RunStore::open(writer.dir(), RunStore::Access::ReadOnly);
        QVERIFY(std::holds_alternative<RunStore>(reader));
        QCOMPARE(std::get<RunStore>(reader).results().size(), 1);
        QCOMPARE(writer.append(result(QStringLiteral("b"), true)), QString());

        // The writer is done: the run is free, and a resume may take it.
        writer.releaseWriterLock();
        QVERIFY(!RunLock::holder(writer.dir()));
        auto resumed = RunStore::open(writer.dir());
        QVERIFY(std::holds_alternative<RunStore>(resumed));
        QCOMPARE(std::get<RunStore>(resumed).results().size(), 2);
    }

    void open_missingOrBrokenManifest_isALoadError()
    {
        QTemporaryDir dir;
        auto missing = RunStore::open(dir.path());
        QVERIFY(std::holds_alternative<LoadError>(missing));
        QFile manifest(dir.filePath(QStringLiteral("run.json")));
        QVERIFY(manifest.open(QIODevice::WriteOnly));
        manifest.write("{\n  \"run_id\": ,\n}");
        manifest.close();
        auto broken = RunStore::open(dir.path());
        QCOMPARE(std::get<LoadError>(broken).line, 2);
    }

    void transcriptAndWorkspace_liveInsideTheRun()
    {
        QTemporaryDir runs;
        const RunStore store = std::get<RunStore>(RunStore::create(runs.path(), {}));
        const ItemKey key{QStringLiteral("hf:org/model:groq"), kBaselineArm, QStringLiteral("case 1"), 2};
        const QString relative = store.writeTranscript(key, {{QStringLiteral("messages"), QJsonArray()}});
        QVERIFY(relative.startsWith(QStringLiteral("transcripts/")));
        QVERIFY(!relative.contains(u':'));
        QVERIFY(QFile::exists(QDir(store.dir()).filePath(relative)));
        const QString workspace = store.freshWorkspace(key);
        QVERIFY(workspace.startsWith(store.dir()));
        QFile stale(QDir(workspace).filePath(QStringLiteral("stale.txt")));
        QVERIFY(stale.open(QIODevice::WriteOnly));
        stale.close();
        QCOMPARE(store.freshWorkspace(key), workspace);
        QVERIFY(QDir(workspace).isEmpty());
    }
};

SF_TEST_GUILESS_MAIN(TestRunStore)
#include "test_run_store.moc"
