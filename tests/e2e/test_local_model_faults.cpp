// `skillforge eval` on the real embedded model while its llama-server is killed, stopped, or cannot start: a crash
// or a hang costs no item, and a server that cannot stay up ends the run with one message and a --resume line.
#include "SkippedChecks.h"
#include "common/ChildProcess.h"
#include "llm/LocalRuntime.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <csignal>
#include <cstdio>
#include <functional>

using namespace Qt::StringLiterals;

namespace {

/// The pid of the llama-server that @p parent started, 0 when there is none (yet).
qint64 llamaServerChildOf(qint64 parent)
{
    const QStringList entries = QDir(u"/proc"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool numeric = false;
        const qint64 pid = entry.toLongLong(&numeric);
        if (!numeric)
            continue;
        QFile stat(u"/proc/%1/stat"_s.arg(pid));
        if (!stat.open(QIODevice::ReadOnly))
            continue;
        // "pid (comm) state ppid ...": comm may hold spaces, so read from the last ')'.
        const QByteArray line = stat.readAll();
        const qsizetype open = line.indexOf('('), close = line.lastIndexOf(')');
        if (open < 0 || close < open)
            continue;
        const QByteArray comm = line.mid(open + 1, close - open - 1);
        const QList<QByteArray> rest = line.mid(close + 2).split(' ');
        if (comm == "llama-server" && rest.size() > 1 && rest.at(1).toLongLong() == parent)
            return pid;
    }
    return 0;
}

struct RunOutcome
{
    int exitCode = -1;
    QString stderrText;
    QList<QJsonObject> results;
    qint64 faultAtMs = -1; ///< when the fault was made, from the start
    qint64 elapsedMs = 0;
};

} // namespace

