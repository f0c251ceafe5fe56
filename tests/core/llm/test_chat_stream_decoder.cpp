#include "SkippedChecks.h"
#include "llm/ChatStreamDecoder.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

QByteArray data(const QByteArray &json)
{
    return "data: " + json + "\n\n";
}

QByteArray sseEvent(const QByteArray &name, const QByteArray &json)
{
    return "event: " + name + "\ndata: " + json + "\n\n";
}

QByteArray fixture(const QString &name)
{
    QFile file(QFINDTESTDATA(u"data/"_s + name));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// A streamed OpenAI reply: reasoning, text, two tool calls whose argument fragments interleave by
// index, then the include_usage chunk with empty choices, then [DONE].
QByteArray openAiStream()
{
    return fixture(u"openai_stream.sse"_s);
}

// Thinking (with a signature delta), a ping, text, a tool_use whose input arrives as JSON fragments,
// and two message_delta events whose usage is cumulative.
QByteArray anthropicStream()
{
    return fixture(u"anthropic_stream.sse"_s);
}

struct Collected
{
    QString text;
    QString thinking;
    QList<ChatDelta> tools;
};

Collected collect(const QList<ChatDelta> &deltas)
{
    Collected result;
    for (const ChatDelta &delta : deltas) {
        if (delta.kind == ChatDelta::Kind::Text) {
            result.text += delta.text;
        } else if (delta.kind == ChatDelta::Kind::Thinking) {
            result.thinking += delta.text;
        } else {
            result.tools.append(delta);
        }
    }
    return result;
}

} // namespace

