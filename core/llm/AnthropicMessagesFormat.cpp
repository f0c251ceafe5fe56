#include "AnthropicMessagesFormat.h"

#include "JsonBody_p.h"
#include "SseParser.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace sf::AnthropicMessagesFormat {

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

namespace {

QJsonArray assistantBlocks(const ChatMessage &message)
{
    QJsonArray blocks;
    if (!message.thinking.isEmpty()) {
        QJsonObject thinking{{"type"_L1, "thinking"_L1}, {"thinking"_L1, message.thinking}};
        if (!message.thinkingSignature.isEmpty()) {
            thinking.insert("signature"_L1, message.thinkingSignature);
        }
        blocks.append(thinking);
    }
    if (!message.content.isEmpty()) {
        blocks.append(QJsonObject{{"type"_L1, "text"_L1}, {"text"_L1, message.content}});
    }
    for (const ToolCall &call : message.toolCalls) {
        blocks.append(QJsonObject{
            {"type"_L1, "tool_use"_L1},
            {"id"_L1, call.id},
            {"name"_L1, call.name},
            {"input"_L1, detail::argumentsObject(call.arguments)},
        });
    }
    return blocks;
}

// A user message's images as base64 image blocks, then its text.
QJsonArray userBlocks(const ChatMessage &message)
{
    QJsonArray blocks;
    for (const ChatImage &image : message.images) {
        blocks.append(QJsonObject{
            {"type"_L1, "image"_L1},
            {"source"_L1, QJsonObject{{"type"_L1, "base64"_L1},
                                      {"media_type"_L1, image.mediaType},
                                      {"data"_L1, QString::fromLatin1(image.data.toBase64())}}},
        });
    }
    if (!message.content.isEmpty()) {
        blocks.append(QJsonObject{{"type"_L1, "text"_L1}, {"text"_L1, message.content}});
    }
    return blocks;
}

QJsonObject toolResultBlock(const ChatMessage &message)
{
    QJsonObject block{
        {"type"_L1, "tool_result"_L1},
        {"tool_use_id"_L1, message.toolCallId},
        {"content"_L1, message.content},
    };
    if (message.isError) {
        block.insert("is_error"_L1, true);
    }
    return block;
}

/**
 * The Messages API alternates user and assistant turns, and every result for one assistant turn's
 * tool calls must come back in the single user message that follows it. So consecutive "tool"
 * messages (and a user message right after them) are merged into one user message of blocks.
 */
QJsonArray messagesArray(const QList<ChatMessage> &messages)
{
    QJsonArray array;
    QJsonArray pendingUserBlocks;
    const auto flushUserBlocks = [&] {
        if (!pendingUserBlocks.isEmpty()) {
            array.append(QJsonObject{{"role"_L1, "user"_L1}, {"content"_L1, pendingUserBlocks}});
            pendingUserBlocks = QJsonArray();
        }
    };
    for (const ChatMessage &message : messages) {
        if (message.role == "tool"_L1) {
            pendingUserBlocks.append(toolResultBlock(message));
        } else if (message.role == "user"_L1 && !pendingUserBlocks.isEmpty()) {
            for (const QJsonValue &block : userBlocks(message)) {
                pendingUserBlocks.append(block);
            }
        } else if (message.role == "user"_L1 && !message.images.isEmpty()) {
            flushUserBlocks();
            array.append(QJsonObject{{"role"_L1, "user"_L1}, {"content"_L1, userBlocks(message)}});
        } else if (message.role == "assistant"_L1 && (!message.toolCalls.isEmpty() || !message.thinking.isEmpty())) {
            flushUserBlocks();
            array.append(QJsonObject{{"role"_L1, "assistant"_L1}, {"content"_L1, assistantBlocks(message)}});
        } else {
            flushUserBlocks();
            array.append(QJsonObject{{"role"_L1, message.role}, {"content"_L1, message.content}});
        }
    }
    flushUserBlocks();
    return array;
}

QJsonArray toolsArray(const QList<ToolDefinition> &tools)
{
    QJsonArray array;
    for (const ToolDefinition &tool : tools) {
        QJsonObject object{{"name"_L1, tool.name}, {"input_schema"_L1, detail::schemaObject(tool.inputSchema)}};
        if (!tool.description.isEmpty()) {
            object.insert("description"_L1, tool.description);
        }
        array.append(object);
    }
    return array;
}

} // namespace

QByteArray requestBody(const ChatRequest &request)
{
    const QJsonArray messages = messagesArray(request.messages);
    QJsonObject body{
        {"model"_L1, request.model},
        {"messages"_L1, messages},
        {"max_tokens"_L1, request.maxTokens},
    };
    if (!request.system.isEmpty()) {
        body.insert("system"_L1, request.system);
    }
    if (request.stream) {
        body.insert("stream"_L1, true);
    }
    if (request.temperature) {
        body.insert("temperature"_L1, *request.temperature);
    }
    if (request.topP) {
        body.insert("top_p"_L1, *request.topP);
    }
    QList<ToolDefinition> tools = request.tools;
    if (request.replySchema) {
        // The Messages API's way to a reply of a given shape: one tool whose input is the reply, and a
        // tool_choice that makes the model call it. ChatCall turns that call back into text.
        tools.append({request.replySchema->name, u"Give your whole reply as this tool's input."_s,
                      request.replySchema->schema});
        body.insert("tool_choice"_L1, QJsonObject{{"type"_L1, "tool"_L1}, {"name"_L1, request.replySchema->name}});
    }
    if (!tools.isEmpty()) {
        body.insert("tools"_L1, toolsArray(tools));
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
    for (const QJsonValue &value : blocks) {
        const QJsonObject block = value.toObject();
        const QString type = block.value("type"_L1).toString();
        if (type == "text"_L1) {
            response.text += block.value("text"_L1).toString();
        } else if (type == "thinking"_L1) {
            response.thinking += block.value("thinking"_L1).toString();
            response.thinkingSignature = block.value("signature"_L1).toString();
        } else if (type == "tool_use"_L1) {
            response.toolCalls.append(ToolCall{
                block.value("id"_L1).toString(),
                block.value("name"_L1).toString(),
                QJsonDocument(block.value("input"_L1).toObject()).toJson(QJsonDocument::Compact),
            });
        }
    }
    response.finishReason = object.value("stop_reason"_L1).toString();
    response.model = object.value("model"_L1).toString();
    if (!object.value("usage"_L1).isObject()) {
        return Result<ChatResponse>::failure(u"The response has no usage: %1"_s.arg(quotedBytes(body)));
    }
    response.usage = parseUsage(object.value("usage"_L1).toObject());
    return Result<ChatResponse>::success(std::move(response));
}

QString errorMessage(const QByteArray &body)
{
    return detail::providerErrorMessage(body);
}

} // namespace sf::AnthropicMessagesFormat