class TestLocalModelFaults final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_skill;
    QString m_suite;
    int m_run = 0;

    static void write(const QString &path, const QByteArray &content)
    {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
    }

    /// Runs `skillforge eval` (3 short cases, both arms: 6 items, two at a time) with @p modelPath as the embedded
    /// model; @p fault, when given, is done to the server once the first item has finished.
    RunOutcome evaluate(const QString &modelPath, const std::function<void(qint64 serverPid)> &fault = {})
    {
        RunOutcome outcome;
        QProcess process;
        sf::endWithParent(&process); // killed by QtTest's watchdog, the test takes skillforge (and its server) along
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"SKILLFORGE_LLAMA_SERVER"_s, sf::LocalRuntime::llamaServerPath());
        env.insert(u"SKILLFORGE_LOCAL_MODEL"_s, modelPath);
        process.setProcessEnvironment(env);
        const QString runsDir = m_dir.filePath(u"runs-%1"_s.arg(++m_run));
        QElapsedTimer clock;
        clock.start();
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE),
                      {u"eval"_s, m_skill, u"--tests"_s, m_suite, u"--model"_s, sf::LocalRuntime::qualifiedModelName(),
                       u"--no-tools"_s, u"--max-output-tokens"_s, u"24"_s, u"--temperature"_s, u"0"_s, u"--seed"_s,
                       u"7"_s, u"--concurrency"_s, u"2"_s, u"--timeout"_s, u"400"_s, u"--out"_s, runsDir});
        if (!process.waitForStarted(10000))
            return outcome;
        bool faulted = !fault;
        while (process.state() != QProcess::NotRunning && clock.elapsed() < 800000) {
            process.waitForReadyRead(200);
            outcome.stderrText += QString::fromUtf8(process.readAllStandardError());
            // One line per finished item when stderr is no terminal: "MODEL ARM CASE #N: pass ...".
            if (!faulted && outcome.stderrText.contains(u" #1: "_s)) {
                if (const qint64 server = llamaServerChildOf(process.processId()); server > 0) {
                    outcome.faultAtMs = clock.elapsed();
                    fault(server);
                    faulted = true;
                }
            }
        }
        process.waitForFinished(5000);
        outcome.stderrText += QString::fromUtf8(process.readAllStandardError());
        outcome.elapsedMs = clock.elapsed();
        outcome.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
        const QStringList runs = QDir(runsDir).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QFile results(runsDir + u'/' + runs.value(0) + u"/results.jsonl"_s);
        if (!runs.isEmpty() && results.open(QIODevice::ReadOnly)) {
            for (const QByteArray &line : results.readAll().split('\n')) {
                if (!line.trimmed().isEmpty())
                    outcome.results.append(QJsonDocument::fromJson(line).object());
            }
        }
        std::fprintf(stderr, "--- skillforge eval (exit %d, %.1f s, fault at %.1f s):\n%s\n", outcome.exitCode,
                     outcome.elapsedMs / 1000.0, outcome.faultAtMs / 1000.0, qPrintable(outcome.stderrText));
        return outcome;
    }

    static int judged(const RunOutcome &outcome)
    {
        return int(std::count_if(outcome.results.cbegin(), outcome.results.cend(),
                                 [](const QJsonObject &r) { return r.value(u"error"_s).isNull(); }));
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFile::exists(sf::LocalRuntime::llamaServerPath()) || !QFile::exists(sf::LocalRuntime::modelPath()))
            QSKIP("the local model is not installed (scripts/setup-local-model)");
        QVERIFY(m_dir.isValid());
        m_skill = m_dir.filePath(u"short-answers"_s);
        write(m_skill + u"/SKILL.md"_s, "---\nname: short-answers\ndescription: Answer in a few words.\n---\n"
                                        "Answer with a few words only.\n");
        m_suite = m_dir.filePath(u"suite.json"_s);
        // Whether an answer passes does not matter here, only that every item is judged.
        const QByteArray judgedAlways = "\"verifiers\": [{\"type\": \"not_contains\", \"values\": [\"<|im_\"]}]";
        write(m_suite, "[{\"id\": \"red\", \"input\": \"Name a red fruit.\", " + judgedAlways +
                           "}, {\"id\": \"sky\", \"input\": \"What colour is the sky?\", " + judgedAlways +
                           "}, {\"id\": \"two\", \"input\": \"What is 1 + 1?\", " + judgedAlways + "}]");
    }

    void killedServer_isRestarted_andEveryItemIsJudged()
    {
        const RunOutcome outcome =
            evaluate(sf::LocalRuntime::modelPath(), [](qint64 server) { QCOMPARE(::kill(pid_t(server), SIGKILL), 0); });
        QVERIFY2(outcome.faultAtMs >= 0, "the server was never killed");
        QVERIFY2(outcome.stderrText.contains(u"exited with code 9; restart 1"_s), qPrintable(outcome.stderrText));
        QCOMPARE(outcome.exitCode, 0);
        QCOMPARE(outcome.results.size(), 6);
        QCOMPARE(judged(outcome), 6);
    }

    void stoppedServer_isFoundHung_restarted_andEveryItemIsJudged()
    {
        // Without hang detection the two items in flight would wait out their 400 s limit and end as errors.
        const RunOutcome outcome =
            evaluate(sf::LocalRuntime::modelPath(), [](qint64 server) { QCOMPARE(::kill(pid_t(server), SIGSTOP), 0); });
        QVERIFY2(outcome.faultAtMs >= 0, "the server was never stopped");
        QVERIFY2(outcome.stderrText.contains(u"killed as hung; restart 1"_s), qPrintable(outcome.stderrText));
        QCOMPARE(outcome.exitCode, 0);
        QCOMPARE(outcome.results.size(), 6);
        QCOMPARE(judged(outcome), 6);
    }

    void serverThatCannotStart_endsTheRunWithOneMessage_andAResumeLine()
    {
        const QString broken = m_dir.filePath(u"broken.gguf"_s);
        write(broken, QByteArray("GGUF") + QByteArray(4096, '\x7f')); // a model file cut short
        const RunOutcome outcome = evaluate(broken);
        QCOMPARE(outcome.exitCode, 3);
        const QStringList lines = outcome.stderrText.trimmed().split(u'\n');
        QVERIFY2(lines.last().startsWith(u"run not finished: of 6 items, 6 not run; finish it with: skillforge eval "
                                         u"--resume "_s),
                 qPrintable(lines.last()));
        QVERIFY2(outcome.stderrText.contains(u"stopped: The local model server failed 4 times"_s),
                 qPrintable(outcome.stderrText));
        QVERIFY2(outcome.stderrText.contains(u"gguf"_s, Qt::CaseInsensitive), qPrintable(outcome.stderrText));
        QCOMPARE(outcome.results.size(), 0); // no matrix of errors: the items stay for --resume
        QCOMPARE(outcome.stderrText.count(u"error: "_s), 0);
    }
};

SF_TEST_GUILESS_MAIN(TestLocalModelFaults)
#include "test_local_model_faults.moc"