class TestChatStreamDecoder final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void openAi_fullStream_givesDeltasAndTheSameResponseAsNonStreaming()
    {
        ChatStreamDecoder decoder(WireFormat::OpenAiChat);
        const Collected seen = collect(decoder.feed(openAiStream()));
        QCOMPARE(seen.text, u"Checking both."_s);
        QCOMPARE(seen.thinking, u"Look it up."_s);
        QCOMPARE(seen.tools.size(), 5);
        QCOMPARE(seen.tools.at(0).toolIndex, 0);
        QCOMPARE(seen.tools.at(0).toolId, u"call_a"_s);
        QCOMPARE(seen.tools.at(0).toolName, u"get_weather"_s);
        QCOMPARE(seen.tools.at(2).toolIndex, 0);
        QCOMPARE(seen.tools.at(2).argumentsFragment, QByteArray("{\"city\":"));

        const Result<ChatResponse> response = decoder.finish();
        QVERIFY2(response.ok(), qPrintable(response.error));
        QCOMPARE(response.value->text, u"Checking both."_s);
        QCOMPARE(response.value->thinking, u"Look it up."_s);
        QCOMPARE(response.value->finishReason, u"tool_calls"_s);
        QCOMPARE(response.value->model, u"gpt-4.1"_s);
        QCOMPARE(response.value->toolCalls.size(), 2);
        QCOMPARE(response.value->toolCalls.at(0).id, u"call_a"_s);
        QCOMPARE(response.value->toolCalls.at(0).arguments, QByteArray("{\"city\":\"Paris\"}"));
        QCOMPARE(response.value->toolCalls.at(1).name, u"get_time"_s);
        QCOMPARE(response.value->toolCalls.at(1).arguments, QByteArray("{\"tz\":\"CET\"}"));
        QCOMPARE(response.value->usage.uncachedInput, 20);
        QCOMPARE(response.value->usage.cacheRead, 100);
        QCOMPARE(response.value->usage.output, 40);
        QCOMPARE(response.value->usage.reasoning, 8);
    }

    void openAi_fedOneByteAtATime_givesTheSameResponse()
    {
        const QByteArray stream = openAiStream();
        ChatStreamDecoder decoder(WireFormat::OpenAiChat);
        QString text;
        for (qsizetype i = 0; i < stream.size(); ++i) {
            text += collect(decoder.feed(stream.mid(i, 1))).text;
        }
        QCOMPARE(text, u"Checking both."_s);
        const Result<ChatResponse> response = decoder.finish();
        QVERIFY2(response.ok(), qPrintable(response.error));
        QCOMPARE(response.value->toolCalls.at(0).arguments, QByteArray("{\"city\":\"Paris\"}"));
    }

    void openAi_withoutDone_isARetryableEarlyEnd()
    {
        QByteArray stream = openAiStream();
        stream.chop(QByteArray("data: [DONE]\n\n").size());
        ChatStreamDecoder decoder(WireFormat::OpenAiChat);
        decoder.feed(stream);
        const Result<ChatResponse> response = decoder.finish();
        QVERIFY(!response.ok());
        QVERIFY2(response.error.contains("ended before [DONE]"_L1), qPrintable(response.error));
        QVERIFY(decoder.errorIsRetryable());
    }

    void openAi_cutInsideAnEvent_saysSo()
    {
        const QByteArray stream = openAiStream();
        ChatStreamDecoder decoder(WireFormat::OpenAiChat);
        decoder.feed(stream.left(stream.indexOf("Checking") + 3));
        const Result<ChatResponse> response = decoder.finish();
        QVERIFY(!response.ok());
        QVERIFY2(response.error.contains("in the middle of an event"_L1), qPrintable(response.error));
    }

    void openAi_withoutUsage_isAnError()
    {
        ChatStreamDecoder decoder(WireFormat::OpenAiChat);
        decoder.feed(data(R"({"choices":[{"index":0,"delta":{"content":"Hi"},"finish_reason":"stop"}]})") +
                     "data: [DONE]\n\n");
        const Result<ChatResponse> response = decoder.finish();
        QVERIFY(!response.ok());
        QVERIFY2(response.error.contains("without reporting token usage"_L1), qPrintable(response.error));
        QVERIFY(!decoder.errorIsRetryable());
    }

    void openAi_badJson_isAnErrorQuotingTheEvent()
    {
        ChatStreamDecoder decoder(WireFormat::OpenAiChat);
        const Collected seen =
            collect(decoder.feed(data(R"({"choices":[{"index":0,"delta":{"content":"ok"}}]})") +
                                 data("{\"choices\":[{\"index\":0,\"delta\":{\"content\":") /* cut short */));
        QCOMPARE(seen.text, u"ok"_s);
        QVERIFY(decoder.hasError());
        QVERIFY2(decoder.error().contains(u"{\"choices\":[{\"index\":0,\"delta\":{\"content\":"_s),
                 qPrintable(decoder.error()));
        QVERIFY(!decoder.finish().ok());
    }

    void openAi_errorChunk_carriesTheProviderMessage()
    {
        ChatStreamDecoder decoder(WireFormat::OpenAiChat);
        decoder.feed(
            data(R"({"error":{"message":"The server had an error processing your request.","type":"server_error"}})"));
        QVERIFY(decoder.hasError());
        QCOMPARE(decoder.error(), u"server_error: The server had an error processing your request."_s);
        QVERIFY(decoder.errorIsRetryable());
    }

    void anthropic_fullStream_deltasThinkingToolInputAndCumulativeUsage()
    {
        ChatStreamDecoder decoder(WireFormat::AnthropicMessages);
        const Collected seen = collect(decoder.feed(anthropicStream()));
        QCOMPARE(seen.text, u"Let me check."_s);
        QCOMPARE(seen.thinking, u"The user wants weather."_s);
        QCOMPARE(seen.tools.first().toolId, u"toolu_1"_s);
        QCOMPARE(seen.tools.first().toolName, u"get_weather"_s);

        const Result<ChatResponse> response = decoder.finish();
        QVERIFY2(response.ok(), qPrintable(response.error));
        QCOMPARE(response.value->model, u"claude-sonnet-4-5"_s);
        QCOMPARE(response.value->finishReason, u"tool_use"_s);
        QCOMPARE(response.value->thinkingSignature, u"EqQB"_s); // kept to send the thinking back
        QCOMPARE(response.value->toolCalls.size(), 1);
        QCOMPARE(
            QJsonDocument::fromJson(response.value->toolCalls.first().arguments).object().value("city"_L1).toString(),
            u"Paris"_s);
        const TokenUsage usage = response.value->usage;
        QCOMPARE(usage.uncachedInput, 25);
        QCOMPARE(usage.cacheRead, 2000);
        // message_delta usage is cumulative: the last value (89), not 1 + 30 + 89.
        QCOMPARE(usage.output, 89);
    }

    void anthropic_messageDeltaWithInputCounts_replacesTheStartValues()
    {
        ChatStreamDecoder decoder(WireFormat::AnthropicMessages);
        decoder.feed(
            sseEvent(
                "message_start",
                R"({"type":"message_start","message":{"model":"m","usage":{"input_tokens":10,"output_tokens":1}}})") +
            sseEvent(
                "message_delta",
                R"({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"input_tokens":12,"cache_read_input_tokens":50,"output_tokens":7}})") +
            sseEvent("message_stop", R"({"type":"message_stop"})"));
        const Result<ChatResponse> response = decoder.finish();
        QVERIFY(response.ok());
        QCOMPARE(response.value->usage.uncachedInput, 12);
        QCOMPARE(response.value->usage.cacheRead, 50);
        QCOMPARE(response.value->usage.output, 7);
    }

    void anthropic_overloadedErrorEvent_isRetryableWithTheMessage()
    {
        ChatStreamDecoder decoder(WireFormat::AnthropicMessages);
        decoder.feed(
            anthropicStream().left(anthropicStream().indexOf("event: ping")) +
            sseEvent("error", R"({"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}})"));
        QVERIFY(decoder.hasError());
        QCOMPARE(decoder.error(), u"overloaded_error: Overloaded"_s);
        QVERIFY(decoder.errorIsRetryable());
    }

    void anthropic_invalidRequestErrorEvent_isNotRetryable()
    {
        ChatStreamDecoder decoder(WireFormat::AnthropicMessages);
        decoder.feed(sseEvent(
            "error", R"({"type":"error","error":{"type":"invalid_request_error","message":"prompt is too long"}})"));
        QVERIFY(decoder.hasError());
        QVERIFY(!decoder.errorIsRetryable());
    }

    void anthropic_withoutMessageStop_isARetryableEarlyEnd()
    {
        const QByteArray stream = anthropicStream();
        ChatStreamDecoder decoder(WireFormat::AnthropicMessages);
        decoder.feed(stream.left(stream.indexOf("event: message_stop")));
        const Result<ChatResponse> response = decoder.finish();
        QVERIFY(!response.ok());
        QVERIFY2(response.error.contains("message_stop"_L1), qPrintable(response.error));
        QVERIFY(decoder.errorIsRetryable());
    }

    void anthropic_toolInputForATextBlock_isAnError()
    {
        ChatStreamDecoder decoder(WireFormat::AnthropicMessages);
        decoder.feed(sseEvent("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":4,\"delta\":{"
                                                     "\"type\":\"input_json_delta\",\"partial_json\":\"[1\"}}"));
        QVERIFY(decoder.hasError());
        QVERIFY2(decoder.error().contains("not a tool_use block"_L1), qPrintable(decoder.error()));
    }

    void mutatedStreams_inRandomChunks_neverCrash_andFailOnlyWithAMessage()
    {
        // Seeded, so a failure reproduces: flipped, dropped and inserted bytes, fed in random pieces.
        QRandomGenerator random(20251130);
        const QList<QPair<WireFormat, QByteArray>> seeds{{WireFormat::OpenAiChat, openAiStream()},
                                                         {WireFormat::AnthropicMessages, anthropicStream()}};
        for (int round = 0; round < 1000; ++round) {
            const auto &[format, seed] = seeds.at(round % 2);
            QByteArray stream = seed;
            const int edits = 1 + int(random.bounded(4));
            for (int e = 0; e < edits; ++e) {
                const qsizetype at = random.bounded(int(stream.size()));
                switch (random.bounded(3)) {
                case 0:
                    stream[at] = char(random.bounded(256));
                    break;
                case 1:
                    stream.remove(at, 1 + random.bounded(20));
                    break;
                default:
                    stream.insert(at, QByteArray(1 + random.bounded(8), char(random.bounded(256))));
                    break;
                }
            }
            ChatStreamDecoder decoder(format);
            for (qsizetype at = 0; at < stream.size();) {
                const qsizetype piece = 1 + random.bounded(64);
                decoder.feed(stream.mid(at, piece));
                at += piece;
            }
            const Result<ChatResponse> response = decoder.finish();
            QVERIFY(response.ok() || !response.error.isEmpty());
            QCOMPARE(response.ok(), !decoder.hasError());
        }
    }

    void garbage_isAFramingErrorQuotingIt()
    {
        ChatStreamDecoder decoder(WireFormat::AnthropicMessages);
        decoder.feed(QByteArray("\x89PNG\r\n\x1a\n", 8));
        QVERIFY(decoder.hasError());
        QVERIFY2(decoder.error().contains(u"\\x89PNG"_s), qPrintable(decoder.error()));
    }
};

SF_TEST_GUILESS_MAIN(TestChatStreamDecoder)
#include "test_chat_stream_decoder.moc"
