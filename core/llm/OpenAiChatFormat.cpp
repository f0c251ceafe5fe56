#include "OpenAiChatFormat.h"

#include "JsonBody_p.h"

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

TokenUsage parseUsage(const QJsonObject &usage)
{
    const qint64 prompt = usage.value("prompt_tokens"_L1).toInteger();
    qint64 cached = usage.value("prompt_tokens_details"_L1).toObject().value("cached_tokens"_L1).toInteger();
    if (cached == 0) {
        cached = usage.value("prompt_cache_hit_tokens"_L1).toInteger(); // DeepSeek's spelling
    }
    TokenUsage result;
    result.cacheRead = cached;
    // prompt_tokens already includes the cached tokens; counting both would bill them twice.
    result.uncachedInput = std::max<qint64>(0, prompt - cached);
    result.output = usage.value("completion_tokens"_L1).toInteger();
    result.reasoning = usage.value("completion_tokens_details"_L1).toObject().value("reasoning_tokens"_L1).toInteger();
    return result;
}

} // namespace

QByteArray requestBody(const ChatRequest &request)
{
    QJsonArray messages;
    if (!request.system.isEmpty()) {
        messages.append(QJsonObject{{"role"_L1, "system"_L1}, {"content"_L1, request.system}});
    }
    for (const ChatMessage &message : request.messages) {
        messages.append(QJsonObject{{"role"_L1, message.role}, {"content"_L1, message.content}});
    }
    QJsonObject body{
        {"model"_L1, request.model},
        {"messages"_L1, messages},
        {"max_tokens"_L1, request.maxTokens},
        {"stream"_L1, false},
    };
    if (request.temperature) {
        body.insert("temperature"_L1, *request.temperature);
    }
    if (request.topP) {
        body.insert("top_p"_L1, *request.topP);
    }
    if (request.seed) {
        body.insert("seed"_L1, *request.seed);
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
    response.text = contentText(choice.value("message"_L1).toObject().value("content"_L1));
    response.finishReason = choice.value("finish_reason"_L1).toString();
    response.model = object.value("model"_L1).toString();
    response.usage = parseUsage(object.value("usage"_L1).toObject());
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
