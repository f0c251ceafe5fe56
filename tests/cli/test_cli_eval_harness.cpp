// `skillforge eval --harness claude-code` as a user runs it, under faults: the real executable and the real Claude
// Code binary against scripted endpoints that hang, so that Skillforge is killed mid-item, an item runs into its
// timeout, or the CLI crashes. No CLI process may outlive its item, and --resume finishes the run with one result per
// item. Skipped (77) when the pinned Claude Code is not installed or there is no sandbox.
#include "ScriptedAgentEndpoints.h"
#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "agents/AgentCliInstall.h"
#include "agents/Harness.h"
#include "sandbox/Sandbox.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <csignal>

using namespace sf;
using namespace sf::test;
using namespace Qt::StringLiterals;

namespace {

const QByteArray kKey = "sk-harness-faults-key-2Kd8";

void write(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
}

/// The sandboxes (bubblewrap, which the CLI and its children live in) whose command line names @p folder: an item's
/// CLI still running. Other tests' CLIs, in other folders, are not counted.
QStringList sandboxesRunning(const QString &folder)
{
    QProcess pgrep;
    pgrep.start(u"pgrep"_s, {u"-f"_s, u"^/usr/bin/bwrap .*"_s + folder});
    pgrep.waitForFinished(10000);
    return QString::fromUtf8(pgrep.readAllStandardOutput()).split(u'\n', Qt::SkipEmptyParts);
}

/// results.jsonl's lines by item key: how often each item was recorded.
QHash<QString, int> recordedItems(const QString &runDir)
{
    QHash<QString, int> counts;
    QFile file(QDir(runDir).filePath(u"results.jsonl"_s));
    if (!file.open(QIODevice::ReadOnly))
        return counts;
    for (const QByteArray &line : file.readAll().split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (!o.isEmpty())
            counts[o.value("arm"_L1).toString() + u'|' + o.value("case"_L1).toString()] += 1;
    }
    return counts;
}

QString onlyRunIn(const QString &runsDir)
{
    const QStringList runs = QDir(runsDir).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    return runs.size() == 1 ? QDir(runsDir).filePath(runs.first()) : QString();
}

} // namespace

class TestCliEvalHarness final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_claude;
    std::unique_ptr<ScriptedHttpServer> m_upstream;
    std::unique_ptr<ScriptedAgentEndpoints> m_endpoints;
    int m_hangRequests = 0; ///< the first this many main requests never get an answer

    QString skillDir() const { return m_dir.filePath(u"skills/csv-tidy"_s); }
    QString suitePath() const { return m_dir.filePath(u"suite.json"_s); }

    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"ANTHROPIC_BASE_URL"_s, m_upstream->baseUrl().toString());
        env.insert(u"ANTHROPIC_API_KEY"_s, QString::fromLatin1(kKey));
        env.insert(u"SKILLFORGE_CLAUDE_CODE_CLI"_s, m_claude);
        return env;
    }

    void start(QProcess &process, const QStringList &arguments)
    {
        process.setProcessEnvironment(environment());
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE), arguments);
        QVERIFY(process.waitForStarted());
    }

    /// Runs skillforge to its end (the event loop keeps serving the scripted endpoints meanwhile).
    int finish(QProcess &process, int timeoutMs = 180000)
    {
        QElapsedTimer clock;
        clock.start();
        while (process.state() != QProcess::NotRunning && clock.elapsed() < timeoutMs)
            QTest::qWait(50);
        if (process.state() != QProcess::NotRunning) {
            process.kill();
            process.waitForFinished();
            return -1;
        }
        return process.exitCode();
    }

    QStringList evalArguments(const QString &runsDir, int timeoutSeconds) const
    {
        return {u"eval"_s,          skillDir(),
                u"--tests"_s,       suitePath(),
                u"--model"_s,       u"anthropic:claude-sonnet-4-5"_s,
                u"--harness"_s,     u"claude-code"_s,
                u"--out"_s,         runsDir,
                u"--concurrency"_s, u"2"_s,
                u"--timeout"_s,     QString::number(timeoutSeconds)};
    }

