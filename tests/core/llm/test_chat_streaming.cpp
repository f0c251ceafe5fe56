#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "llm/ChatCall.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <memory>

using namespace sf;
using namespace sf::test;
using namespace Qt::StringLiterals;

namespace {

QByteArray fixture(const QString &name)
{
    QFile file(QFINDTESTDATA(u"data/"_s + name));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QList<QByteArray> piecesOf(const QByteArray &bytes, qsizetype size)
{
    QList<QByteArray> pieces;
    for (qsizetype at = 0; at < bytes.size(); at += size) {
        pieces.append(bytes.mid(at, size));
    }
    return pieces;
}

QByteArray openAiChunk(const QString &content)
{
    const QJsonObject delta{{"content"_L1, content}};
    const QJsonObject chunk{{"model"_L1, "gpt-4.1"_L1},
                            {"choices"_L1, QJsonArray{QJsonObject{{"index"_L1, 0}, {"delta"_L1, delta}}}}};
    return "data: " + QJsonDocument(chunk).toJson(QJsonDocument::Compact) + "\n\n";
}

const QByteArray openAiEnd = "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                             "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":5}}\n\n"
                             "data: [DONE]\n\n";

ChatRequest streamed(const QString &prompt = u"Say hello"_s)
{
    ChatRequest request;
    request.messages = {{u"user"_s, prompt}};
    request.maxTokens = 64;
    request.stream = true;
    return request;
}

/** Collects what a streaming UI would show: deltas, dropped again whenever the call restarts. */
struct Screen
{
    QString text;
    QString thinking;
    QString everything; // all deltas ever shown, including those dropped at a restart
    int restarts = 0;

    void watch(ChatCall *call)
    {
        QObject::connect(call, &ChatCall::textDelta, call, [this](const QString &delta) {
            text += delta;
            everything += delta;
        });
        QObject::connect(call, &ChatCall::thinkingDelta, call, [this](const QString &delta) { thinking += delta; });
        QObject::connect(call, &ChatCall::retrying, call, [this] {
            text.clear();
            thinking.clear();
            ++restarts;
        });
    }
};

} // namespace

class TestChatStreaming final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ScriptedHttpServer> m_server;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_client;

    ChatResponse finishedResponse(ChatCall *call)
    {
        QSignalSpy finished(call, &ChatCall::finished);
        QSignalSpy failed(call, &ChatCall::failed);
        [&] { QTRY_VERIFY_WITH_TIMEOUT(finished.count() + failed.count() > 0, 10000); }();
        if (!failed.isEmpty()) {
            qWarning().noquote() << "failed:" << failed.first().first().toString();
            return {};
        }
        return finished.first().first().value<ChatResponse>();
    }

