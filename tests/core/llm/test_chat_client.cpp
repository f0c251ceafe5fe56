#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "llm/ChatCall.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTest>
#include <memory>

using namespace sf;
using namespace sf::test;
using namespace Qt::StringLiterals;

namespace {

const QByteArray openAiAnswer = R"({"id":"chatcmpl-9","object":"chat.completion","model":"gpt-4.1-2025-04-14",
  "choices":[{"index":0,"message":{"role":"assistant","content":"A CUDA kernel runs on the GPU."},"finish_reason":"stop"}],
  "usage":{"prompt_tokens":30,"completion_tokens":9,"total_tokens":39,"prompt_tokens_details":{"cached_tokens":10}}})";

const QByteArray anthropicAnswer = R"({"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-4-5",
  "content":[{"type":"text","text":"Kernels are GPU functions."}],"stop_reason":"end_turn",
  "usage":{"input_tokens":21,"output_tokens":6,"cache_creation_input_tokens":0,"cache_read_input_tokens":100}})";

ChatRequest question()
{
    ChatRequest request;
    request.system = u"Answer briefly."_s;
    request.messages = {{u"user"_s, u"What is a CUDA kernel?"_s}};
    request.maxTokens = 64;
    request.temperature = 0.0;
    return request;
}

QJsonObject jsonOf(const QByteArray &body)
{
    return QJsonDocument::fromJson(body).object();
}

} // namespace

