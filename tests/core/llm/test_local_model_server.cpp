#include "SkippedChecks.h"
#include "llm/ChatCall.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/HttpReply.h"
#include "llm/LocalModelServer.h"
#include "llm/LocalRuntime.h"
#include "llm/ProviderRegistry.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <cerrno>
#include <csignal>
#include <memory>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

bool processExists(qint64 pid)
{
    return ::kill(pid_t(pid), 0) == 0 || errno != ESRCH;
}

} // namespace

class TestLocalModelServer final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<HttpEngine> m_engine;
    QTemporaryDir m_dir;

    LocalModelServer::Options fakeOptions() const
    {
        LocalModelServer::Options options;
        options.serverPath = QStringLiteral(FAKE_LLAMA_SERVER);
        options.modelPath = QStringLiteral(FAKE_LLAMA_SERVER); // any existing file: the fake never reads it
        options.startupTimeoutMs = 20000;
        return options;
    }

    LocalModelServer::Options smallContext() const
    {
        LocalModelServer::Options options = fakeOptions();
        options.contextSize = 1024;
        return options;
    }

    /** What the fake server answers to GET `path` (its command line, the last chat it was sent). */
    QByteArray fakeGet(const LocalModelServer &server, const QString &path)
    {
        HttpRequest request;
        request.url = server.baseUrl();
        request.url.setPath(path);
        std::unique_ptr<HttpReply> reply(m_engine->send(request));
        QSignalSpy finished(reply.get(), &HttpReply::finished);
        if (!finished.wait(5000) && finished.isEmpty())
            return {};
        return reply->response().body;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void init() { m_engine = std::make_unique<HttpEngine>(); }

    void cleanup()
    {
        for (const char *knob : {"FAKE_LLAMA_EXIT_AFTER_MS", "FAKE_LLAMA_FAIL_AT_START", "FAKE_LLAMA_BIND_FAIL_ONCE",
                                 "FAKE_LLAMA_HEALTH_DELAY_MS", "FAKE_LLAMA_CHAT_DELAY_MS"}) {
            qunsetenv(knob);
        }
        m_engine.reset();
    }

    void ensureStarted_becomesReadyOnceHealthAnswers200()
    {
        LocalModelServer server(*m_engine, fakeOptions());
        QSignalSpy ready(&server, &LocalModelServer::ready);
        QSignalSpy states(&server, &LocalModelServer::stateChanged);
        server.ensureStarted();
        QCOMPARE(server.state(), LocalModelServer::State::Starting);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 15000);

        QCOMPARE(server.state(), LocalModelServer::State::Ready);
        const QUrl baseUrl = ready.first().first().toUrl();
        QCOMPARE(baseUrl, server.baseUrl());
        QCOMPARE(baseUrl.host(), u"127.0.0.1"_s);
        QCOMPARE(baseUrl.path(), u"/v1"_s);
        QVERIFY(baseUrl.port() > 0);
        QVERIFY(server.processId() > 0);
        QCOMPARE(states.count(), 2); // Starting, Ready
    }

    void launch_passesTheLlamaServerCommandLine()
    {
        LocalModelServer::Options options = fakeOptions();
        options.contextSize = 2048;
        options.threads = 3;
        LocalModelServer server(*m_engine, options);
        QSignalSpy ready(&server, &LocalModelServer::ready);
        server.ensureStarted();
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 15000);

        const QString arguments =
            QJsonDocument::fromJson(fakeGet(server, u"/fake/arguments"_s)).toVariant().toStringList().join(u' ');
        QVERIFY2(arguments.contains(u"--host 127.0.0.1 --port %1"_s.arg(server.baseUrl().port())),
                 qPrintable(arguments));
        QVERIFY(arguments.contains(u"-m "_s + options.modelPath));
        // Each of the four slots gets the whole context a request may use.
        QVERIFY2(arguments.contains("-c 8192 --parallel 4 --no-kv-unified"_L1), qPrintable(arguments));
        QVERIFY(arguments.contains("--threads 3"_L1));
        QVERIFY(arguments.contains("--jinja"_L1));
    }

    void chatClient_requestLargerThanTheContext_failsBeforeSending_andSaysWhy()
    {
        LocalModelServer server(*m_engine, smallContext());
        ProviderRegistry providers;
        ChatClient client(*m_engine, providers, &server);
        ChatRequest request;
        request.system = u"word "_s.repeated(2000); // about 2,000 tokens
        request.messages = {{u"user"_s, u"Hello?"_s}};
        std::unique_ptr<ChatCall> call(client.chat(LocalRuntime::qualifiedModelName(), request));
        QSignalSpy failed(call.get(), &ChatCall::failed);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains("does not fit"_L1) && message.contains("1,024"_L1) &&
                     message.contains(LocalRuntime::qualifiedModelName()),
                 qPrintable(message));
        QVERIFY(call->exceededContext());
        QVERIFY(call->attempts().isEmpty());
        QCOMPARE(server.state(), LocalModelServer::State::Stopped); // nothing was sent, so nothing had to start
    }

    void chatClient_replyLimitIsLoweredToTheRoomThePromptLeaves()
    {
        LocalModelServer server(*m_engine, smallContext());
        ProviderRegistry providers;
        ChatClient client(*m_engine, providers, &server);
        ChatRequest request;
        request.messages = {{u"user"_s, u"word "_s.repeated(400)}};
        request.maxTokens = 4096;
        std::unique_ptr<ChatCall> call(client.chat(LocalRuntime::qualifiedModelName(), request));
        QSignalSpy finished(call.get(), &ChatCall::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 15000);
        const int maxTokens =
            QJsonDocument::fromJson(fakeGet(server, u"/fake/last-chat"_s)).object().value("max_tokens"_L1).toInt();
        QVERIFY2(maxTokens >= 256 && maxTokens < 1024 - 400, qPrintable(QString::number(maxTokens)));
    }

    void ensureStarted_twice_startsOneProcess()
    {
        LocalModelServer server(*m_engine, fakeOptions());
        QSignalSpy ready(&server, &LocalModelServer::ready);
        server.ensureStarted();
        const qint64 pid = server.processId();
        server.ensureStarted();
        QCOMPARE(server.processId(), pid);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 15000);
        server.ensureStarted();
        QCOMPARE(server.processId(), pid);
        QCOMPARE(server.state(), LocalModelServer::State::Ready);
    }

    void chatClient_localModel_startsTheServerAndChats()
    {
        LocalModelServer server(*m_engine, fakeOptions());
        ProviderRegistry providers;
        ChatClient client(*m_engine, providers, &server);
        ChatRequest request;
        request.messages = {{u"user"_s, u"Hello?"_s}};
        std::unique_ptr<ChatCall> call(client.chat(sf::LocalRuntime::qualifiedModelName(), request));
        QSignalSpy finished(call.get(), &ChatCall::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 15000);

        const auto response = finished.first().first().value<ChatResponse>();
        QCOMPARE(response.text, u"Fake reply from the local model."_s);
        QCOMPARE(response.usage.output, 7);
        QCOMPARE(response.serverTokensPerSecond, std::optional<double>(100.0));
        QCOMPARE(server.state(), LocalModelServer::State::Ready);
    }

    void crashWhileReady_restartsAndCountsIt()
    {
        LocalModelServer server(*m_engine, fakeOptions());
        QSignalSpy ready(&server, &LocalModelServer::ready);
        QSignalSpy restarted(&server, &LocalModelServer::restarted);
        server.ensureStarted();
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 15000);
        const qint64 firstPid = server.processId();

        QCOMPARE(::kill(pid_t(firstPid), SIGKILL), 0);
        QTRY_COMPARE_WITH_TIMEOUT(restarted.count(), 1, 10000);
        QCOMPARE(restarted.first().first().toInt(), 1);
        QCOMPARE(server.restartCount(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 2, 15000);
        QVERIFY(server.processId() != firstPid);
        QCOMPARE(server.state(), LocalModelServer::State::Ready);
    }

    void hungServer_isKilledAndRestarted()
    {
        LocalModelServer::Options options = fakeOptions();
        options.healthIntervalMs = 200;
        options.hangAfterMs = 1500;
        LocalModelServer server(*m_engine, options);
        QSignalSpy ready(&server, &LocalModelServer::ready);
        QSignalSpy restarted(&server, &LocalModelServer::restarted);
        server.ensureStarted();
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 15000);
        // Alive and answering: several health intervals pass without a restart.
        QTest::qWait(2000);
        QCOMPARE(restarted.count(), 0);
        const qint64 firstPid = server.processId();
        const QUrl firstUrl = server.baseUrl();

        QCOMPARE(::kill(pid_t(firstPid), SIGSTOP), 0); // a suspended or wedged process: running, never answering
        QTRY_COMPARE_WITH_TIMEOUT(restarted.count(), 1, 10000);
        QCOMPARE(server.hangCount(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!processExists(firstPid), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 2, 15000);
        QVERIFY(server.processId() != firstPid);
        QVERIFY(server.baseUrl() != firstUrl);
    }

    void chatInFlight_whenTheServerDies_isAnsweredByTheRestartedServer()
    {
        qputenv("FAKE_LLAMA_CHAT_DELAY_MS", "4000");
        LocalModelServer server(*m_engine, fakeOptions());
        ProviderRegistry providers;
        ChatClient client(*m_engine, providers, &server);
        QSignalSpy ready(&server, &LocalModelServer::ready);
        ChatRequest request;
        request.messages = {{u"user"_s, u"Hello?"_s}};
        std::unique_ptr<ChatCall> call(client.chat(sf::LocalRuntime::qualifiedModelName(), request));
        QSignalSpy finished(call.get(), &ChatCall::finished);
        QSignalSpy failed(call.get(), &ChatCall::failed);
        QSignalSpy retrying(call.get(), &ChatCall::retrying);
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 15000);
        // Killed only once the request is with the server (it answers after 4 s), so it is that request the restart
        // must answer; a kill before it arrived would be a plain retry.
        QTRY_VERIFY_WITH_TIMEOUT(fakeGet(server, u"/fake/last-chat"_s).contains("Hello?"), 10000);
        const QUrl firstUrl = server.baseUrl();
        QCOMPARE(::kill(pid_t(server.processId()), SIGKILL), 0);

        QTRY_COMPARE_WITH_TIMEOUT(finished.count() + failed.count(), 1, 30000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        QCOMPARE(retrying.count(), 1);
        QCOMPARE(finished.first().first().value<ChatResponse>().text, u"Fake reply from the local model."_s);
        QVERIFY(server.baseUrl() != firstUrl); // answered on the new port, not retried on the dead one
        QCOMPARE(server.restartCount(), 1);
    }

    void chatRetry_afterTheServerGaveUp_failsWithItsReason_andDoesNotStartItAgain()
    {
        qputenv("FAKE_LLAMA_CHAT_DELAY_MS", "60000");
        qputenv("FAKE_LLAMA_EXIT_AFTER_MS", "1500");
        LocalModelServer server(*m_engine, fakeOptions());
        ProviderRegistry providers;
        ChatClient client(*m_engine, providers, &server);
        QSignalSpy failedServer(&server, &LocalModelServer::failed);
        ChatRequest request;
        request.messages = {{u"user"_s, u"Hello?"_s}};
        std::unique_ptr<ChatCall> call(client.chat(sf::LocalRuntime::qualifiedModelName(), request));
        QSignalSpy failed(call.get(), &ChatCall::failed);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 60000);
        QCOMPARE(failedServer.count(), 1);
        QVERIFY2(failed.first().first().toString().contains("giving up"_L1),
                 qPrintable(failed.first().first().toString()));
        QTest::qWait(500);
        QCOMPARE(server.state(), LocalModelServer::State::Failed); // the retry did not start it again
    }

    void repeatedCrashes_giveUpAfterThreeRestarts_withStderrTail()
    {
        qputenv("FAKE_LLAMA_EXIT_AFTER_MS", "600");
        LocalModelServer server(*m_engine, fakeOptions());
        QSignalSpy restarted(&server, &LocalModelServer::restarted);
        QSignalSpy failed(&server, &LocalModelServer::failed);
        server.ensureStarted();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);

        QCOMPARE(restarted.count(), 3);
        QCOMPARE(server.state(), LocalModelServer::State::Failed);
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains("fake llama-server exiting after 600 ms"_L1), qPrintable(message));
        QVERIFY(message.contains("giving up"_L1));
        QVERIFY(server.stderrTail().last().contains("exiting after 600 ms"_L1));
        QCOMPARE(server.processId(), 0);
    }

    void failingAtStart_reportsTheServersError()
    {
        qputenv("FAKE_LLAMA_FAIL_AT_START", "1");
        LocalModelServer server(*m_engine, fakeOptions());
        QSignalSpy restarted(&server, &LocalModelServer::restarted);
        QSignalSpy failed(&server, &LocalModelServer::failed);
        server.ensureStarted();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 15000);
        QCOMPARE(restarted.count(), 3);
        QVERIFY2(failed.first().first().toString().contains("error loading model: fake failure"_L1),
                 qPrintable(failed.first().first().toString()));

        // A later ensureStarted() tries afresh rather than staying Failed for good.
        qunsetenv("FAKE_LLAMA_FAIL_AT_START");
        QSignalSpy ready(&server, &LocalModelServer::ready);
        server.ensureStarted();
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 15000);
    }

    void portTakenAtStart_retriesOnAnotherPortWithoutCountingACrash()
    {
        qputenv("FAKE_LLAMA_BIND_FAIL_ONCE", m_dir.filePath(u"bind-failed-once"_s).toLocal8Bit());
        LocalModelServer server(*m_engine, fakeOptions());
        QSignalSpy ready(&server, &LocalModelServer::ready);
        QSignalSpy restarted(&server, &LocalModelServer::restarted);
        server.ensureStarted();
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 15000);
        QCOMPARE(restarted.count(), 0);
        QVERIFY(QFile::exists(m_dir.filePath(u"bind-failed-once"_s)));
    }

    void startupTimeout_failsAndStopsTheProcess()
    {
        qputenv("FAKE_LLAMA_HEALTH_DELAY_MS", "600000");
        LocalModelServer::Options options = fakeOptions();
        options.startupTimeoutMs = 700;
        LocalModelServer server(*m_engine, options);
        QSignalSpy failed(&server, &LocalModelServer::failed);
        server.ensureStarted();
        const qint64 pid = server.processId();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000);
        QVERIFY2(failed.first().first().toString().contains("not ready within"_L1),
                 qPrintable(failed.first().first().toString()));
        QVERIFY(!processExists(pid));
    }

    void stop_terminatesTheProcess()
    {
        LocalModelServer server(*m_engine, fakeOptions());
        QSignalSpy ready(&server, &LocalModelServer::ready);
        QSignalSpy restarted(&server, &LocalModelServer::restarted);
        server.ensureStarted();
        QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 15000);
        const qint64 pid = server.processId();
        QVERIFY(processExists(pid));

        server.stop();
        QCOMPARE(server.state(), LocalModelServer::State::Stopped);
        QCOMPARE(server.processId(), 0);
        QVERIFY(!processExists(pid));
        QCoreApplication::processEvents(); // a stray exit notification must not restart it
        QCOMPARE(restarted.count(), 0);
        QCOMPARE(server.state(), LocalModelServer::State::Stopped);
    }

    void destructor_stopsTheProcess()
    {
        qint64 pid = 0;
        {
            LocalModelServer server(*m_engine, fakeOptions());
            QSignalSpy ready(&server, &LocalModelServer::ready);
            server.ensureStarted();
            QTRY_COMPARE_WITH_TIMEOUT(ready.count(), 1, 15000);
            pid = server.processId();
        }
        QVERIFY(!processExists(pid));
    }

    void missingServerBinary_failsWithSetupHint()
    {
        LocalModelServer::Options options = fakeOptions();
        options.serverPath = m_dir.filePath(u"no-such-llama-server"_s);
        LocalModelServer server(*m_engine, options);
        QSignalSpy failed(&server, &LocalModelServer::failed);
        server.ensureStarted();
        QCOMPARE(server.state(), LocalModelServer::State::Failed);
        QCOMPARE(failed.count(), 1);
        QVERIFY(failed.first().first().toString().contains("Install Local Model"_L1));
    }
};

SF_TEST_GUILESS_MAIN(TestLocalModelServer)
#include "test_local_model_server.moc"
