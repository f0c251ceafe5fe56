// Against the real llama-server and Gemma model installed by scripts/setup-local-model.
#include "SkippedChecks.h"
#include "llm/ChatCall.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/LocalModelServer.h"
#include "llm/LocalRuntime.h"
#include "llm/ProviderRegistry.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <csignal>
#include <cstdio>
#include <memory>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

constexpr int startupTimeoutMs = 180000;
constexpr int chatTimeoutMs = 120000;

ChatRequest cudaQuestion()
{
    ChatRequest request;
    request.messages = {{u"user"_s, u"Reply with one short sentence: what is a CUDA kernel?"_s}};
    request.maxTokens = 64;
    request.temperature = 0.0;
    return request;
}

} // namespace

class TestLocalModelChat final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<LocalModelServer> m_server;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_client;

    bool waitUntilReady()
    {
        m_server->ensureStarted();
        if (m_server->state() == LocalModelServer::State::Ready) {
            return true;
        }
        QSignalSpy ready(m_server.get(), &LocalModelServer::ready);
        return ready.wait(startupTimeoutMs);
    }

    ChatResponse chatOnce()
    {
        std::unique_ptr<ChatCall> call(m_client->chat(sf::LocalRuntime::qualifiedModelName(), cudaQuestion()));
        QSignalSpy finished(call.get(), &ChatCall::finished);
        QSignalSpy failed(call.get(), &ChatCall::failed);
        [&] { QTRY_COMPARE_WITH_TIMEOUT(finished.count() + failed.count(), 1, chatTimeoutMs); }();
        if (!failed.isEmpty()) {
            qWarning().noquote() << "chat failed:" << failed.first().first().toString();
            return {};
        }
        return finished.isEmpty() ? ChatResponse{} : finished.first().first().value<ChatResponse>();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_engine = std::make_unique<HttpEngine>();
        LocalModelServer::Options options = LocalModelServer::Options::fromRuntime();
        options.startupTimeoutMs = startupTimeoutMs;
        m_server = std::make_unique<LocalModelServer>(*m_engine, options);
        m_providers = std::make_unique<ProviderRegistry>();
        m_client = std::make_unique<ChatClient>(*m_engine, *m_providers, m_server.get());
    }

    void cleanupTestCase()
    {
        m_client.reset();
        m_server.reset();
        m_engine.reset();
    }

    void server_startsAndBecomesReady()
    {
        QVERIFY2(waitUntilReady(), qPrintable(m_server->errorString()));
        QCOMPARE(m_server->state(), LocalModelServer::State::Ready);
        QVERIFY(m_server->processId() > 0);
        QCOMPARE(m_server->baseUrl().host(), u"127.0.0.1"_s);
    }

    void chat_cudaQuestion_returnsTextAndUsage()
    {
        QVERIFY2(waitUntilReady(), qPrintable(m_server->errorString()));
        const ChatResponse response = chatOnce();
        qInfo().noquote() << "local model answered:" << response.text;
        QVERIFY(!response.text.trimmed().isEmpty());
        // ChatML markers in the text mean llama-server fell back to the wrong chat template.
        QVERIFY2(!response.text.contains("<|im_"_L1), qPrintable(response.text));
        QVERIFY(response.usage.output > 0);
        QVERIFY(response.usage.output <= 64);
        QVERIFY(response.usage.totalInput() > 0);
        QVERIFY(response.latencyMs > 0);
    }

    void chat_streaming_deliversDeltasThatAddUpToTheReply_withUsage()
    {
        QVERIFY2(waitUntilReady(), qPrintable(m_server->errorString()));
        ChatRequest request = cudaQuestion();
        request.stream = true;
        std::unique_ptr<ChatCall> call(m_client->chat(sf::LocalRuntime::qualifiedModelName(), request));
        QString streamed;
        int deltas = 0;
        connect(call.get(), &ChatCall::textDelta, this, [&](const QString &text) {
            streamed += text;
            ++deltas;
        });
        QSignalSpy finished(call.get(), &ChatCall::finished);
        QSignalSpy failed(call.get(), &ChatCall::failed);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count() + failed.count(), 1, chatTimeoutMs);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        const ChatResponse response = finished.first().first().value<ChatResponse>();
        QVERIFY(!response.text.trimmed().isEmpty());
        QCOMPARE(streamed, response.text);
        QVERIFY2(deltas > 1, "the reply arrived in one piece, not streamed");
        // include_usage: llama-server reports usage on the final chunk.
        QVERIFY(response.usage.output > 0);
        QVERIFY(response.usage.totalInput() > 0);
        QCOMPARE(response.costUsd, std::optional<double>(0.0)); // the local model is priced, at 0
    }

    void killedServer_restartsAndChatsAgain()
    {
        QVERIFY2(waitUntilReady(), qPrintable(m_server->errorString()));
        QSignalSpy restarted(m_server.get(), &LocalModelServer::restarted);
        const qint64 pid = m_server->processId();
        QCOMPARE(::kill(pid_t(pid), SIGKILL), 0);
        QTRY_COMPARE_WITH_TIMEOUT(restarted.count(), 1, 30000);
        QVERIFY(m_server->processId() != pid);

        const ChatResponse response = chatOnce();
        QVERIFY(!response.text.trimmed().isEmpty());
        QVERIFY(response.usage.output > 0);
    }
};

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (!LocalRuntime::isInstalled()) {
        return sf::test::skipAll(LocalRuntime::missingReason());
    }
    TestLocalModelChat test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_local_model_chat.moc"