private Q_SLOTS:
    void initTestCase()
    {
        const Result<AgentCliBinary> found = findAgentCli(Harness::ClaudeCode, {});
        if (!found)
            SF_SKIP_BECAUSE(found.error);
        if (!sandboxAvailable())
            QSKIP("no bubblewrap sandbox here");
        m_claude = found.value->path;
        write(skillDir() + u"/SKILL.md"_s,
              "---\nname: csv-tidy\ndescription: Tidies CSV files. Use when asked to tidy a CSV file.\n---\n\n"
              "Trim every cell, then sort the rows by the first column.\n");
        write(suitePath(),
              R"([{"id": "tidy", "input": "Please tidy data.csv.", "expected": {"contains": ["ANSWER"]}}])");
    }

    void init()
    {
        AgentPolicy policy;
        policy.skillName = u"csv-tidy"_s;
        policy.keywords = {u"tidy"_s};
        m_endpoints = std::make_unique<ScriptedAgentEndpoints>(policy);
        m_upstream = std::make_unique<ScriptedHttpServer>();
        QVERIFY(m_upstream->listen());
        m_hangRequests = 0;
        // Main requests are answered by the scripted model, except the first m_hangRequests, which get silence.
        m_upstream->routeHandler("POST", "/v1/messages", [this](const RecordedRequest &request) {
            ScriptedResponse response = m_endpoints->answerMessages(request);
            if (m_hangRequests > 0 && request.body.contains("\"tools\"")) {
                --m_hangRequests;
                response.delayMs = 600000;
            }
            return response;
        });
    }

    void cleanup() { m_upstream.reset(); }

    void killMinusNine_leavesNoCliProcess_resumeFinishesWithOneResultPerItem()
    {
        const QString runsDir = m_dir.filePath(u"runs-kill"_s);
        m_hangRequests = 2; // both items in flight, each waiting for its model
        QProcess eval;
        start(eval, evalArguments(runsDir, 300));
        // Killed once both CLIs wait for their model.
        QTRY_COMPARE_WITH_TIMEOUT(m_hangRequests, 0, 60000);
        QVERIFY(sandboxesRunning(m_dir.path()).size() >= 2);
        ::kill(pid_t(eval.processId()), SIGKILL);
        QVERIFY(eval.waitForFinished(10000));
        // The sandbox dies with its parent, and the CLI with its sandbox.
        QTRY_VERIFY_WITH_TIMEOUT(sandboxesRunning(m_dir.path()).isEmpty(), 15000);
        const QString runDir = onlyRunIn(runsDir);
        QVERIFY(!runDir.isEmpty());
        QVERIFY(recordedItems(runDir).isEmpty());

        QProcess resume;
        start(resume, {u"eval"_s, u"--resume"_s, runDir});
        QCOMPARE(finish(resume), 0);
        const QHash<QString, int> items = recordedItems(runDir);
        QCOMPARE(items.size(), 2);
        QCOMPARE(items.value(u"baseline|tidy"_s), 1);
        QCOMPARE(items.value(u"with_skill|tidy"_s), 1);
        QVERIFY(sandboxesRunning(m_dir.path()).isEmpty());
    }

    void hungModel_itemTimesOut_cliKilledWithItsProcessTree()
    {
        const QString runsDir = m_dir.filePath(u"runs-hang"_s);
        m_hangRequests = 1000;
        QProcess eval;
        start(eval, evalArguments(runsDir, 8) + QStringList{u"--json"_s});
        QCOMPARE(finish(eval, 120000), 0);
        const QJsonObject json = QJsonDocument::fromJson(eval.readAllStandardOutput()).object();
        QVERIFY2(!json.isEmpty(), eval.readAllStandardError().constData());
        QVERIFY(sandboxesRunning(m_dir.path()).isEmpty());
        QFile results(QDir(onlyRunIn(runsDir)).filePath(u"results.jsonl"_s));
        QVERIFY(results.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = results.readAll().trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        for (const QByteArray &line : lines) {
            const QJsonObject item = QJsonDocument::fromJson(line).object();
            QCOMPARE(item.value("stop_reason"_L1).toString(), u"timeout"_s);
            QVERIFY(item.value("latency_ms"_L1).toInteger() < 60000);
        }
    }

    void crashingCli_isAnErrorItem_thatResumeRunsAgain()
    {
        // A CLI that says it is Claude Code 2.1.332 and dies while the marker beside it is there; then it answers
        // as Claude Code prints a result. The marker lives in the binary's folder, which the sandbox shows read-only.
        const QString folder = m_dir.filePath(u"crashing-cli"_s);
        const QString fake = folder + u"/claude"_s;
        write(fake,
              "#!/bin/sh\n"
              "if [ \"$1\" = --version ]; then echo '2.1.332 (Claude Code)'; exit 0; fi\n"
              "cat > /dev/null\n"
              "if [ -e \"$(dirname \"$0\")/crash\" ]; then echo 'segfault in the CLI' >&2; kill -SEGV $$; fi\n"
              "echo '{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"result\":\"ANSWER from "
              "the CLI\",\"num_turns\":1,\"session_id\":\"s\",\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}'\n");
        QFile::setPermissions(fake, QFile::permissions(fake) | QFile::ExeOwner);
        write(folder + u"/crash"_s, "");
        const QString runsDir = m_dir.filePath(u"runs-crash"_s);
        QProcess eval;
        start(eval, evalArguments(runsDir, 120) + QStringList{u"--harness-cli"_s, fake});
        const int code = finish(eval);
        const QString err = QString::fromUtf8(eval.readAllStandardError());
        QVERIFY2(code == 3, qPrintable(err)); // not finished: --resume runs the error items again
        QVERIFY2(err.trimmed().split(u'\n').last().contains(u"skillforge eval --resume "_s), qPrintable(err));
        QVERIFY2(err.contains(u"error: Claude Code failed"_s), qPrintable(err));
        QVERIFY2(err.contains(u"segfault in the CLI"_s), qPrintable(err));
        const QString runDir = onlyRunIn(runsDir);
        QCOMPARE(recordedItems(runDir).size(), 2);

        QFile::remove(folder + u"/crash"_s);
        QProcess resume;
        start(resume, {u"eval"_s, u"--resume"_s, runDir, u"--json"_s});
        QCOMPARE(finish(resume), 0);
        const QJsonObject json = QJsonDocument::fromJson(resume.readAllStandardOutput()).object();
        const QJsonObject summary = json.value("summary"_L1).toObject();
        QVERIFY2(!QJsonDocument(summary).toJson().contains("\"errors\": 1"),
                 QJsonDocument(summary).toJson().constData());
        // Each item ran twice: the error line first, its new result superseding it.
        const QHash<QString, int> items = recordedItems(runDir);
        QCOMPARE(items.value(u"baseline|tidy"_s), 2);
        QCOMPARE(items.value(u"with_skill|tidy"_s), 2);
    }
};

SF_TEST_GUILESS_MAIN(TestCliEvalHarness)
#include "test_cli_eval_harness.moc"
