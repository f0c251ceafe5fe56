#include "llm/OpenAiChatFormat.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

class TestOpenAiChatFormat final : public QObject
{
    Q_OBJECT

private:
    static QJsonObject bodyOf(const ChatRequest &request)
    {
        return QJsonDocument::fromJson(OpenAiChatFormat::requestBody(request)).object();
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void requestBody_putsSystemFirstThenMessages()
    {
        ChatRequest request;
        request.model = u"gpt-4.1"_s;
        request.system = u"Be terse."_s;
        request.messages = {{u"user"_s, u"Hi"_s}, {u"assistant"_s, u"Hello"_s}, {u"user"_s, u"Bye"_s}};
        request.maxTokens = 64;

        const QJsonObject body = bodyOf(request);
        QCOMPARE(body.value("model"_L1).toString(), u"gpt-4.1"_s);
        QCOMPARE(body.value("max_tokens"_L1).toInt(), 64);
        QCOMPARE(body.value("stream"_L1).toBool(true), false);
        const QJsonArray messages = body.value("messages"_L1).toArray();
        QCOMPARE(messages.size(), 4);
        QCOMPARE(messages.at(0).toObject().value("role"_L1).toString(), u"system"_s);
        QCOMPARE(messages.at(0).toObject().value("content"_L1).toString(), u"Be terse."_s);
        QCOMPARE(messages.at(3).toObject().value("content"_L1).toString(), u"Bye"_s);
    }

    void requestBody_optionalSamplingFields_onlyWhenSet()
    {
        ChatRequest request;
        request.model = u"m"_s;
        request.messages = {{u"user"_s, u"Hi"_s}};
        QJsonObject body = bodyOf(request);
        QVERIFY(!body.contains("temperature"_L1));
        QVERIFY(!body.contains("top_p"_L1));
        QVERIFY(!body.contains("seed"_L1));
        QCOMPARE(body.value("messages"_L1).toArray().size(), 1); // no empty system message

        request.temperature = 0.0;
        request.topP = 0.9;
        request.seed = 4294967297LL;
        body = bodyOf(request);
        QCOMPARE(body.value("temperature"_L1).toDouble(-1), 0.0);
        QCOMPARE(body.value("top_p"_L1).toDouble(), 0.9);
        QCOMPARE(body.value("seed"_L1).toInteger(), 4294967297LL);
    }

    void parseResponse_cachedTokens_areSplitOutOfPromptTokens()
    {
        const QByteArray body = R"({
          "id": "chatcmpl-1", "object": "chat.completion", "model": "gpt-4.1-2025-04-14",
          "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello!"}, "finish_reason": "stop"}],
          "usage": {"prompt_tokens": 2006, "completion_tokens": 300, "total_tokens": 2306,
                    "prompt_tokens_details": {"cached_tokens": 1920, "audio_tokens": 0},
                    "completion_tokens_details": {"reasoning_tokens": 256, "audio_tokens": 0}}})";
        const Result<ChatResponse> parsed = OpenAiChatFormat::parseResponse(body);
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        const ChatResponse &response = *parsed.value;
        QCOMPARE(response.text, u"Hello!"_s);
        QCOMPARE(response.finishReason, u"stop"_s);
        QCOMPARE(response.model, u"gpt-4.1-2025-04-14"_s);
        QCOMPARE(response.usage.uncachedInput, 86);
        QCOMPARE(response.usage.cacheRead, 1920);
        QCOMPARE(response.usage.cacheWrite5m, 0);
        QCOMPARE(response.usage.totalInput(), 2006);
        QCOMPARE(response.usage.output, 300);
        QCOMPARE(response.usage.reasoning, 256);
        QVERIFY(!response.serverTokensPerSecond);
    }

    void parseResponse_llamaCppFixture_readsUsageAndServerSpeed()
    {
        QFile fixture(QFINDTESTDATA("data/llamacpp_chat_response.json"));
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        const Result<ChatResponse> parsed = OpenAiChatFormat::parseResponse(fixture.readAll());
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        const ChatResponse &response = *parsed.value;
        QVERIFY(!response.text.isEmpty());
        QCOMPARE(response.finishReason, u"length"_s);
        QVERIFY(response.usage.totalInput() > 0);
        QCOMPARE(response.usage.output, 64);
        QVERIFY(response.serverTokensPerSecond);
        QVERIFY(*response.serverTokensPerSecond > 0);
    }

    void parseResponse_contentParts_areJoined()
    {
        const QByteArray body = R"({"choices":[{"message":{"role":"assistant",
            "content":[{"type":"text","text":"Hel"},{"type":"text","text":"lo"}]},"finish_reason":"stop"}]})";
        const Result<ChatResponse> parsed = OpenAiChatFormat::parseResponse(body);
        QVERIFY(parsed.ok());
        QCOMPARE(parsed.value->text, u"Hello"_s);
    }

    void parseResponse_errorBody_givesProviderMessageVerbatim()
    {
        const QByteArray body = R"({"error": {"message": "Incorrect API key provided: sk-abc***xyz.",
            "type": "invalid_request_error", "param": null, "code": "invalid_api_key"}})";
        const Result<ChatResponse> parsed = OpenAiChatFormat::parseResponse(body);
        QVERIFY(!parsed.ok());
        QCOMPARE(parsed.error, u"Incorrect API key provided: sk-abc***xyz."_s);
        QCOMPARE(OpenAiChatFormat::errorMessage(body), parsed.error);
    }

    void parseResponse_notJson_saysSo()
    {
        const Result<ChatResponse> parsed = OpenAiChatFormat::parseResponse("<html>Bad gateway</html>");
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.error.contains("not a JSON object"_L1), qPrintable(parsed.error));
        QVERIFY(parsed.error.contains("Bad gateway"_L1));
    }

    void parseResponse_noChoices_isAnError() { QVERIFY(!OpenAiChatFormat::parseResponse(R"({"choices": []})").ok()); }

    void parseModelList_readsDataIds()
    {
        const Result<QStringList> ids = OpenAiChatFormat::parseModelList(
            R"({"object":"list","data":[{"id":"gpt-4.1","object":"model"},{"id":"o3","object":"model"}]})");
        QVERIFY(ids.ok());
        QCOMPARE(*ids.value, QStringList({u"gpt-4.1"_s, u"o3"_s}));
    }
};

QTEST_GUILESS_MAIN(TestOpenAiChatFormat)
#include "test_openai_chat_format.moc"
