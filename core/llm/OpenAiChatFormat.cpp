#include "OpenAiChatFormat.h"

#include "JsonBody_p.h"
#include "SseParser.h"
#include "usage/OpenAiUsage.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace sf::OpenAiChatFormat {

namespace {

QString contentText(const QJsonValue &content)
{
    if (content.isString()) {
        return content.toString();
    }
    // Some compatible servers send content as a list of typed parts.
    QString text;
    const QJsonArray parts = content.toArray();
    for (const QJsonValue &part : parts) {
        if (part.toObject().value("type"_L1).toString() == "text"_L1) {
            text += part.toObject().value("text"_L1).toString();
        }
    }
    return text;
}

} // namespace

namespace {

QJsonObject messageObject(const ChatMessage &message)
{
    if (message.role == "tool"_L1) {
        // OpenAI has no error flag on tool results; the content itself says the tool failed.
        return QJsonObject{
            {"role"_L1, "tool"_L1}, {"tool_call_id"_L1, message.toolCallId}, {"content"_L1, message.content}};
    }
    QJsonObject object{{"role"_L1, message.role}, {"content"_L1, message.content}};
    if (!message.images.isEmpty()) {
        // Images ride in a content array as data URLs, after the text.
        QJsonArray parts;
        if (!message.content.isEmpty()) {
            parts.append(QJsonObject{{"type"_L1, "text"_L1}, {"text"_L1, message.content}});
        }
        for (const ChatImage &image : message.images) {
            const QString url =
                "data:"_L1 + image.mediaType + ";base64,"_L1 + QString::fromLatin1(image.data.toBase64());
            parts.append(QJsonObject{{"type"_L1, "image_url"_L1}, {"image_url"_L1, QJsonObject{{"url"_L1, url}}}});
        }
        object.insert("content"_L1, parts);
    }
    if (!message.toolCalls.isEmpty()) {
        QJsonArray calls;
        for (const ToolCall &call : message.toolCalls) {
            const QByteArray arguments = call.arguments.isEmpty() ? QByteArrayLiteral("{}") : call.arguments;
            calls.append(QJsonObject{
                {"id"_L1, call.id},
                {"type"_L1, "function"_L1},
                {"function"_L1, QJsonObject{{"name"_L1, call.name}, {"arguments"_L1, QString::fromUtf8(arguments)}}},
            });
        }
        object.insert("tool_calls"_L1, calls);
        if (message.content.isEmpty()) {
            object.insert("content"_L1, QJsonValue::Null); // an assistant turn that only called tools
        }
    }
    return object;
}

QJsonArray toolsArray(const QList<ToolDefinition> &tools)
{
    QJsonArray array;
    for (const ToolDefinition &tool : tools) {
        QJsonObject function{{"name"_L1, tool.name}, {"parameters"_L1, detail::schemaObject(tool.inputSchema)}};
        if (!tool.description.isEmpty()) {
            function.insert("description"_L1, tool.description);
        }
        array.append(QJsonObject{{"type"_L1, "function"_L1}, {"function"_L1, function}});
    }
    return array;
}

QList<ToolCall> parseToolCalls(const QJsonArray &calls)
{
    QList<ToolCall> result;
    for (const QJsonValue &value : calls) {
        const QJsonObject call = value.toObject();
        const QJsonObject function = call.value("function"_L1).toObject();
        const QJsonValue arguments = function.value("arguments"_L1);
        // The spec says a JSON string; some compatible servers send the object itself.
        const QByteArray argumentText = arguments.isObject()
                                            ? QJsonDocument(arguments.toObject()).toJson(QJsonDocument::Compact)
                                            : arguments.toString().toUtf8();
        result.append(ToolCall{call.value("id"_L1).toString(), function.value("name"_L1).toString(), argumentText});
    }
    return result;
}

} // namespace

