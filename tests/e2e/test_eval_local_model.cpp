// `skillforge eval` against the real llama-server and the model installed by scripts/setup-local-model.
#include "SkippedChecks.h"
#include "common/ChildProcess.h"
#include "llm/LocalRuntime.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <cstdio>

class TestEvalLocalModel final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    static void write(const QString &path, const QByteArray &content)
    {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
    }

private Q_SLOTS:
    void smallRun_completesWithEveryFieldFilled()
    {
        const QString skill = m_dir.filePath(QStringLiteral("cuda-basics"));
        write(skill + QStringLiteral("/SKILL.md"),
              "---\nname: cuda-basics\ndescription: Explain CUDA terms briefly.\n---\n"
              "When asked about CUDA, mention the GPU and threads in one sentence.\n");
        const QString suite = m_dir.filePath(QStringLiteral("suite.json"));
        write(suite,
              R"([{"id": "kernel", "input": "In one sentence: what is a CUDA kernel?", "expected": {"contains": "GPU"}},
                        {"id": "warp", "input": "In one sentence: what is a warp in CUDA?", "split": "heldout",
                         "verifiers": [{"type": "not_contains", "values": ["<|im_"]}]}])");
        QProcess process;
        sf::endWithParent(&process); // killed by QtTest's watchdog, the test takes skillforge (and its server) along
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SKILLFORGE_LLAMA_SERVER"), sf::LocalRuntime::llamaServerPath());
        env.insert(QStringLiteral("SKILLFORGE_LOCAL_MODEL"), sf::LocalRuntime::modelPath());
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE),
                      {QStringLiteral("eval"), skill, QStringLiteral("--tests"), suite, QStringLiteral("--model"),
                       sf::LocalRuntime::qualifiedModelName(), QStringLiteral("--no-tools"),
                       QStringLiteral("--max-output-tokens"), QStringLiteral("48"), QStringLiteral("--temperature"),
                       QStringLiteral("0"), QStringLiteral("--seed"), QStringLiteral("7"),
                       QStringLiteral("--concurrency"), QStringLiteral("2"), QStringLiteral("--out"),
                       m_dir.filePath(QStringLiteral("runs")), QStringLiteral("--json")});
        QVERIFY(process.waitForFinished(280000));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0, qPrintable(err));
        const QJsonObject json = QJsonDocument::fromJson(process.readAllStandardOutput()).object();
        const QJsonObject run = json.value(QStringLiteral("run")).toObject();
        QCOMPARE(run.value(QStringLiteral("status")).toString(), QStringLiteral("finished"));
        for (const char *key : {"run_id", "app_version", "host", "started_at", "finished_at"})
            QVERIFY2(!run.value(QLatin1String(key)).toString().isEmpty(), key);
        QVERIFY(run.value(QStringLiteral("skill"))
                    .toObject()
                    .value(QStringLiteral("content_hash"))
                    .toString()
                    .startsWith(QStringLiteral("sha256:")));
        QVERIFY(run.value(QStringLiteral("suite"))
                    .toObject()
                    .value(QStringLiteral("hash"))
                    .toString()
                    .startsWith(QStringLiteral("sha256:")));
        const QJsonObject model = run.value(QStringLiteral("models")).toArray().first().toObject();
        QCOMPARE(model.value(QStringLiteral("provider")).toString(), QStringLiteral("local"));
        QVERIFY(!model.value(QStringLiteral("resolved_id")).toString().isEmpty());
        const QJsonObject parameters = run.value(QStringLiteral("parameters")).toObject();
        QCOMPARE(parameters.value(QStringLiteral("temperature")).toDouble(), 0.0);
        QCOMPARE(parameters.value(QStringLiteral("seed")).toInt(), 7);

        const QString runDir = json.value(QStringLiteral("run_dir")).toString();
        QFile results(QDir(runDir).filePath(QStringLiteral("results.jsonl")));
        QVERIFY(results.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = results.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 4); // 2 cases x 2 arms x 1 repeat
        for (const QByteArray &line : lines) {
            const QJsonObject r = QJsonDocument::fromJson(line).object();
            QVERIFY2(r.value(QStringLiteral("error")).isNull(), line.constData());
            QCOMPARE(r.value(QStringLiteral("stop_reason")).toString(), QStringLiteral("answered"));
            QVERIFY(!r.value(QStringLiteral("answer")).toString().trimmed().isEmpty());
            QVERIFY(!r.value(QStringLiteral("resolved_model")).toString().isEmpty());
            QVERIFY(r.value(QStringLiteral("usage")).toObject().value(QStringLiteral("output")).toInt() > 0);
            QVERIFY(r.value(QStringLiteral("usage")).toObject().value(QStringLiteral("uncached_input")).toInt() +
                        r.value(QStringLiteral("usage")).toObject().value(QStringLiteral("cache_read")).toInt() >
                    0);
            QCOMPARE(r.value(QStringLiteral("cost_usd")).toDouble(-1), 0.0); // this machine: free, and known to be
            QVERIFY(r.value(QStringLiteral("latency_ms")).toInt() > 0);
            QVERIFY(r.value(QStringLiteral("llm_ms")).toInt() > 0);
            QCOMPARE(r.value(QStringLiteral("turns")).toInt(), 1);
            QVERIFY(!r.value(QStringLiteral("verifiers")).toArray().isEmpty());
            QVERIFY(!r.value(QStringLiteral("started_at")).toString().isEmpty());
            QVERIFY(QFile::exists(QDir(runDir).filePath(r.value(QStringLiteral("transcript")).toString())));
        }
        const QJsonArray arms =
            json.value(QStringLiteral("summary")).toObject().value(QStringLiteral("arms")).toArray();
        QCOMPARE(arms.size(), 6); // all, train and heldout for each arm
        QCOMPARE(json.value(QStringLiteral("summary")).toObject().value(QStringLiteral("comparisons")).toArray().size(),
                 3);
    }

    void tools_theEmbeddedModelWritesAFileThroughWriteFile()
    {
        // The model writes its tool calls into the text (seen: a fenced JSON object); they must still run.
        const QString skill = m_dir.filePath(QStringLiteral("greeting"));
        write(
            skill + QStringLiteral("/SKILL.md"),
            "---\nname: greeting\ndescription: Greet in files.\n---\nWrite greetings into the file the task names.\n");
        const QString suite = m_dir.filePath(QStringLiteral("tools-suite.json"));
        write(
            suite,
            R"([{"id": "hello", "input": "Use the write_file tool to write a file hello.txt that contains the word hi. Then reply done.",
                          "verifiers": [{"type": "file_contains", "path": "hello.txt", "text": "hi"}]}])");
        QProcess process;
        sf::endWithParent(&process);
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE),
                      {QStringLiteral("eval"), skill, QStringLiteral("--tests"), suite, QStringLiteral("--model"),
                       sf::LocalRuntime::qualifiedModelName(), QStringLiteral("--max-output-tokens"),
                       QStringLiteral("96"), QStringLiteral("--temperature"), QStringLiteral("0"),
                       QStringLiteral("--seed"), QStringLiteral("7"), QStringLiteral("--concurrency"),
                       QStringLiteral("2"), QStringLiteral("--out"), m_dir.filePath(QStringLiteral("tool-runs")),
                       QStringLiteral("--json")});
        QVERIFY(process.waitForFinished(280000));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0, qPrintable(err));
        const QJsonObject json = QJsonDocument::fromJson(process.readAllStandardOutput()).object();
        QFile results(QDir(json.value(QStringLiteral("run_dir")).toString()).filePath(QStringLiteral("results.jsonl")));
        QVERIFY(results.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = results.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        for (const QByteArray &line : lines) {
            const QJsonObject r = QJsonDocument::fromJson(line).object();
            QVERIFY2(r.value(QStringLiteral("error")).isNull(), line.constData());
            QVERIFY2(r.value(QStringLiteral("tool_calls")).toInt() >= 1, line.constData());
            QVERIFY2(r.value(QStringLiteral("passed")).toBool(), line.constData());
        }
    }
};

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (!sf::LocalRuntime::isInstalled()) {
        return sf::test::skipAll(sf::LocalRuntime::missingReason());
    }
    TestEvalLocalModel test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_eval_local_model.moc"
