#include "SkippedChecks.h"
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
            "content":[{"type":"text","text":"Hel"},{"type":"text","text":"lo"}]},"finish_reason":"stop"}],
            "usage":{"prompt_tokens":3,"completion_tokens":2}})";
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

    void requestBody_replySchema_isAStrictJsonSchemaResponseFormat()
    {
        ChatRequest request;
        request.model = u"m"_s;
        request.messages = {{u"user"_s, u"Write the skill."_s}};
        QVERIFY(!QJsonDocument::fromJson(OpenAiChatFormat::requestBody(request)).object().contains("response_format"_L1));
        request.replySchema = ReplySchema{u"skill"_s, R"({"type":"object","required":["name"]})"};
        const QJsonObject format =
            QJsonDocument::fromJson(OpenAiChatFormat::requestBody(request)).object().value("response_format"_L1).toObject();
        QCOMPARE(format.value("type"_L1).toString(), u"json_schema"_s);
        const QJsonObject schema = format.value("json_schema"_L1).toObject();
        QCOMPARE(schema.value("name"_L1).toString(), u"skill"_s);
        QCOMPARE(schema.value("strict"_L1).toBool(), true);
        QCOMPARE(schema.value("schema"_L1).toObject().value("required"_L1).toArray().first().toString(), u"name"_s);
    }

    void requestBody_tools_areFunctionsWithParameters()
    {
        ChatRequest request;
        request.model = u"m"_s;
        request.messages = {{u"user"_s, u"Weather in Paris?"_s}};
        request.tools = {{u"get_weather"_s, u"Current weather for a city"_s,
                          R"({"type":"object","properties":{"city":{"type":"string"}},"required":["city"]})"}};
        const QJsonObject body = bodyOf(request);
        const QJsonArray tools = body.value("tools"_L1).toArray();
        QCOMPARE(tools.size(), 1);
        QCOMPARE(tools.at(0).toObject().value("type"_L1).toString(), u"function"_s);
        const QJsonObject function = tools.at(0).toObject().value("function"_L1).toObject();
        QCOMPARE(function.value("name"_L1).toString(), u"get_weather"_s);
        QCOMPARE(function.value("description"_L1).toString(), u"Current weather for a city"_s);
        QCOMPARE(function.value("parameters"_L1).toObject().value("properties"_L1).toObject().keys(),
                 QStringList{u"city"_s});

        request.tools.clear();
        QVERIFY(!bodyOf(request).contains("tools"_L1));
    }

    void requestBody_toolRound_assistantToolCallsThenToolMessages()
    {
        ChatRequest request;
        request.model = u"m"_s;
        ChatMessage assistant{u"assistant"_s, QString()};
        assistant.toolCalls = {{u"call_1"_s, u"get_weather"_s, R"({"city":"Paris"})"},
                               {u"call_2"_s, u"now"_s, QByteArray()}};
        ChatMessage result{u"tool"_s, u"18 C"_s};
        result.toolCallId = u"call_1"_s;
        ChatMessage failure{u"tool"_s, u"clock unavailable"_s};
        failure.toolCallId = u"call_2"_s;
        failure.isError = true;
        request.messages = {{u"user"_s, u"Weather?"_s}, assistant, result, failure};

        const QJsonArray messages = bodyOf(request).value("messages"_L1).toArray();
        QCOMPARE(messages.size(), 4);
        const QJsonObject sent = messages.at(1).toObject();
        QCOMPARE(sent.value("role"_L1).toString(), u"assistant"_s);
        QVERIFY(sent.value("content"_L1).isNull());
        const QJsonArray calls = sent.value("tool_calls"_L1).toArray();
        QCOMPARE(calls.size(), 2);
        QCOMPARE(calls.at(0).toObject().value("id"_L1).toString(), u"call_1"_s);
        QCOMPARE(calls.at(0).toObject().value("type"_L1).toString(), u"function"_s);
        const QJsonObject function = calls.at(0).toObject().value("function"_L1).toObject();
        QCOMPARE(function.value("name"_L1).toString(), u"get_weather"_s);
        // The wire format wants the arguments as a JSON string, not an object.
        QCOMPARE(function.value("arguments"_L1).toString(), QString::fromUtf8(R"({"city":"Paris"})"));
        QCOMPARE(calls.at(1).toObject().value("function"_L1).toObject().value("arguments"_L1).toString(), u"{}"_s);

        QCOMPARE(messages.at(2).toObject().value("role"_L1).toString(), u"tool"_s);
        QCOMPARE(messages.at(2).toObject().value("tool_call_id"_L1).toString(), u"call_1"_s);
        QCOMPARE(messages.at(2).toObject().value("content"_L1).toString(), u"18 C"_s);
        QCOMPARE(messages.at(3).toObject().value("tool_call_id"_L1).toString(), u"call_2"_s);
        QCOMPARE(messages.at(3).toObject().value("content"_L1).toString(), u"clock unavailable"_s);
    }

    void requestBody_userImages_areDataUrlsAfterTheText()
    {
        ChatRequest request;
        request.model = u"gpt-4.1"_s;
        ChatMessage message{u"user"_s, u"Describe it"_s};
        message.images = {ChatImage{u"image/jpeg"_s, QByteArray("\xff\xd8\xff", 3)}};
        request.messages = {message};
        const QJsonArray parts = QJsonDocument::fromJson(OpenAiChatFormat::requestBody(request))
                                     .object()
                                     .value("messages"_L1)
                                     .toArray()
                                     .at(0)
                                     .toObject()
                                     .value("content"_L1)
                                     .toArray();
        QCOMPARE(parts.size(), 2);
        QCOMPARE(parts.at(0).toObject().value("text"_L1).toString(), u"Describe it"_s);
        QCOMPARE(parts.at(1).toObject().value("type"_L1).toString(), u"image_url"_s);
        QCOMPARE(parts.at(1).toObject().value("image_url"_L1).toObject().value("url"_L1).toString(),
                 u"data:image/jpeg;base64,/9j/"_s);
    }

    void parseResponse_toolCalls_keepIdNameAndArgumentText()
    {
        // Single quotes stand for the escaped quotes inside the arguments string (moc cannot read \" in raw strings).
        const QByteArray body =
            QByteArray(R"({"model":"gpt-4.1","choices":[{"index":0,"message":{"role":"assistant","content":null,
          "tool_calls":[{"id":"call_abc","type":"function","function":{"name":"get_weather","arguments":"{'city':'Paris'}"}},
                        {"id":"call_def","type":"function","function":{"name":"now","arguments":{}}}]},
          "finish_reason":"tool_calls"}],"usage":{"prompt_tokens":80,"completion_tokens":20}})")
                .replace('\'', "\\\"");
        const Result<ChatResponse> parsed = OpenAiChatFormat::parseResponse(body);
        QVERIFY2(parsed.ok(), qPrintable(parsed.error));
        QCOMPARE(parsed.value->text, QString());
        QCOMPARE(parsed.value->finishReason, u"tool_calls"_s);
        const QList<ToolCall> calls = parsed.value->toolCalls;
        QCOMPARE(calls.size(), 2);
        QCOMPARE(calls.at(0).id, u"call_abc"_s);
        QCOMPARE(calls.at(0).name, u"get_weather"_s);
        QCOMPARE(calls.at(0).arguments, QByteArray(R"({"city":"Paris"})"));
        QCOMPARE(calls.at(1).arguments, QByteArray("{}")); // an object instead of a string is accepted
    }

    void parseResponse_reasoningContent_becomesThinking()
    {
        const QByteArray body = R"({"choices":[{"message":{"role":"assistant","content":"4",
            "reasoning_content":"2+2 is 4"},"finish_reason":"stop"}],"usage":{"prompt_tokens":3,"completion_tokens":2}})";
        const Result<ChatResponse> parsed = OpenAiChatFormat::parseResponse(body);
        QVERIFY(parsed.ok());
        QCOMPARE(parsed.value->text, u"4"_s);
        QCOMPARE(parsed.value->thinking, u"2+2 is 4"_s);
    }

    void parseResponse_missingUsage_isAnErrorQuotingTheBody()
    {
        const Result<ChatResponse> parsed = OpenAiChatFormat::parseResponse(
            R"({"choices":[{"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}]})");
        QVERIFY(!parsed.ok());
        QVERIFY2(parsed.error.startsWith("The response has no usage: "_L1), qPrintable(parsed.error));
        QVERIFY2(parsed.error.contains("hi"_L1), qPrintable(parsed.error));
    }

    void requestBody_streaming_asksForUsage_andNamesTheLimitAsTold()
    {
        ChatRequest request;
        request.model = u"m"_s;
        request.messages = {{u"user"_s, u"Hi"_s}};
        request.maxTokens = 32;
        request.stream = true;
        const QJsonObject body =
            QJsonDocument::fromJson(
                OpenAiChatFormat::requestBody(request, OpenAiChatFormat::TokenLimitField::MaxCompletionTokens))
                .object();
        QCOMPARE(body.value("stream"_L1).toBool(), true);
        QCOMPARE(body.value("stream_options"_L1).toObject().value("include_usage"_L1).toBool(), true);
        QCOMPARE(body.value("max_completion_tokens"_L1).toInt(), 32);
        QVERIFY(!body.contains("max_tokens"_L1));
        request.stream = false;
        QVERIFY(!bodyOf(request).contains("stream_options"_L1));
    }

    void parseModelList_readsDataIds()
    {
        const Result<QStringList> ids = OpenAiChatFormat::parseModelList(
            R"({"object":"list","data":[{"id":"gpt-4.1","object":"model"},{"id":"o3","object":"model"}]})");
        QVERIFY(ids.ok());
        QCOMPARE(*ids.value, QStringList({u"gpt-4.1"_s, u"o3"_s}));
    }
};

SF_TEST_GUILESS_MAIN(TestOpenAiChatFormat)
#include "test_openai_chat_format.moc"