QByteArray requestBody(const ChatRequest &request, TokenLimitField limitField)
{
    QJsonArray messages;
    if (!request.system.isEmpty()) {
        messages.append(QJsonObject{{"role"_L1, "system"_L1}, {"content"_L1, request.system}});
    }
    for (const ChatMessage &message : request.messages) {
        messages.append(messageObject(message));
    }
    QJsonObject body{
        {"model"_L1, request.model},
        {"messages"_L1, messages},
        {limitField == TokenLimitField::MaxCompletionTokens ? "max_completion_tokens"_L1 : "max_tokens"_L1,
         request.maxTokens},
        {"stream"_L1, request.stream},
    };
    if (request.stream) {
        body.insert("stream_options"_L1, QJsonObject{{"include_usage"_L1, true}});
    }
    if (request.temperature) {
        body.insert("temperature"_L1, *request.temperature);
    }
    if (request.topP) {
        body.insert("top_p"_L1, *request.topP);
    }
    if (request.seed) {
        body.insert("seed"_L1, *request.seed);
    }
    if (!request.tools.isEmpty()) {
        body.insert("tools"_L1, toolsArray(request.tools));
    }
    if (request.replySchema) {
        // llama.cpp turns the schema into a grammar, so even a small base model's reply parses.
        body.insert("response_format"_L1,
                    QJsonObject{{"type"_L1, "json_schema"_L1},
                                {"json_schema"_L1, QJsonObject{{"name"_L1, request.replySchema->name},
                                                               {"strict"_L1, true},
                                                               {"schema"_L1, detail::schemaObject(
                                                                                 request.replySchema->schema)}}}});
    }
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

Result<ChatResponse> parseResponse(const QByteArray &body)
{
    const Result<QJsonObject> parsed = detail::parseJsonObject(body);
    if (!parsed) {
        return Result<ChatResponse>::failure(parsed.error);
    }
    const QJsonObject &object = *parsed.value;
    if (object.contains("error"_L1)) {
        return Result<ChatResponse>::failure(detail::providerErrorMessage(object));
    }
    const QJsonArray choices = object.value("choices"_L1).toArray();
    if (choices.isEmpty()) {
        return Result<ChatResponse>::failure(u"The response has no choices"_s);
    }
    const QJsonObject choice = choices.first().toObject();
    ChatResponse response;
    const QJsonObject message = choice.value("message"_L1).toObject();
    response.text = contentText(message.value("content"_L1));
    // llama.cpp, vLLM and DeepSeek return reasoning separately under this name.
    response.thinking = message.value("reasoning_content"_L1).toString();
    response.toolCalls = parseToolCalls(message.value("tool_calls"_L1).toArray());
    response.finishReason = choice.value("finish_reason"_L1).toString();
    response.model = object.value("model"_L1).toString();
    if (!object.value("usage"_L1).isObject()) {
        return Result<ChatResponse>::failure(u"The response has no usage: %1"_s.arg(quotedBytes(body)));
    }
    response.usage = openAiChatUsage(object.value("usage"_L1).toObject());
    const QJsonValue tokensPerSecond = object.value("timings"_L1).toObject().value("predicted_per_second"_L1);
    if (tokensPerSecond.isDouble()) {
        response.serverTokensPerSecond = tokensPerSecond.toDouble();
    }
    return Result<ChatResponse>::success(std::move(response));
}

QString errorMessage(const QByteArray &body)
{
    return detail::providerErrorMessage(body);
}

Result<QStringList> parseModelList(const QByteArray &body)
{
    const Result<QJsonObject> parsed = detail::parseJsonObject(body);
    if (!parsed) {
        return Result<QStringList>::failure(parsed.error);
    }
    if (!parsed.value->value("data"_L1).isArray()) {
        const QString message = detail::providerErrorMessage(*parsed.value);
        return Result<QStringList>::failure(message.isEmpty() ? u"The model list has no 'data' array"_s : message);
    }
    QStringList ids;
    const QJsonArray data = parsed.value->value("data"_L1).toArray();
    for (const QJsonValue &entry : data) {
        const QString id = entry.toObject().value("id"_L1).toString();
        if (!id.isEmpty()) {
            ids.append(id);
        }
    }
    return Result<QStringList>::success(ids);
}

} // namespace sf::OpenAiChatFormat
