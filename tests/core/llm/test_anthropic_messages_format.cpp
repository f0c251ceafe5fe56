#include "SkippedChecks.h"
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

    void parseResponse_textBlocksJoined_thinkingKeptApart()
    {
        const QByteArray body = R"({"id":"msg_1","type":"message","role":"assistant","model":"claude-opus-4-5-20251101",
          "content":[{"type":"thinking","thinking":"hmm","signature":"x"},
                     {"type":"text","text":"Use shared "},{"type":"text","text":"memory."}],
          "stop_reason":"end_turn","stop_sequence":null,
          "usage":{"input_tokens":12,"output_tokens":40,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}})";
        const Result<ChatResponse> parsed = AnthropicMessagesFormat::parseResponse(body);
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        QCOMPARE(parsed.value->text, u"Use shared memory."_s);
        QCOMPARE(parsed.value->thinking, u"hmm"_s);
        QVERIFY(parsed.value->toolCalls.isEmpty());
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

    void requestBody_tools_carryNameDescriptionAndInputSchema()
    {
        ChatRequest request;
        request.model = u"m"_s;
        request.messages = {{u"user"_s, u"Weather in Paris?"_s}};
        request.tools = {
            {u"get_weather"_s, u"Current weather for a city"_s,
             R"({"type":"object","properties":{"city":{"type":"string"}},"required":["city"]})"},
            {u"now"_s, QString(), QByteArray()},
        };
        const QJsonObject body = QJsonDocument::fromJson(AnthropicMessagesFormat::requestBody(request)).object();
        const QJsonArray tools = body.value("tools"_L1).toArray();
        QCOMPARE(tools.size(), 2);
        const QJsonObject weather = tools.at(0).toObject();
        QCOMPARE(weather.value("name"_L1).toString(), u"get_weather"_s);
        QCOMPARE(weather.value("description"_L1).toString(), u"Current weather for a city"_s);
        QCOMPARE(weather.value("input_schema"_L1).toObject().value("required"_L1).toArray().first().toString(),
                 u"city"_s);
        // A tool without parameters still needs a schema, or the API rejects the request.
        QCOMPARE(tools.at(1).toObject().value("input_schema"_L1).toObject().value("type"_L1).toString(), u"object"_s);
        QVERIFY(!tools.at(1).toObject().contains("description"_L1));
    }

    void requestBody_replySchema_isAToolTheModelMustCall()
    {
        ChatRequest request;
        request.model = u"m"_s;
        request.messages = {{u"user"_s, u"Write the skill."_s}};
        request.replySchema = ReplySchema{u"skill"_s, R"({"type":"object","required":["name"]})"};
        const QJsonObject body = QJsonDocument::fromJson(AnthropicMessagesFormat::requestBody(request)).object();
        const QJsonObject tool = body.value("tools"_L1).toArray().first().toObject();
        QCOMPARE(tool.value("name"_L1).toString(), u"skill"_s);
        QCOMPARE(tool.value("input_schema"_L1).toObject().value("required"_L1).toArray().first().toString(), u"name"_s);
        QCOMPARE(body.value("tool_choice"_L1).toObject(), QJsonObject({{"type"_L1, "tool"_L1}, {"name"_L1, "skill"_L1}}));
    }

    void requestBody_noTools_sendsNoToolsKey()
    {
        ChatRequest request;
        request.model = u"m"_s;
        request.messages = {{u"user"_s, u"Hi"_s}};
        QVERIFY(!QJsonDocument::fromJson(AnthropicMessagesFormat::requestBody(request)).object().contains("tools"_L1));
    }

    void requestBody_toolRound_becomesToolUseThenOneUserMessageOfResults()
    {
        ChatRequest request;
        request.model = u"m"_s;
        ChatMessage assistant{u"assistant"_s, u"Checking both."_s};
        assistant.toolCalls = {{u"toolu_1"_s, u"get_weather"_s, R"({"city":"Paris"})"},
                               {u"toolu_2"_s, u"get_weather"_s, R"({"city":"Oslo"})"}};
        ChatMessage first{u"tool"_s, u"18 C"_s};
        first.toolCallId = u"toolu_1"_s;
        ChatMessage second{u"tool"_s, u"city not found"_s};
        second.toolCallId = u"toolu_2"_s;
        second.isError = true;
        request.messages = {{u"user"_s, u"Weather?"_s}, assistant, first, second, {u"user"_s, u"And tomorrow?"_s}};

        const QJsonObject body = QJsonDocument::fromJson(AnthropicMessagesFormat::requestBody(request)).object();
        const QJsonArray messages = body.value("messages"_L1).toArray();
        QCOMPARE(messages.size(), 3);
        const QJsonArray assistantBlocks = messages.at(1).toObject().value("content"_L1).toArray();
        QCOMPARE(messages.at(1).toObject().value("role"_L1).toString(), u"assistant"_s);
        QCOMPARE(assistantBlocks.size(), 3);
        QCOMPARE(assistantBlocks.at(0).toObject().value("text"_L1).toString(), u"Checking both."_s);
        const QJsonObject use = assistantBlocks.at(1).toObject();
        QCOMPARE(use.value("type"_L1).toString(), u"tool_use"_s);
        QCOMPARE(use.value("id"_L1).toString(), u"toolu_1"_s);
        QCOMPARE(use.value("name"_L1).toString(), u"get_weather"_s);
        QCOMPARE(use.value("input"_L1).toObject().value("city"_L1).toString(), u"Paris"_s);

        const QJsonObject results = messages.at(2).toObject();
        QCOMPARE(results.value("role"_L1).toString(), u"user"_s);
        const QJsonArray blocks = results.value("content"_L1).toArray();
        QCOMPARE(blocks.size(), 3);
        QCOMPARE(blocks.at(0).toObject().value("type"_L1).toString(), u"tool_result"_s);
        QCOMPARE(blocks.at(0).toObject().value("tool_use_id"_L1).toString(), u"toolu_1"_s);
        QCOMPARE(blocks.at(0).toObject().value("content"_L1).toString(), u"18 C"_s);
        QVERIFY(!blocks.at(0).toObject().contains("is_error"_L1));
        QCOMPARE(blocks.at(1).toObject().value("tool_use_id"_L1).toString(), u"toolu_2"_s);
        QCOMPARE(blocks.at(1).toObject().value("is_error"_L1).toBool(), true);
        QCOMPARE(blocks.at(2).toObject().value("type"_L1).toString(), u"text"_s);
        QCOMPARE(blocks.at(2).toObject().value("text"_L1).toString(), u"And tomorrow?"_s);
    }

    void parseResponse_missingUsage_isAnError()
    {
        const Result<ChatResponse> parsed =
            AnthropicMessagesFormat::parseResponse(R"({"type":"message","content":[{"type":"text","text":"ok"}]})");
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.error.contains("no usage"_L1), qPrintable(parsed.error));
    }

    void requestBody_userImages_areBase64BlocksBeforeTheText()
    {
        ChatRequest request;
        request.model = u"claude-opus-4-5"_s;
        ChatMessage message{u"user"_s, u"What does this plot show?"_s};
        message.images = {ChatImage{u"image/png"_s, QByteArray("\x89PNG", 4)}};
        request.messages = {message};
        const QJsonObject body = QJsonDocument::fromJson(AnthropicMessagesFormat::requestBody(request)).object();
        const QJsonArray blocks = body.value("messages"_L1).toArray().at(0).toObject().value("content"_L1).toArray();
        QCOMPARE(blocks.size(), 2);
        const QJsonObject source = blocks.at(0).toObject().value("source"_L1).toObject();
        QCOMPARE(blocks.at(0).toObject().value("type"_L1).toString(), u"image"_s);
        QCOMPARE(source.value("type"_L1).toString(), u"base64"_s);
        QCOMPARE(source.value("media_type"_L1).toString(), u"image/png"_s);
        QCOMPARE(source.value("data"_L1).toString(), u"iVBORw=="_s);
        QCOMPARE(blocks.at(1).toObject().value("text"_L1).toString(), u"What does this plot show?"_s);
    }

    void thinking_roundTrips_withItsSignature_beforeToolUse()
    {
        const QByteArray reply = R"({"type":"message","model":"claude-opus-4-5","stop_reason":"tool_use",
            "content":[{"type":"thinking","thinking":"Check the file first.","signature":"sig-123"},
                       {"type":"tool_use","id":"toolu_1","name":"read_file","input":{"path":"a.cu"}}],
            "usage":{"input_tokens":10,"output_tokens":5}})";
        const Result<ChatResponse> parsed = AnthropicMessagesFormat::parseResponse(reply);
        QVERIFY(parsed.ok());
        QCOMPARE(parsed.value->thinkingSignature, u"sig-123"_s);

        // The next request sends the thinking back, signed, ahead of the tool call it led to.
        ChatMessage assistant{u"assistant"_s, QString()};
        assistant.toolCalls = parsed.value->toolCalls;
        assistant.thinking = parsed.value->thinking;
        assistant.thinkingSignature = parsed.value->thinkingSignature;
        ChatMessage result{u"tool"_s, u"__global__ void k() {}"_s};
        result.toolCallId = u"toolu_1"_s;
        ChatRequest request;
        request.model = u"claude-opus-4-5"_s;
        request.messages = {ChatMessage{u"user"_s, u"Fix a.cu"_s}, assistant, result};
        const QJsonObject body = QJsonDocument::fromJson(AnthropicMessagesFormat::requestBody(request)).object();
        const QJsonArray blocks = body.value("messages"_L1).toArray().at(1).toObject().value("content"_L1).toArray();
        QCOMPARE(blocks.at(0).toObject().value("type"_L1).toString(), u"thinking"_s);
        QCOMPARE(blocks.at(0).toObject().value("signature"_L1).toString(), u"sig-123"_s);
        QCOMPARE(blocks.at(1).toObject().value("type"_L1).toString(), u"tool_use"_s);
    }

    void requestBody_streaming_setsStream()
    {
        ChatRequest request;
        request.model = u"m"_s;
        request.messages = {{u"user"_s, u"Hi"_s}};
        QVERIFY(!QJsonDocument::fromJson(AnthropicMessagesFormat::requestBody(request)).object().contains("stream"_L1));
        request.stream = true;
        QCOMPARE(
            QJsonDocument::fromJson(AnthropicMessagesFormat::requestBody(request)).object().value("stream"_L1).toBool(),
            true);
    }

    void parseResponse_toolUseBlocks_becomeToolCallsInOrder()
    {
        const QByteArray body = R"({"type":"message","role":"assistant","model":"claude-sonnet-4-5",
          "content":[{"type":"text","text":"Let me check."},
                     {"type":"tool_use","id":"toolu_01A","name":"get_weather","input":{"city":"Paris","unit":"c"}},
                     {"type":"tool_use","id":"toolu_01B","name":"now","input":{}}],
          "stop_reason":"tool_use","usage":{"input_tokens":300,"output_tokens":60}})";
        const Result<ChatResponse> parsed = AnthropicMessagesFormat::parseResponse(body);
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        QCOMPARE(parsed.value->text, u"Let me check."_s);
        QCOMPARE(parsed.value->finishReason, u"tool_use"_s);
        const QList<ToolCall> calls = parsed.value->toolCalls;
        QCOMPARE(calls.size(), 2);
        QCOMPARE(calls.at(0).id, u"toolu_01A"_s);
        QCOMPARE(calls.at(0).name, u"get_weather"_s);
        const QJsonObject arguments = QJsonDocument::fromJson(calls.at(0).arguments).object();
        QCOMPARE(arguments.value("city"_L1).toString(), u"Paris"_s);
        QCOMPARE(arguments.value("unit"_L1).toString(), u"c"_s);
        QCOMPARE(calls.at(1).arguments, QByteArray("{}"));
    }
};

SF_TEST_GUILESS_MAIN(TestAnthropicMessagesFormat)
#include "test_anthropic_messages_format.moc"
