// `skillforge trigger` against the real llama-server and the model installed by scripts/setup-local-model.
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

class TestTriggerLocalModel final : public QObject
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
    void trigger_embeddedModel_answersEveryTrialAgainstTheCatalogue()
    {
        const QString skill = m_dir.filePath(QStringLiteral("cuda-kernels"));
        write(skill + QStringLiteral("/SKILL.md"),
              "---\nname: cuda-kernels\ndescription: Write and optimise CUDA kernels (softmax, layernorm, matmul) for "
              "NVIDIA GPUs. Use whenever the user asks for a CUDA kernel or GPU code.\n---\nUse shared memory.\n");
        const QString queries = m_dir.filePath(QStringLiteral("eval_set.json"));
        write(queries, R"([
          {"query": "Write a CUDA kernel that computes softmax over the rows of a matrix on the GPU.", "should_trigger": true},
          {"query": "Optimise my CUDA layernorm kernel, it is slow on an A100.", "should_trigger": true},
          {"query": "Extract the tables from report.pdf into CSV.", "should_trigger": false},
          {"query": "Write a commit message for this diff: fixed a typo in README.", "should_trigger": false}])");
        QProcess process;
        sf::endWithParent(&process); // killed by QtTest's watchdog, the test takes skillforge (and its server) along
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("SKILLFORGE_LLAMA_SERVER"), sf::LocalRuntime::llamaServerPath());
        env.insert(QStringLiteral("SKILLFORGE_LOCAL_MODEL"), sf::LocalRuntime::modelPath());
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE),
                      {QStringLiteral("trigger"), skill, QStringLiteral("--queries"), queries,
                       QStringLiteral("--model"), sf::LocalRuntime::qualifiedModelName(), QStringLiteral("--runs"),
                       QStringLiteral("1"), QStringLiteral("--catalogue"), QStringLiteral("bundled"),
                       QStringLiteral("--max-tokens"), QStringLiteral("96"), QStringLiteral("--concurrency"),
                       QStringLiteral("2"), QStringLiteral("--json")});
        QVERIFY(process.waitForFinished(560000));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0, qPrintable(err));
        const QJsonObject json = QJsonDocument::fromJson(process.readAllStandardOutput()).object();
        QCOMPARE(json.value(QStringLiteral("stop_reason")).toString(), QStringLiteral("complete"));
        QVERIFY(json.value(QStringLiteral("catalogue")).toArray().contains(QStringLiteral("cuda-kernels")));
        const QJsonObject model = json.value(QStringLiteral("models")).toArray().first().toObject();
        QCOMPARE(model.value(QStringLiteral("errors")).toInt(), 0);
        QCOMPARE(model.value(QStringLiteral("queries")).toInt(), 4);
        QCOMPARE(model.value(QStringLiteral("recall")).toObject().value(QStringLiteral("n")).toInt(), 2);
        QCOMPARE(model.value(QStringLiteral("false_positive_rate")).toObject().value(QStringLiteral("n")).toInt(), 2);
        QCOMPARE(model.value(QStringLiteral("cost_usd")).toDouble(-1), 0.0); // this machine: free, and known to be
        const QJsonArray rows = json.value(QStringLiteral("queries")).toArray();
        QCOMPARE(rows.size(), 4);
        for (const QJsonValue &row : rows)
            QCOMPARE(row.toObject().value(QStringLiteral("trials")).toInt(), 1);
        // What the small model chose is its own business; printed so a person can see it.
        std::fprintf(stderr, "recall %d/2, false positives %d/2\n",
                     model.value(QStringLiteral("recall")).toObject().value(QStringLiteral("k")).toInt(),
                     model.value(QStringLiteral("false_positive_rate")).toObject().value(QStringLiteral("k")).toInt());
    }
};

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (!sf::LocalRuntime::isInstalled()) {
        return sf::test::skipAll(sf::LocalRuntime::missingReason());
    }
    TestTriggerLocalModel test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_trigger_local_model.moc"