class TestChatClient final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ScriptedHttpServer> m_server;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_client;

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
        fast.maxDelayMs = 20;
        m_client->setRetryPolicy(fast);
    }

    void cleanup()
    {
        m_client.reset();
        m_providers.reset();
        m_engine.reset();
        m_server.reset();
    }

    void openAi_chat_sendsBearerKeyAndParsesAnswer()
    {
        m_server->route("POST", "/v1/chat/completions", ScriptedResponse::json(200, openAiAnswer));
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, question()));
        QSignalSpy finished(call.get(), &ChatCall::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);

        const auto response = finished.first().first().value<ChatResponse>();
        QCOMPARE(response.text, u"A CUDA kernel runs on the GPU."_s);
        QCOMPARE(response.usage.uncachedInput, 20);
        QCOMPARE(response.usage.cacheRead, 10);
        QCOMPARE(response.usage.output, 9);
        QVERIFY(response.latencyMs > 0);
        QVERIFY(response.firstByteMs > 0);

        const RecordedRequest sent = m_server->requests().first();
        QCOMPARE(sent.path, QByteArray("/v1/chat/completions"));
        QCOMPARE(sent.header("Authorization"), QByteArray("Bearer sk-test-openai-0001"));
        QCOMPARE(sent.header("Content-Type"), QByteArray("application/json"));
        const QJsonObject body = jsonOf(sent.body);
        QCOMPARE(body.value("model"_L1).toString(), u"gpt-4.1"_s);
        QCOMPARE(body.value("messages"_L1).toArray().size(), 2);
    }

    void anthropic_chat_sendsApiKeyAndVersionHeaders()
    {
        m_server->route("POST", "/v1/messages", ScriptedResponse::json(200, anthropicAnswer));
        std::unique_ptr<ChatCall> call(m_client->chat(u"anthropic:claude-opus-4-5"_s, question()));
        QSignalSpy finished(call.get(), &ChatCall::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);

        const auto response = finished.first().first().value<ChatResponse>();
        QCOMPARE(response.text, u"Kernels are GPU functions."_s);
        QCOMPARE(response.usage.totalInput(), 121);
        const RecordedRequest sent = m_server->requests().first();
        QCOMPARE(sent.path, QByteArray("/v1/messages"));
        QCOMPARE(sent.header("x-api-key"), QByteArray("sk-ant-test-0002"));
        QCOMPARE(sent.header("anthropic-version"), QByteArray("2023-06-01"));
        QVERIFY(sent.header("Authorization").isEmpty());
        QCOMPARE(jsonOf(sent.body).value("system"_L1).toString(), u"Answer briefly."_s);
    }

    void hfModelWithRouteSuffix_sendsEverythingAfterFirstColon()
    {
        ProviderConfig hf = *m_providers->find(u"hf"_s);
        hf.baseUrl = m_server->baseUrl();
        m_providers->add(hf);
        qputenv("HF_TOKEN", "hf_test_token_0003");
        m_server->route("POST", "/chat/completions", ScriptedResponse::json(200, openAiAnswer));
        std::unique_ptr<ChatCall> call(m_client->chat(u"hf:moonshotai/Kimi-K2-Thinking:groq"_s, question()));
        QSignalSpy finished(call.get(), &ChatCall::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
        const RecordedRequest sent = m_server->requests().first();
        QCOMPARE(jsonOf(sent.body).value("model"_L1).toString(), u"moonshotai/Kimi-K2-Thinking:groq"_s);
        QCOMPARE(sent.header("Authorization"), QByteArray("Bearer hf_test_token_0003"));
        qunsetenv("HF_TOKEN");
    }

    void http401_failsWithProviderMessageVerbatim()
    {
        m_server->route("POST", "/v1/chat/completions",
                        ScriptedResponse::json(401, R"({"error":{"message":"Incorrect API key provided: sk-tes***0001.",
                            "type":"invalid_request_error","code":"invalid_api_key"}})"));
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, question()));
        QSignalSpy failed(call.get(), &ChatCall::failed);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
        QCOMPARE(failed.first().first().toString(), u"HTTP 401: Incorrect API key provided: sk-tes***0001."_s);
    }

    void contextOverflow_isNotRetried_data()
    {
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        // llama-server refusing a prompt longer than a slot, and failing a reply that outgrew it.
        QTest::newRow("llama-server prompt") << 400
                                             << QByteArray(R"({"error":{"code":400,"message":"request (4169 )"
                                                           R"(tokens) exceeds the available context size (4096 )"
                                                           R"(tokens), try increasing it","type":)"
                                                           R"("exceed_context_size_error"}})");
        QTest::newRow("llama-server decode") << 500
                                             << QByteArray(R"({"error":{"code":500,"message":"Context size has )"
                                                           R"(been exceeded.","type":"server_error"}})");
        QTest::newRow("openai") << 400
                                << QByteArray(R"({"error":{"message":"The maximum context length of this model is )"
                                              R"(8192 tokens.","code":"context_length_exceeded"}})");
    }

    void contextOverflow_isNotRetried()
    {
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        m_server->route("POST", "/v1/chat/completions", ScriptedResponse::json(status, body));
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, question()));
        QSignalSpy failed(call.get(), &ChatCall::failed);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
        QCOMPARE(m_server->requestCount("/v1/chat/completions"), 1);
        QCOMPARE(call->attempts().size(), 1);
        QVERIFY(call->exceededContext());
        QVERIFY2(failed.first().first().toString().startsWith(u"HTTP %1: "_s.arg(status)),
                 qPrintable(failed.first().first().toString()));
    }

    void ordinary500_isStillRetried()
    {
        m_server->routeSequence("POST", "/v1/chat/completions",
                                {ScriptedResponse::json(500, R"({"error":{"message":"boom"}})"),
                                 ScriptedResponse::json(200, openAiAnswer)});
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, question()));
        QSignalSpy finished(call.get(), &ChatCall::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
        QCOMPARE(m_server->requestCount("/v1/chat/completions"), 2);
        QVERIFY(!call->exceededContext());
    }

    void whyUnavailable_namesTheMissingKey_andIsEmptyWhenSet()
    {
        QVERIFY(m_client->whyUnavailable(u"openai:gpt-4.1"_s).isEmpty());
        qunsetenv("HF_TOKEN");
        QVERIFY(m_client->whyUnavailable(u"hf:moonshotai/Kimi-K2"_s).contains("HF_TOKEN"_L1));
        QVERIFY(m_client->whyUnavailable(u"nosuch:model"_s).contains("nosuch"_L1));
        // This client was made without a local server.
        QVERIFY(!m_client->whyUnavailable(u"local:any"_s).isEmpty());
    }

    void isSetUp_needsTheUsersKeyOrServerAddress_notJustADefault()
    {
        QVERIFY(m_client->isSetUp(u"openai:gpt-4.1"_s)); // its key is set
        qunsetenv("OLLAMA_HOST");
        ProviderRegistry defaults;
        ChatClient plain(*m_engine, defaults, nullptr);
        QVERIFY(plain.whyUnavailable(u"ollama:qwen3-coder"_s).isEmpty()); // reachable in principle...
        QVERIFY(!plain.isSetUp(u"ollama:qwen3-coder"_s));                 // ...but nobody said a server is there
        qputenv("OLLAMA_HOST", "127.0.0.1:11434");
        ProviderRegistry configured;
        ChatClient withHost(*m_engine, configured, nullptr);
        QVERIFY(withHost.isSetUp(u"ollama:qwen3-coder"_s));
        qunsetenv("OLLAMA_HOST");
        qunsetenv("OPENAI_API_KEY");
        QVERIFY(!m_client->isSetUp(u"openai:gpt-4.1"_s));
    }

    void missingApiKey_failsNamingTheVariable_withoutSending()
    {
        qunsetenv("OPENAI_API_KEY");
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, question()));
        QSignalSpy failed(call.get(), &ChatCall::failed);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains("OPENAI_API_KEY"_L1), qPrintable(message));
        QCOMPARE(m_server->requests().size(), 0);
    }

    void badModelNames_failClearly_data()
    {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no provider") << u"gpt-4.1"_s << u"PROVIDER:MODEL"_s;
        QTest::newRow("unknown provider") << u"mistery:model"_s << u"Unknown provider 'mistery'"_s;
        QTest::newRow("local without server") << u"local:gemma3-270m"_s << u"local model is not available"_s;
        QTest::newRow("generic without url") << u"generic:any"_s << u"GENERIC_BASE_URL"_s;
    }

    void badModelNames_failClearly()
    {
        QFETCH(QString, model);
        QFETCH(QString, expected);
        qunsetenv("GENERIC_BASE_URL");
        m_providers = std::make_unique<ProviderRegistry>();
        m_client = std::make_unique<ChatClient>(*m_engine, *m_providers, nullptr);
        std::unique_ptr<ChatCall> call(m_client->chat(model, question()));
        QSignalSpy failed(call.get(), &ChatCall::failed);
        QSignalSpy finished(call.get(), &ChatCall::finished);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
        QVERIFY2(failed.first().first().toString().contains(expected), qPrintable(failed.first().first().toString()));
        QCOMPARE(finished.count(), 0);
    }

    void unreachableProvider_failsWithTransportError()
    {
        quint16 closedPort = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            closedPort = probe.serverPort();
        }
        ProviderConfig openai = *m_providers->find(u"openai"_s);
        openai.baseUrl = QUrl(u"http://127.0.0.1:%1/v1"_s.arg(closedPort));
        m_providers->add(openai);
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, question()));
        QSignalSpy failed(call.get(), &ChatCall::failed);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
        const QString message = failed.first().first().toString();
        // Connection failures are retried; the message says so and keeps curl's own reason.
        QVERIFY2(message.contains("gave up after 5 attempts"_L1), qPrintable(message));
        QVERIFY2(message.contains("'openai' failed"_L1), qPrintable(message));
        QCOMPARE(call->attempts().size(), 5);
    }

    void cancel_stopsTheCallWithCancelled()
    {
        ScriptedResponse slow = ScriptedResponse::json(200, openAiAnswer);
        slow.delayMs = 30000;
        m_server->route("POST", "/v1/chat/completions", slow);
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, question()));
        QSignalSpy failed(call.get(), &ChatCall::failed);
        QSignalSpy finished(call.get(), &ChatCall::finished);
        QTRY_COMPARE_WITH_TIMEOUT(m_server->requests().size(), 1, 5000);
        call->cancel();
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.first().first().toString(), u"Cancelled"_s);
        call->cancel();
        QCOMPARE(failed.count(), 1);
        QCOMPARE(finished.count(), 0);
    }

    void maxConcurrent_queuesCallsBeyondTheLimit()
    {
        ProviderConfig openai = *m_providers->find(u"openai"_s);
        openai.maxConcurrent = 1;
        m_providers->add(openai);
        ScriptedResponse slow = ScriptedResponse::json(200, openAiAnswer);
        slow.delayMs = 200;
        m_server->route("POST", "/v1/chat/completions", slow);

        std::unique_ptr<ChatCall> first(m_client->chat(u"openai:gpt-4.1"_s, question()));
        std::unique_ptr<ChatCall> second(m_client->chat(u"openai:gpt-4.1"_s, question()));
        qsizetype requestsWhenFirstFinished = -1;
        connect(first.get(), &ChatCall::finished, this,
                [&] { requestsWhenFirstFinished = m_server->requests().size(); });
        QSignalSpy secondFinished(second.get(), &ChatCall::finished);
        QTRY_COMPARE_WITH_TIMEOUT(secondFinished.count(), 1, 5000);
        QCOMPARE(requestsWhenFirstFinished, 1);
        QCOMPARE(m_server->requests().size(), 2);
    }

    void requestedConcurrency_beatsTheDefault_butNotTheUsersLimit()
    {
        // Skillforge's default of 1 here: a run asking for 3 gets 3 at once.
        ProviderConfig openai = *m_providers->find(u"openai"_s);
        openai.maxConcurrent = 1;
        openai.limitsSetByUser = false;
        m_providers->add(openai);
        ScriptedResponse slow = ScriptedResponse::json(200, openAiAnswer);
        slow.delayMs = 300;
        m_server->route("POST", "/v1/chat/completions", slow);
        const auto inFlightAtOnce = [&](int calls) {
            const qsizetype before = m_server->requests().size();
            std::vector<std::unique_ptr<ChatCall>> sent;
            for (int i = 0; i < calls; ++i)
                sent.emplace_back(m_client->chat(u"openai:gpt-4.1"_s, question()));
            QTest::qWait(150); // every call that may go has gone; none has been answered
            const qsizetype atOnce = m_server->requests().size() - before;
            for (auto &call : sent) {
                QSignalSpy finished(call.get(), &ChatCall::finished);
                if (!call->isDone())
                    finished.wait(5000);
            }
            return atOnce;
        };
        m_client->addRequestedConcurrency(3);
        QCOMPARE(inFlightAtOnce(3), 3);
        QCOMPARE(m_client->concurrencyFor(u"openai"_s, 3).limit, 3);
        QCOMPARE(m_client->concurrencyFor(u"openai"_s, 3).reason, u"the run's concurrency"_s);

        // A limit the user set holds, and the reason says so.
        openai.maxConcurrent = 2;
        openai.limitsSetByUser = true;
        m_providers->add(openai);
        QCOMPARE(inFlightAtOnce(3), 2);
        QCOMPARE(m_client->concurrencyFor(u"openai"_s, 3).limit, 2);
        QVERIFY(m_client->concurrencyFor(u"openai"_s, 3).reason.startsWith(u"your limit for openai"_s));
        // Below the user's limit, the run's number.
        QCOMPARE(m_client->concurrencyFor(u"openai"_s, 1).limit, 1);

        // The run ended: the provider's own limit again.
        m_client->removeRequestedConcurrency(3);
        openai.limitsSetByUser = false;
        openai.maxConcurrent = 1;
        m_providers->add(openai);
        QCOMPARE(inFlightAtOnce(3), 1);
        // The embedded server's slots are a hard limit.
        QVERIFY(m_client->concurrencyFor(u"local"_s, 64).reason.contains(u"slots"_s));
    }

    void openAi_toolRound_sendsToolsAndResults_parsesCalls()
    {
        m_server->route("POST", "/v1/chat/completions",
                        ScriptedResponse::json(200, QByteArray(R"({"model":"gpt-4.1","choices":[{"index":0,"message":{
          "role":"assistant","content":null,"tool_calls":[{"id":"call_7","type":"function",
          "function":{"name":"read_file","arguments":"{'path':'SKILL.md'}"}}]},"finish_reason":"tool_calls"}],
          "usage":{"prompt_tokens":50,"completion_tokens":12}})")
                                                        .replace('\'', "\\\""))); // ' stands for \" (see moc)
        ChatRequest request = toolRound();
        std::unique_ptr<ChatCall> call(m_client->chat(u"openai:gpt-4.1"_s, request));
        QSignalSpy finished(call.get(), &ChatCall::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);

        const auto response = finished.first().first().value<ChatResponse>();
        QCOMPARE(response.finishReason, u"tool_calls"_s);
        QCOMPARE(response.toolCalls.size(), 1);
        QCOMPARE(response.toolCalls.first().id, u"call_7"_s);
        QCOMPARE(response.toolCalls.first().name, u"read_file"_s);
        QCOMPARE(response.toolCalls.first().arguments, QByteArray(R"({"path":"SKILL.md"})"));

        const QJsonObject body = jsonOf(m_server->requests().first().body);
        QCOMPARE(body.value("tools"_L1).toArray().first().toObject().value("function"_L1).toObject().value("name"_L1),
                 u"read_file"_s);
        const QJsonArray messages = body.value("messages"_L1).toArray();
        QCOMPARE(messages.size(), 4); // system, user, assistant with tool_calls, tool
        QCOMPARE(messages.at(3).toObject().value("role"_L1).toString(), u"tool"_s);
        QCOMPARE(messages.at(3).toObject().value("tool_call_id"_L1).toString(), u"call_6"_s);
    }

    void anthropic_replySchema_theForcedToolCallComesBackAsTheText()
    {
        m_server->route("POST", "/v1/messages", ScriptedResponse::json(200, R"({"type":"message","role":"assistant",
          "model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"toolu_1","name":"skill",
          "input":{"name":"rmsnorm"}}],"stop_reason":"tool_use","usage":{"input_tokens":5,"output_tokens":3}})"));
        ChatRequest request = question();
        request.replySchema = ReplySchema{u"skill"_s, R"({"type":"object"})"};
        std::unique_ptr<ChatCall> call(m_client->chat(u"anthropic:claude-sonnet-4-5"_s, request));
        QSignalSpy finished(call.get(), &ChatCall::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
        const auto response = finished.first().first().value<ChatResponse>();
        QVERIFY(response.toolCalls.isEmpty());
        QCOMPARE(jsonOf(response.text.toUtf8()).value("name"_L1).toString(), u"rmsnorm"_s);
    }

    void anthropic_toolRound_sendsToolsAndResults_parsesCalls()
    {
        m_server->route("POST", "/v1/messages", ScriptedResponse::json(200, R"({"type":"message","role":"assistant",
          "model":"claude-sonnet-4-5","content":[{"type":"thinking","thinking":"Need the file.","signature":"s"},
          {"type":"tool_use","id":"toolu_7","name":"read_file","input":{"path":"SKILL.md"}}],
          "stop_reason":"tool_use","usage":{"input_tokens":50,"output_tokens":12}})"));
        std::unique_ptr<ChatCall> call(m_client->chat(u"anthropic:claude-sonnet-4-5"_s, toolRound()));
        QSignalSpy finished(call.get(), &ChatCall::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);

        const auto response = finished.first().first().value<ChatResponse>();
        QCOMPARE(response.finishReason, u"tool_use"_s);
        QCOMPARE(response.thinking, u"Need the file."_s);
        QCOMPARE(response.toolCalls.size(), 1);
        QCOMPARE(response.toolCalls.first().id, u"toolu_7"_s);
        QCOMPARE(QJsonDocument::fromJson(response.toolCalls.first().arguments).object().value("path"_L1).toString(),
                 u"SKILL.md"_s);

        const QJsonObject body = jsonOf(m_server->requests().first().body);
        QCOMPARE(body.value("tools"_L1).toArray().first().toObject().value("name"_L1).toString(), u"read_file"_s);
        const QJsonArray messages = body.value("messages"_L1).toArray();
        QCOMPARE(messages.size(), 3); // user, assistant tool_use, user tool_result
        const QJsonObject result = messages.at(2).toObject().value("content"_L1).toArray().first().toObject();
        QCOMPARE(result.value("type"_L1).toString(), u"tool_result"_s);
        QCOMPARE(result.value("tool_use_id"_L1).toString(), u"call_6"_s);
        QCOMPARE(result.value("is_error"_L1).toBool(), true);
    }

private:
    static ChatRequest toolRound()
    {
        ChatRequest request = question();
        request.tools = {{u"read_file"_s, u"Read a file of the skill"_s,
                          R"({"type":"object","properties":{"path":{"type":"string"}},"required":["path"]})"}};
        ChatMessage assistant{u"assistant"_s, QString()};
        assistant.toolCalls = {{u"call_6"_s, u"read_file"_s, R"({"path":"missing.md"})"}};
        ChatMessage result{u"tool"_s, u"No such file: missing.md"_s};
        result.toolCallId = u"call_6"_s;
        result.isError = true;
        request.messages.append(assistant);
        request.messages.append(result);
        return request;
    }
};

SF_TEST_GUILESS_MAIN(TestChatClient)
#include "test_chat_client.moc"
