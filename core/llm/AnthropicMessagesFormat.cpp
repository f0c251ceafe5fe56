#include "AnthropicMessagesFormat.h"

#include "JsonBody_p.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace sf::AnthropicMessagesFormat {

namespace {

TokenUsage parseUsage(const QJsonObject &usage)
{
    TokenUsage result;
    // Anthropic's input_tokens is already the uncached remainder.
    result.uncachedInput = usage.value("input_tokens"_L1).toInteger();
    result.cacheRead = usage.value("cache_read_input_tokens"_L1).toInteger();
    const qint64 cacheWrite = usage.value("cache_creation_input_tokens"_L1).toInteger();
    const QJsonValue split = usage.value("cache_creation"_L1);
    if (split.isObject()) {
        result.cacheWrite5m = split.toObject().value("ephemeral_5m_input_tokens"_L1).toInteger();
        result.cacheWrite1h = split.toObject().value("ephemeral_1h_input_tokens"_L1).toInteger();
    } else {
        result.cacheWrite5m = cacheWrite; // older responses have no TTL split; 5 minutes is the default TTL
    }
    result.output = usage.value("output_tokens"_L1).toInteger();
    result.reasoning = usage.value("output_tokens_details"_L1).toObject().value("thinking_tokens"_L1).toInteger();
    return result;
}

} // namespace

QByteArray requestBody(const ChatRequest &request)
{
    QJsonArray messages;
    for (const ChatMessage &message : request.messages) {
        messages.append(QJsonObject{{"role"_L1, message.role}, {"content"_L1, message.content}});
    }
    QJsonObject body{
        {"model"_L1, request.model},
        {"messages"_L1, messages},
        {"max_tokens"_L1, request.maxTokens},
    };
    if (!request.system.isEmpty()) {
        body.insert("system"_L1, request.system);
    }
    if (request.temperature) {
        body.insert("temperature"_L1, *request.temperature);
    }
    if (request.topP) {
        body.insert("top_p"_L1, *request.topP);
    }
    // The Messages API has no seed parameter; sending one would be rejected.
    return QJsonDocument(body).toJson(QJsonDocument::Compact);
}

Result<ChatResponse> parseResponse(const QByteArray &body)
{
    const Result<QJsonObject> parsed = detail::parseJsonObject(body);
    if (!parsed) {
        return Result<ChatResponse>::failure(parsed.error);
    }
    const QJsonObject &object = *parsed.value;
    if (object.value("type"_L1).toString() == "error"_L1 || object.contains("error"_L1)) {
        return Result<ChatResponse>::failure(detail::providerErrorMessage(object));
    }
    if (!object.value("content"_L1).isArray()) {
        return Result<ChatResponse>::failure(u"The response has no content array"_s);
    }
    ChatResponse response;
    const QJsonArray blocks = object.value("content"_L1).toArray();
    for (const QJsonValue &block : blocks) {
        if (block.toObject().value("type"_L1).toString() == "text"_L1) {
            response.text += block.toObject().value("text"_L1).toString();
        }
    }
    response.finishReason = object.value("stop_reason"_L1).toString();
    response.model = object.value("model"_L1).toString();
    response.usage = parseUsage(object.value("usage"_L1).toObject());
    return Result<ChatResponse>::success(std::move(response));
}

QString errorMessage(const QByteArray &body)
{
    return detail::providerErrorMessage(body);
}

} // namespace sf::AnthropicMessagesFormat
