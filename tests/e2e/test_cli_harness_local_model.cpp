// `skillforge eval --harness claude-code|codex` on the embedded model: the real CLIs, in the sandbox, reaching the
// real llama-server (its /v1/messages and /v1/responses) through the door. A 1.5B model makes no lift here; this
// checks the plumbing: every item judged, each CLI's session kept and read, its tokens the door's, and what a
// request and an item cost. Skipped (77) without the local model, the pinned CLIs or a sandbox.
#include "SkippedChecks.h"
#include "agents/AgentCliInstall.h"
#include "agents/Harness.h"
#include "common/ChildProcess.h"
#include "llm/LocalRuntime.h"
#include "sandbox/Sandbox.h"
#include "trace/TraceImport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

void write(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
}

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object() : QJsonObject();
}

} // namespace

class TestCliHarnessLocalModel final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    void runOn(const QString &harness)
    {
        // SKILLFORGE_TEST_KEEP=1 keeps the run folders (door records, the CLI's session) to read after a failure.
        m_dir.setAutoRemove(qEnvironmentVariableIsEmpty("SKILLFORGE_TEST_KEEP"));
        if (!LocalRuntime::isInstalled())
            QSKIP("the local model is not installed (scripts/setup-local-model)");
        if (const Result<AgentCliBinary> cli = findAgentCli(harness, {}); !cli)
            SF_SKIP_BECAUSE(cli.error);
        if (!sandboxAvailable())
            QSKIP("no bubblewrap sandbox here");
        const QString skill = m_dir.filePath(u"skills/answer-style"_s);
        write(skill + u"/SKILL.md"_s,
              "---\nname: answer-style\ndescription: How to answer arithmetic questions. Use for any sum.\n---\n\n"
              "Answer with the number alone.\n");
        const QString suite = m_dir.filePath(u"suite.json"_s);
        write(suite, R"([{"id": "sum", "input": "What is 2 + 3? Answer with the number alone.",
                          "expected": {"contains": ["5"]}}])");
        const QString runsDir = m_dir.filePath(u"runs-"_s + harness);
        QProcess process;
        sf::endWithParent(&process);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"SKILLFORGE_LLAMA_SERVER"_s, LocalRuntime::llamaServerPath());
        env.insert(u"SKILLFORGE_LOCAL_MODEL"_s, LocalRuntime::modelPath());
        process.setProcessEnvironment(env);
        QElapsedTimer clock;
        clock.start();
        // One at a time: the second item finds the CLI's long prefix in the server's prompt cache.
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE),
                      {u"eval"_s, skill, u"--tests"_s, suite, u"--model"_s, LocalRuntime::qualifiedModelName(),
                       u"--harness"_s, harness, u"--max-output-tokens"_s, u"64"_s, u"--timeout"_s, u"900"_s,
                       u"--concurrency"_s, u"1"_s, u"--out"_s, runsDir, u"--json"_s});
        QVERIFY(process.waitForFinished(1700000));
        const qint64 wallMs = clock.elapsed();
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QVERIFY2(process.exitStatus() == QProcess::NormalExit && process.exitCode() == 0, qPrintable(err));
        const QJsonObject json = QJsonDocument::fromJson(process.readAllStandardOutput()).object();
        const QString runDir = json.value("run_dir"_L1).toString();
        QCOMPARE(json.value("run"_L1).toObject().value("harness"_L1).toObject().value("name"_L1).toString(), harness);

        QFile results(QDir(runDir).filePath(u"results.jsonl"_s));
        QVERIFY(results.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = results.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        for (const QByteArray &line : lines) {
            const QJsonObject item = QJsonDocument::fromJson(line).object();
            const QString name = item.value("arm"_L1).toString();
            QVERIFY2(item.value("error"_L1).isNull(), qPrintable(name + u": "_s + item.value("error"_L1).toString()));
            // The CLI's own session file was kept and reads as a trace; its tokens are those the door counted.
            const QString session = item.value("harness_session"_L1).toString();
            QVERIFY2(!session.isEmpty(), qPrintable(name));
            const Result<Trace> trace = importTrace(QDir(runDir).filePath(session));
            QVERIFY2(trace.ok(), qPrintable(trace.error));
            const QJsonObject transcript = readJson(QDir(runDir).filePath(item.value("transcript"_L1).toString()));
            const QJsonArray requests = transcript.value("requests"_L1).toArray();
            QVERIFY(!requests.isEmpty());
            qint64 doorTokens = 0;
            QStringList perRequest;
            for (const QJsonValue &r : requests) {
                const QJsonObject usage = r.toObject().value("usage"_L1).toObject();
                const qint64 input = usage.value("uncached_input"_L1).toInteger() +
                                     usage.value("cache_read"_L1).toInteger() +
                                     usage.value("cache_write_5m"_L1).toInteger();
                const qint64 output = usage.value("output"_L1).toInteger();
                doorTokens += input + output;
                perRequest.append(u"%1 in + %2 out"_s.arg(input).arg(output));
                QVERIFY2(output <= 64, "the door caps output at the run's limit");
            }
            const TokenUsage fromSession = trace.value->totalUsage();
            QCOMPARE(fromSession.totalInput() + fromSession.output, doorTokens);
            // The CLI's own instructions, tools and skill listing make its first prompt long.
            const QJsonObject first = requests.first().toObject().value("usage"_L1).toObject();
            QVERIFY(first.value("uncached_input"_L1).toInteger() + first.value("cache_read"_L1).toInteger() > 3000);
            qInfo().noquote() << u"%1 %2: %3 s, %4 requests (%5), start-up %6 ms, skill loaded: %7"_s.arg(
                Harness::label(harness), name, QString::number(item.value("latency_ms"_L1).toDouble() / 1000.0, 'f', 1),
                QString::number(requests.size()), perRequest.join(u"; "_s),
                QString::number(item.value("cli_startup_ms"_L1).toInteger()),
                item.contains("skill_loaded"_L1) ? (item.value("skill_loaded"_L1).toBool() ? u"yes"_s : u"no"_s)
                                                 : u"-"_s);
        }
        qInfo().noquote()
            << u"%1 on the embedded model: 2 items in %2 s"_s.arg(Harness::label(harness)).arg(wallMs / 1000);
    }

private Q_SLOTS:
    void claudeCode_onTheEmbeddedModel_sessionKeptAndTokensAgree() { runOn(Harness::ClaudeCode); }
    void codex_onTheEmbeddedModel_sessionKeptAndTokensAgree() { runOn(Harness::Codex); }
};

SF_TEST_GUILESS_MAIN(TestCliHarnessLocalModel)
#include "test_cli_harness_local_model.moc"
