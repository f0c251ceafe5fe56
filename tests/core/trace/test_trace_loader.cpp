#include "SkippedChecks.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"
#include "trace/AgentSessions.h"
#include "trace/TraceImport.h"
#include "trace/TraceLoader.h"

#include <QDir>
#include <QFile>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

QString fixture(const QString &relative)
{
    return QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/trace/") + relative;
}

} // namespace

/// Importing off the UI thread as a job (progress, cancel), and finding the sessions agents leave behind.
class TestTraceLoader : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void load_finishesTheJobAndDeliversTheTrace()
    {
        JobListModel jobs;
        TraceLoader loader;
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        Job *job = loader.load(fixture(u"claude-code/nasty-session.jsonl"_s), QString(), &jobs);
        QCOMPARE(jobs.rowCount(), 1);
        QVERIFY(loader.isRunning());
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        const auto trace = loaded.at(0).at(1).value<std::shared_ptr<const Trace>>();
        QCOMPARE(trace->threads.size(), size_t(2));
        QCOMPARE(job->state(), Job::State::Finished);
        QVERIFY(!loader.isRunning());
    }

    void load_notATrace_failsTheJobWithTheReason()
    {
        TraceLoader loader;
        QSignalSpy failed(&loader, &TraceLoader::failed);
        Job *job = loader.load(fixture(u"nasty/binary-garbage.dat"_s));
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
        QCOMPARE(job->state(), Job::State::Failed);
        QVERIFY(job->detail().contains(u"tried:"_s));
    }

    void load_largeSession_readOnTwoThreads_sameTraceAsOneThread()
    {
        // 20 MB: over the 16 MB from which the loader's import parses on two threads (on two cores or more).
        QTemporaryDir dir;
        const QString path = dir.filePath(u"large.jsonl"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        int lines = 0;
        while (file.size() < 20 * 1024 * 1024) {
            file.write(QStringLiteral("{\"type\":\"user\",\"uuid\":\"u%1\",\"parentUuid\":%2,\"message\":{\"role\":"
                                      "\"user\",\"content\":\"prompt %1 %3\"}}\n")
                           .arg(lines)
                           .arg(lines == 0 ? u"null"_s : QStringLiteral("\"u%1\"").arg(lines - 1))
                           .arg(QString(lines % 300, u'x'))
                           .toUtf8());
            ++lines;
        }
        file.close();
        const bool twoCores = QThread::idealThreadCount() >= 2;
        QLoggingCategory::setFilterRules(u"skillforge.trace.debug=true"_s);
        if (twoCores)
            QTest::ignoreMessage(QtDebugMsg, QRegularExpression(u"read on two threads"_s));
        TraceLoader loader;
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        loader.load(path);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 30000);
        QLoggingCategory::setFilterRules(QString());
        const auto trace = loaded.at(0).at(1).value<std::shared_ptr<const Trace>>();

        TraceImportOptions oneThread;
        oneThread.twoThreadsFromBytes = -1;
        const Result<Trace> expected = importTrace(path, oneThread);
        QVERIFY2(expected, qPrintable(expected.error));
        const TraceThread &main = trace->threads[0];
        QCOMPARE(main.steps.size(), size_t(lines));
        QCOMPARE(main.steps.size(), expected.value->threads[0].steps.size());
        for (int i : {0, lines / 3, lines / 2, lines - 1}) {
            QCOMPARE(main.steps[size_t(i)].line, qint64(i + 1));
            QCOMPARE(main.steps[size_t(i)].text.toString(),
                     expected.value->threads[0].steps[size_t(i)].text.toString());
        }
    }

    void cancel_fromTheJob_endsCancelled()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"big.jsonl"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        const QByteArray line = "{\"type\":\"user\",\"sessionId\":\"s\",\"message\":{\"role\":\"user\",\"content\":\"a "
                                "prompt of some length to fill the file\"}}"
                                "\n";
        for (int i = 0; i < 200000; ++i)
            file.write(line);
        file.close();
        TraceLoader loader;
        QSignalSpy cancelled(&loader, &TraceLoader::cancelled);
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        Job *job = loader.load(path);
        job->requestCancel();
        QTRY_COMPARE_WITH_TIMEOUT(cancelled.count() + loaded.count(), 1, 20000);
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(job->state(), Job::State::Cancelled);
    }

    void newerLoad_replacesTheOneInFlight()
    {
        TraceLoader loader;
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        loader.load(fixture(u"claude-code/nasty-session.jsonl"_s));
        loader.load(fixture(u"codex/rollout-2026-02-01T12-00-00-0199.jsonl"_s));
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
        QVERIFY(loaded.at(0).at(0).toString().contains(u"rollout"_s));
        // The replaced load's outcome was queued before this one's, so it would have arrived by now.
        QCOMPARE(loaded.count(), 1);
        QVERIFY(!loader.isRunning());
    }

    void agentSessions_listsClaudeAndCodexWithTitleAndProject()
    {
        QTemporaryDir home;
        const QDir root(home.path());
        QVERIFY(root.mkpath(u"claude/-home-dev-app"_s));
        QVERIFY(root.mkpath(u"codex/2026/02/01"_s));
        QVERIFY(QFile::copy(fixture(u"claude-code/nasty-session.jsonl"_s),
                            root.filePath(u"claude/-home-dev-app/5f0c8a4e.jsonl"_s)));
        QVERIFY(QFile::copy(fixture(u"codex/rollout-2026-02-01T12-00-00-0199.jsonl"_s),
                            root.filePath(u"codex/2026/02/01/rollout-2026-02-01T12-00-00-0199.jsonl"_s)));
        const QList<AgentSessionFile> sessions =
            listAgentSessions(root.filePath(u"claude"_s), root.filePath(u"codex"_s));
        QCOMPARE(sessions.size(), 2);
        const auto claude = std::find_if(sessions.begin(), sessions.end(),
                                         [](const AgentSessionFile &s) { return s.agent == u"Claude Code"_s; });
        QVERIFY(claude != sessions.end());
        QCOMPARE(claude->title, u"Fix the build"_s);
        QCOMPARE(claude->project, u"/home/dev/app"_s);
        QVERIFY(claude->bytes > 0);
        const auto codex = std::find_if(sessions.begin(), sessions.end(),
                                        [](const AgentSessionFile &s) { return s.agent == u"Codex"_s; });
        QCOMPARE(codex->title, u"Fix the failing test"_s);
        QCOMPARE(codex->project, u"/home/dev/proj"_s);
    }
};

SF_TEST_GUILESS_MAIN(TestTraceLoader)
#include "test_trace_loader.moc"
