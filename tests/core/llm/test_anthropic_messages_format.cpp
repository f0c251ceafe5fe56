#include "llm/AnthropicMessagesFormat.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

class TestAnthropicMessagesFormat final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void requestBody_systemIsTopLevel_notAMessage()
    {
        ChatRequest request;
        request.model = u"claude-opus-4-5"_s;
        request.system = u"You are a CUDA expert."_s;
        request.messages = {{u"user"_s, u"Write a kernel"_s}};
        request.maxTokens = 2048;
        request.temperature = 0.2;
        request.seed = 7;

        const QJsonObject body = QJsonDocument::fromJson(AnthropicMessagesFormat::requestBody(request)).object();
        QCOMPARE(body.value("model"_L1).toString(), u"claude-opus-4-5"_s);
        QCOMPARE(body.value("system"_L1).toString(), u"You are a CUDA expert."_s);
        QCOMPARE(body.value("max_tokens"_L1).toInt(), 2048);
        QCOMPARE(body.value("temperature"_L1).toDouble(), 0.2);
        QVERIFY(!body.contains("seed"_L1));
        QVERIFY(!body.contains("top_p"_L1));
        const QJsonArray messages = body.value("messages"_L1).toArray();
        QCOMPARE(messages.size(), 1);
        QCOMPARE(messages.at(0).toObject().value("role"_L1).toString(), u"user"_s);
    }

    void requestBody_emptySystem_isOmitted()
    {
        ChatRequest request;
        request.model = u"m"_s;
        request.messages = {{u"user"_s, u"Hi"_s}};
        const QJsonObject body = QJsonDocument::fromJson(AnthropicMessagesFormat::requestBody(request)).object();
        QVERIFY(!body.contains("system"_L1));
    }

    void parseResponse_textBlocksJoined_thinkingSkipped()
    {
        const QByteArray body = R"({"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-4-5-20251101",
          "content":[{"type":"thinking","thinking":"hmm","signature":"x"},
                     {"type":"text","text":"Use shared "},{"type":"text","text":"memory."}],
          "stop_reason":"end_turn","stop_sequence":null,
          "usage":{"input_tokens":12,"output_tokens":40,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}})";
        const Result<ChatResponse> parsed = AnthropicMessagesFormat::parseResponse(body);
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        QCOMPARE(parsed.value->text, u"Use shared memory."_s);
        QCOMPARE(parsed.value->finishReason, u"end_turn"_s);
        QCOMPARE(parsed.value->model, u"claude-opus-4-5-20251101"_s);
        QCOMPARE(parsed.value->usage.uncachedInput, 12);
        QCOMPARE(parsed.value->usage.output, 40);
    }

    void parseResponse_cacheCreationSplit_goesToTtlBuckets()
    {
        const QByteArray body = R"({"type":"message","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn",
          "usage":{"input_tokens":50,"output_tokens":5,"cache_creation_input_tokens":3000,"cache_read_input_tokens":1200,
                   "cache_creation":{"ephemeral_5m_input_tokens":1000,"ephemeral_1h_input_tokens":2000},
                   "output_tokens_details":{"thinking_tokens":3}}})";
        const Result<ChatResponse> parsed = AnthropicMessagesFormat::parseResponse(body);
        QVERIFY(parsed.ok());
        const TokenUsage &usage = parsed.value->usage;
        QCOMPARE(usage.uncachedInput, 50);
        QCOMPARE(usage.cacheRead, 1200);
        QCOMPARE(usage.cacheWrite5m, 1000);
        QCOMPARE(usage.cacheWrite1h, 2000);
        QCOMPARE(usage.totalInput(), 50 + 1200 + 3000);
        QCOMPARE(usage.reasoning, 3);
    }

    void parseResponse_cacheCreationWithoutSplit_countsAsFiveMinutes()
    {
        const QByteArray body = R"({"type":"message","content":[{"type":"text","text":"ok"}],
          "usage":{"input_tokens":4,"output_tokens":1,"cache_creation_input_tokens":2048,"cache_read_input_tokens":0}})";
        const Result<ChatResponse> parsed = AnthropicMessagesFormat::parseResponse(body);
        QVERIFY(parsed.ok());
        QCOMPARE(parsed.value->usage.cacheWrite5m, 2048);
        QCOMPARE(parsed.value->usage.cacheWrite1h, 0);
    }

    void parseResponse_errorBody_givesProviderMessageVerbatim()
    {
        const QByteArray body =
            R"({"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"},"request_id":"req_1"})";
        const Result<ChatResponse> parsed = AnthropicMessagesFormat::parseResponse(body);
        QVERIFY(!parsed.ok());
        QCOMPARE(parsed.error, u"invalid x-api-key"_s);
        QCOMPARE(AnthropicMessagesFormat::errorMessage(body), u"invalid x-api-key"_s);
    }
};

QTEST_GUILESS_MAIN(TestAnthropicMessagesFormat)
#include "test_anthropic_messages_format.moc"