    QString failureOf(ChatCall *call)
    {
        QSignalSpy failed(call, &ChatCall::failed);
        [&] { QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 10000); }();
        return failed.isEmpty() ? QString() : failed.first().first().toString();
    }

    void setProvider(const QString &name, const std::function<void(ProviderConfig &)> &change)
    {
        ProviderConfig config = *m_providers->find(name);
        change(config);
        m_providers->add(config);
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_server = std::make_unique<ScriptedHttpServer>();
        QVERIFY(m_server->listen());
        const QByteArray base = m_server->baseUrl().toEncoded();
        qputenv("OPENAI_BASE_URL", base + "/v1");
        qputenv("OPENAI_API_KEY", "sk-test-openai-0001");
        qputenv("ANTHROPIC_BASE_URL", base);
        qputenv("ANTHROPIC_API_KEY", "sk-ant-test-0002");
        m_engine = std::make_unique<HttpEngine>();
        m_providers = std::make_unique<ProviderRegistry>();
        m_client = std::make_unique<ChatClient>(*m_engine, *m_providers, nullptr);
        RetryPolicy fast;
        fast.baseDelayMs = 10;
        fast.maxDelayMs = 40;
        fast.maxAttempts = 4;
        fast.maxRetryAfterMs = 2000;
        m_client->setRetryPolicy(fast);
    }

    void cleanup()
    {
        m_client.reset();
        m_providers.reset();
        m_engine.reset();
        m_server.reset();
    }

    void openAi_stream_deliversDeltasAsTheyArrive_andTheFinalResponse()
    {
        // Chunks of 97 bytes end anywhere: inside lines, JSON strings and "data:" prefixes.
        m_server->route("POST", "/v1/chat/completions",
                        ScriptedResponse::streamed(piecesOf(fixture(u"openai_stream.sse"_s), 97), 2));
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, streamed()));
        Screen screen;
        screen.watch(call.get());
        QList<int> toolIndexes;
        connect(call.get(), &ChatCall::toolCallDelta, this,
                [&](int index, const QString &, const QString &, const QByteArray &) { toolIndexes.append(index); });
        const ChatResponse response = finishedResponse(call.get());
        QCOMPARE(screen.text, u"Checking both."_s);
        QCOMPARE(screen.thinking, u"Look it up."_s);
        QCOMPARE(toolIndexes, QList<int>({0, 1, 0, 1, 0}));
        QCOMPARE(response.text, u"Checking both."_s);
        QCOMPARE(response.toolCalls.size(), 2);
        QCOMPARE(response.usage.cacheRead, 100);
        QCOMPARE(response.attempts.size(), 1);
        QCOMPARE(response.attempts.first().status, 200);

        const RecordedRequest sent = m_server->requests().first();
        const QJsonObject body = QJsonDocument::fromJson(sent.body).object();
        QCOMPARE(body.value("stream"_L1).toBool(), true);
        QCOMPARE(body.value("stream_options"_L1).toObject().value("include_usage"_L1).toBool(), true);
        // OpenAI's own API gets the newer name for the output limit.
        QCOMPARE(body.value("max_completion_tokens"_L1).toInt(), 64);
        QVERIFY(!body.contains("max_tokens"_L1));
        QCOMPARE(sent.header("Accept"), QByteArray("text/event-stream"));
    }

    void genericProvider_keepsMaxTokens()
    {
        qputenv("GENERIC_BASE_URL", m_server->baseUrl().toEncoded() + "/v1");
        m_providers = std::make_unique<ProviderRegistry>();
        m_client = std::make_unique<ChatClient>(*m_engine, *m_providers, nullptr);
        m_server->route("POST", "/v1/chat/completions", ScriptedResponse::streamed({openAiChunk(u"hi"_s) + openAiEnd}, 0));
        std::unique_ptr<ChatCall> call(m_client->chat(u"generic:qwen3"_s, streamed()));
        QCOMPARE(finishedResponse(call.get()).text, u"hi"_s);
        const QJsonObject body = QJsonDocument::fromJson(m_server->requests().first().body).object();
        QCOMPARE(body.value("max_tokens"_L1).toInt(), 64);
        qunsetenv("GENERIC_BASE_URL");
    }

    void anthropic_stream_thinkingTextToolsAndCumulativeUsage()
    {
        m_server->route("POST", "/v1/messages", ScriptedResponse::streamed({fixture(u"anthropic_stream.sse"_s)}, 0));
        std::unique_ptr<ChatCall> call(m_client->chat(u"anthropic:claude-sonnet-4-5"_s, streamed()));
        Screen screen;
        screen.watch(call.get());
        const ChatResponse response = finishedResponse(call.get());
        QCOMPARE(screen.thinking, u"The user wants weather."_s);
        QCOMPARE(response.text, u"Let me check."_s);
        QCOMPARE(response.usage.output, 89);
        QCOMPARE(response.toolCalls.first().name, u"get_weather"_s);
        QVERIFY(response.costUsd); // a priced model
        const double expected = (25 * 3.0 + 2000 * 0.3 + 89 * 15.0) / 1e6;
        QVERIFY(qAbs(*response.costUsd - expected) < 1e-12);
        QCOMPARE(QJsonDocument::fromJson(m_server->requests().first().body).object().value("stream"_L1).toBool(), true);
    }

    void chunkSplitInsideAUtf8Character_arrivesIntact()
    {
        const QByteArray whole = openAiChunk(u"Grüße 😀"_s) + openAiEnd;
        const qsizetype umlaut = whole.indexOf("\xc3\xbc");
        const qsizetype emoji = whole.indexOf("\xf0\x9f");
        m_server->route("POST", "/v1/chat/completions",
                        ScriptedResponse::streamed({whole.left(umlaut + 1), whole.mid(umlaut + 1, emoji + 2 - umlaut - 1),
                                                    whole.mid(emoji + 2)},
                                                   20));
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, streamed()));
        Screen screen;
        screen.watch(call.get());
        QCOMPARE(finishedResponse(call.get()).text, u"Grüße 😀"_s);
        QCOMPARE(screen.text, u"Grüße 😀"_s);
    }

    void connectionResetMidStream_restartsFromScratch_withoutDuplicatedText()
    {
        ScriptedResponse broken = ScriptedResponse::streamed({openAiChunk(u"Partial "_s), openAiChunk(u"answer"_s), openAiEnd}, 20);
        broken.resetAfterChunks = 2;
        m_server->routeSequence("POST", "/v1/chat/completions",
                                {broken, ScriptedResponse::streamed({openAiChunk(u"Whole answer"_s), openAiEnd}, 0)});
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, streamed()));
        Screen screen;
        screen.watch(call.get());
        const ChatResponse response = finishedResponse(call.get());
        QCOMPARE(response.text, u"Whole answer"_s);
        QCOMPARE(screen.text, u"Whole answer"_s);
        QCOMPARE(screen.restarts, 1);
        QVERIFY(screen.everything.startsWith("Partial "_L1)); // the partial text was shown, then dropped
        QCOMPARE(response.attempts.size(), 2);
        QCOMPARE(response.attempts.at(0).status, 0);
        QVERIFY2(response.attempts.at(0).error.contains("'openai'"_L1), qPrintable(response.attempts.at(0).error));
        QVERIFY(response.attempts.at(1).waitMs > 0);
        QCOMPARE(m_server->requestCount("/v1/chat/completions"), 2);
    }

    void streamEndingWithoutDone_isRetried()
    {
        ScriptedResponse truncated = ScriptedResponse::streamed({openAiChunk(u"cut"_s)}, 0);
        m_server->routeSequence("POST", "/v1/chat/completions",
                                {truncated, ScriptedResponse::streamed({openAiChunk(u"full"_s) + openAiEnd}, 0)});
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, streamed()));
        const ChatResponse response = finishedResponse(call.get());
        QCOMPARE(response.text, u"full"_s);
        QVERIFY2(response.attempts.first().error.contains("ended before [DONE]"_L1),
                 qPrintable(response.attempts.first().error));
    }

    void stallPastTheIdleTimeout_isRetried_thenGivesUpWithTheReason()
    {
        setProvider(u"openai"_s, [](ProviderConfig &config) { config.idleTimeoutMs = 300; });
        ScriptedResponse stalled = ScriptedResponse::streamed({openAiChunk(u"Hel"_s), openAiChunk(u"lo"_s)}, 0);
        stalled.stallAfterChunks = 1;
        m_server->routeSequence("POST", "/v1/chat/completions",
                                {stalled, ScriptedResponse::streamed({openAiChunk(u"Hello"_s) + openAiEnd}, 0)});
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, streamed()));
        const ChatResponse response = finishedResponse(call.get());
        QCOMPARE(response.text, u"Hello"_s);
        QVERIFY2(response.attempts.first().error.contains("stalled for 300 ms"_L1),
                 qPrintable(response.attempts.first().error));

        RetryPolicy once = m_client->retryPolicy();
        once.maxAttempts = 2;
        m_client->setRetryPolicy(once);
        m_server->route("POST", "/v1/chat/completions", stalled);
        std::unique_ptr<ChatCall> hopeless(m_client->chat(u"openai:gpt-4.1"_s, streamed()));
        const QString message = failureOf(hopeless.get());
        QVERIFY2(message.contains("gave up after 2 attempts"_L1), qPrintable(message));
        QVERIFY2(message.contains("stalled"_L1), qPrintable(message));
        QCOMPARE(hopeless->attempts().size(), 2);
    }

    void garbageBytes_failWithTheBytesQuoted_withoutRetry()
    {
        m_server->route("POST", "/v1/chat/completions",
                        ScriptedResponse::streamed({openAiChunk(u"ok"_s), QByteArray("\x00\x01garbage\xff\n\n", 12)}, 10));
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, streamed()));
        const QString message = failureOf(call.get());
        QVERIFY2(message.contains("broken stream"_L1), qPrintable(message));
        QVERIFY2(message.contains(u"\\x00\\x01garbage\\xff"_s), qPrintable(message));
        QCOMPARE(m_server->requestCount("/v1/chat/completions"), 1);
    }

    void badJsonInNonStreamingReply_failsQuotingIt()
    {
        m_server->route("POST", "/v1/chat/completions", ScriptedResponse::json(200, "{\"choices\": [tru"));
        ChatRequest request = streamed();
        request.stream = false;
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, request));
        const QString message = failureOf(call.get());
        QVERIFY2(message.contains("{\"choices\": [tru"_L1), qPrintable(message));
        QCOMPARE(m_server->requestCount("/v1/chat/completions"), 1);
    }

    void missingUsage_isAnError()
    {
        m_server->route("POST", "/v1/chat/completions",
                        ScriptedResponse::json(200, R"({"choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]})"));
        ChatRequest request = streamed();
        request.stream = false;
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, request));
        const QString message = failureOf(call.get());
        QVERIFY2(message.contains("no usage"_L1), qPrintable(message));
    }

    void status429WithRetryAfter_waitsThatLong_thenSucceeds()
    {
        m_server->routeSequence("POST", "/v1/chat/completions",
                                {ScriptedResponse::tooManyRequests(1),
                                 ScriptedResponse::streamed({openAiChunk(u"ok"_s) + openAiEnd}, 0)});
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, streamed()));
        QSignalSpy retrying(call.get(), &ChatCall::retrying);
        const ChatResponse response = finishedResponse(call.get());
        QCOMPARE(response.text, u"ok"_s);
        QCOMPARE(retrying.count(), 1);
        QCOMPARE(retrying.first().at(1).toLongLong(), 1000);
        QCOMPARE(response.attempts.size(), 2);
        QCOMPARE(response.attempts.at(0).status, 429);
        QCOMPARE(response.attempts.at(0).error, u"HTTP 429: Rate limit reached"_s);
        QCOMPARE(response.attempts.at(1).waitMs, 1000);
    }

    void serverErrors_areRetried_andEachAttemptRecorded()
    {
        m_server->routeSequence("POST", "/v1/chat/completions",
                                {ScriptedResponse::json(500, R"({"error":{"message":"boom"}})"),
                                 ScriptedResponse::json(502, "<html>Bad gateway</html>"),
                                 ScriptedResponse::streamed({openAiChunk(u"ok"_s) + openAiEnd}, 0)});
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, streamed()));
        const ChatResponse response = finishedResponse(call.get());
        QCOMPARE(response.text, u"ok"_s);
        QCOMPARE(response.attempts.size(), 3);
        QCOMPARE(response.attempts.at(0).status, 500);
        QCOMPARE(response.attempts.at(0).error, u"HTTP 500: boom"_s);
        QCOMPARE(response.attempts.at(1).status, 502);
        QCOMPARE(response.attempts.at(1).error, u"HTTP 502: <html>Bad gateway</html>"_s);
        QCOMPARE(response.attempts.at(2).status, 200);
        QVERIFY(response.attempts.at(2).error.isEmpty());
    }

    void anthropic529AndOverloadedEvent_areRetried()
    {
        const QByteArray overloaded =
            "event: error\ndata: "
            "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
        m_server->routeSequence(
            "POST", "/v1/messages",
            {ScriptedResponse::json(529,
                                    R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"),
             ScriptedResponse::streamed({overloaded}, 0),
             ScriptedResponse::streamed({fixture(u"anthropic_stream.sse"_s)}, 0)});
        std::unique_ptr<ChatCall> call(m_client->chat(u"anthropic:claude-sonnet-4-5"_s, streamed()));
        const ChatResponse response = finishedResponse(call.get());
        QCOMPARE(response.text, u"Let me check."_s);
        QCOMPARE(response.attempts.size(), 3);
        QCOMPARE(response.attempts.at(0).status, 529);
        QVERIFY2(response.attempts.at(1).error.contains("overloaded_error: Overloaded"_L1),
                 qPrintable(response.attempts.at(1).error));
    }

    void clientError_isNotRetried_andTheServerMessageIsVerbatim()
    {
        m_server->route("POST", "/v1/messages",
                        ScriptedResponse::json(400, R"({"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: 100000 > 64000, which is the maximum allowed"}})"));
        std::unique_ptr<ChatCall> call(m_client->chat(u"anthropic:claude-sonnet-4-5"_s, streamed()));
        QCOMPARE(failureOf(call.get()), u"HTTP 400: max_tokens: 100000 > 64000, which is the maximum allowed"_s);
        QCOMPARE(m_server->requestCount("/v1/messages"), 1);
        QCOMPARE(call->attempts().size(), 1);
    }

    void givingUp_namesProviderStatusAndServerMessage()
    {
        m_server->route("POST", "/v1/chat/completions",
                        ScriptedResponse::json(503, R"({"error":{"message":"The engine is currently overloaded"}})"));
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, streamed()));
        QCOMPARE(failureOf(call.get()),
                 u"Provider 'openai' gave up after 4 attempts; the last: HTTP 503: The engine is currently overloaded"_s);
        QCOMPARE(m_server->requestCount("/v1/chat/completions"), 4);
        QCOMPARE(call->attempts().size(), 4);
        for (const ChatAttempt &attempt : call->attempts()) {
            QCOMPARE(attempt.status, 503);
        }
    }

    void cancelMidStream_stopsAtOnce_withNoMoreDeltas()
    {
        m_server->route("POST", "/v1/chat/completions",
                        ScriptedResponse::streamed({openAiChunk(u"one "_s), openAiChunk(u"two "_s), openAiChunk(u"three"_s), openAiEnd}, 150));
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, streamed()));
        Screen screen;
        screen.watch(call.get());
        QSignalSpy failed(call.get(), &ChatCall::failed);
        QTRY_COMPARE_WITH_TIMEOUT(screen.text, u"one "_s, 5000);
        call->cancel();
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.first().first().toString(), u"Cancelled"_s);
        // The server keeps sending for a while; none of it may reach the screen. (Waiting is the only
        // way to observe that something does not happen.)
        QTest::qWait(400);
        QCOMPARE(screen.text, u"one "_s);
    }

    void cancelDuringBackoff_stopsTheRetry()
    {
        RetryPolicy slow = m_client->retryPolicy();
        slow.baseDelayMs = 60000;
        slow.maxDelayMs = 60000;
        m_client->setRetryPolicy(slow);
        m_server->route("POST", "/v1/chat/completions", ScriptedResponse::json(503, R"({"error":{"message":"busy"}})"));
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, streamed()));
        QSignalSpy retrying(call.get(), &ChatCall::retrying);
        QTRY_COMPARE_WITH_TIMEOUT(retrying.count(), 1, 5000);
        QSignalSpy failed(call.get(), &ChatCall::failed);
        call->cancel();
        QCOMPARE(failed.count(), 1);
        QCOMPARE(m_server->requestCount("/v1/chat/completions"), 1);
    }

    void requestsPerMinute_holdsBackAttemptsBeyondTheBudget()
    {
        setProvider(u"openai"_s, [](ProviderConfig &config) { config.requestsPerMinute = 2; });
        m_server->route("POST", "/v1/chat/completions", ScriptedResponse::streamed({openAiChunk(u"ok"_s) + openAiEnd}, 0));
        std::unique_ptr<ChatCall> first(m_client->chat(u"openai:gpt-4.1"_s, streamed()));
        std::unique_ptr<ChatCall> second(m_client->chat(u"openai:gpt-4.1"_s, streamed()));
        std::unique_ptr<ChatCall> third(m_client->chat(u"openai:gpt-4.1"_s, streamed()));
        QSignalSpy secondFinished(second.get(), &ChatCall::finished);
        QSignalSpy thirdFinished(third.get(), &ChatCall::finished);
        QTRY_COMPARE_WITH_TIMEOUT(secondFinished.count(), 1, 5000);
        QTest::qWait(300);
        QCOMPARE(m_server->requestCount("/v1/chat/completions"), 2);
        QCOMPARE(thirdFinished.count(), 0);
        QSignalSpy thirdFailed(third.get(), &ChatCall::failed);
        third->cancel();
        QCOMPARE(thirdFailed.count(), 1);
    }
};

SF_TEST_GUILESS_MAIN(TestChatStreaming)
#include "test_chat_streaming.moc"
