#include "ChatStreamDecoder.h"

#include "AnthropicMessagesFormat.h"
#include "JsonBody_p.h"
#include "OpenAiChatFormat.h"
#include "usage/OpenAiUsage.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

std::optional<QJsonObject> eventObject(const QByteArray &data)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(data, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        return std::nullopt;
    }
    return document.object();
}

// Error types that mean "the provider is busy or broke; the same request may well succeed".
bool retryableErrorType(const QString &type)
{
    return type == "overloaded_error"_L1 || type == "api_error"_L1 || type == "server_error"_L1 ||
           type == "rate_limit_error"_L1 || type == "timeout_error"_L1;
}

} // namespace

ChatStreamDecoder::ChatStreamDecoder(WireFormat format)
    : m_format(format)
{
}

QList<ChatDelta> ChatStreamDecoder::feed(const QByteArray &bytes)
{
    QList<ChatDelta> deltas;
    if (hasError()) {
        return deltas;
    }
    const QList<SseEvent> events = m_parser.feed(bytes);
    for (const SseEvent &event : events) {
        if (m_format == WireFormat::AnthropicMessages) {
            handleAnthropic(event, deltas);
        } else {
            handleOpenAi(event, deltas);
        }
        if (hasError()) {
            return deltas;
        }
    }
    if (m_parser.hasError()) {
        setError(m_parser.error());
    }
    return deltas;
}

void ChatStreamDecoder::setError(const QString &message, bool retryable)
{
    if (m_error.isEmpty()) {
        m_error = message;
        m_errorRetryable = retryable;
    }
}

void ChatStreamDecoder::streamError(const QJsonObject &object)
{
    const QJsonValue error = object.value("error"_L1);
    const QString type = error.toObject().value("type"_L1).toString();
    const QString message = detail::providerErrorMessage(object);
    setError(type.isEmpty() ? message : u"%1: %2"_s.arg(type, message), retryableErrorType(type));
}

ToolCall &ChatStreamDecoder::toolAt(int index)
{
    return m_tools[index];
}

void ChatStreamDecoder::handleOpenAi(const SseEvent &event, QList<ChatDelta> &deltas)
{
    if (m_complete) {
        return; // some servers keep talking after [DONE]; nothing after it counts
    }
    if (event.data == "[DONE]") {
        m_complete = true;
        return;
    }
    const std::optional<QJsonObject> object = eventObject(event.data);
    if (!object) {
        setError(u"The stream has an event that is not a JSON object: %1"_s.arg(quotedBytes(event.data)));
        return;
    }
    if (object->contains("error"_L1)) {
        streamError(*object);
        return;
    }
    if (m_response.model.isEmpty()) {
        m_response.model = object->value("model"_L1).toString();
    }
    const QJsonValue usage = object->value("usage"_L1);
    if (usage.isObject()) {
        m_response.usage = openAiChatUsage(usage.toObject());
        m_usageSeen = true;
    }
    const QJsonValue tokensPerSecond = object->value("timings"_L1).toObject().value("predicted_per_second"_L1);
    if (tokensPerSecond.isDouble()) {
        m_response.serverTokensPerSecond = tokensPerSecond.toDouble();
    }
    const QJsonArray choices = object->value("choices"_L1).toArray();
    for (const QJsonValue &choiceValue : choices) {
        const QJsonObject choice = choiceValue.toObject();
        if (choice.value("index"_L1).toInt() != 0) {
            continue; // only one completion is ever asked for
        }
        const QString finish = choice.value("finish_reason"_L1).toString();
        if (!finish.isEmpty()) {
            m_response.finishReason = finish;
        }
        const QJsonObject delta = choice.value("delta"_L1).toObject();
        const QString reasoning = delta.value("reasoning_content"_L1).toString();
        if (!reasoning.isEmpty()) {
            m_response.thinking += reasoning;
            deltas.append({ChatDelta::Kind::Thinking, reasoning});
        }
        const QString content = delta.value("content"_L1).toString();
        if (!content.isEmpty()) {
            m_response.text += content;
            deltas.append({ChatDelta::Kind::Text, content});
        }
        const QJsonArray calls = delta.value("tool_calls"_L1).toArray();
        for (const QJsonValue &callValue : calls) {
            const QJsonObject call = callValue.toObject();
            // Fragments name their call by index; only the first carries the id and the name.
            const int index = call.value("index"_L1).toInt(int(m_tools.size()));
            ToolCall &tool = toolAt(index);
            ChatDelta piece{ChatDelta::Kind::ToolCall, {}, index};
            const QString id = call.value("id"_L1).toString();
            if (!id.isEmpty()) {
                tool.id = id;
                piece.toolId = id;
            }
            const QJsonObject function = call.value("function"_L1).toObject();
            const QString name = function.value("name"_L1).toString();
            if (!name.isEmpty()) {
                tool.name += name;
                piece.toolName = name;
            }
            piece.argumentsFragment = function.value("arguments"_L1).toString().toUtf8();
            tool.arguments += piece.argumentsFragment;
            deltas.append(piece);
        }
    }
}

void ChatStreamDecoder::handleAnthropic(const SseEvent &event, QList<ChatDelta> &deltas)
{
    const std::optional<QJsonObject> object = eventObject(event.data);
    if (!object) {
        setError(u"The stream has an event that is not a JSON object: %1"_s.arg(quotedBytes(event.data)));
        return;
    }
    // The type inside the data is authoritative; the event: line repeats it.
    const QString type = object->value("type"_L1).toString();
    if (type == "ping"_L1 || m_complete) {
        return;
    }
    if (type == "error"_L1) {
        streamError(*object);
        return;
    }
    if (type == "message_start"_L1) {
        const QJsonObject message = object->value("message"_L1).toObject();
        m_response.model = message.value("model"_L1).toString();
        m_usage = message.value("usage"_L1).toObject();
        m_usageSeen = !m_usage.isEmpty();
        return;
    }
    if (type == "message_delta"_L1) {
        const QString stop = object->value("delta"_L1).toObject().value("stop_reason"_L1).toString();
        if (!stop.isEmpty()) {
            m_response.finishReason = stop;
        }
        // Usage here is cumulative: each field replaces the earlier value rather than adding to it.
        const QJsonObject usage = object->value("usage"_L1).toObject();
        for (auto it = usage.begin(); it != usage.end(); ++it) {
            if (!it.value().isNull()) {
                m_usage.insert(it.key(), it.value());
            }
        }
        m_usageSeen = m_usageSeen || !usage.isEmpty();
        return;
    }
    if (type == "message_stop"_L1) {
        m_complete = true;
        return;
    }
    const int block = object->value("index"_L1).toInt(-1);
    if (type == "content_block_start"_L1) {
        const QJsonObject content = object->value("content_block"_L1).toObject();
        const QString kind = content.value("type"_L1).toString();
        if (kind == "tool_use"_L1) {
            const int index = int(m_tools.size());
            m_anthropicBlockTools.insert(block, index);
            ToolCall &tool = toolAt(index);
            tool.id = content.value("id"_L1).toString();
            tool.name = content.value("name"_L1).toString();
            deltas.append({ChatDelta::Kind::ToolCall, {}, index, tool.id, tool.name, {}});
        } else if (kind == "text"_L1 && !content.value("text"_L1).toString().isEmpty()) {
            const QString text = content.value("text"_L1).toString();
            m_response.text += text;
            deltas.append({ChatDelta::Kind::Text, text});
        }
        return;
    }
    if (type == "content_block_delta"_L1) {
        const QJsonObject delta = object->value("delta"_L1).toObject();
        const QString kind = delta.value("type"_L1).toString();
        if (kind == "text_delta"_L1) {
            const QString text = delta.value("text"_L1).toString();
            m_response.text += text;
            deltas.append({ChatDelta::Kind::Text, text});
        } else if (kind == "thinking_delta"_L1) {
            const QString thinking = delta.value("thinking"_L1).toString();
            m_response.thinking += thinking;
            deltas.append({ChatDelta::Kind::Thinking, thinking});
        } else if (kind == "input_json_delta"_L1) {
            if (!m_anthropicBlockTools.contains(block)) {
                setError(u"The stream sent tool input for block %1, which is not a tool_use block: %2"_s.arg(block).arg(
                    quotedBytes(event.data)));
                return;
            }
            const int index = m_anthropicBlockTools.value(block);
            const QByteArray fragment = delta.value("partial_json"_L1).toString().toUtf8();
            toolAt(index).arguments += fragment;
            deltas.append({ChatDelta::Kind::ToolCall, {}, index, {}, {}, fragment});
        } else if (kind == "signature_delta"_L1) {
            m_response.thinkingSignature += delta.value("signature"_L1).toString(); // kept to send the thinking back
        }
        // citations carry nothing the app shows.
        return;
    }
    // content_block_stop and event types added later need no action.
}

Result<ChatResponse> ChatStreamDecoder::finish()
{
    if (hasError()) {
        return Result<ChatResponse>::failure(m_error);
    }
    if (!m_complete) {
        const QString end = m_format == WireFormat::AnthropicMessages ? u"message_stop"_s : u"[DONE]"_s;
        setError(u"The stream ended before %1%2"_s.arg(
                     end, m_parser.hasPartialEvent() ? u", in the middle of an event"_s : QString()),
                 true);
        return Result<ChatResponse>::failure(m_error);
    }
    if (!m_usageSeen) {
        setError(u"The stream ended without reporting token usage"_s);
        return Result<ChatResponse>::failure(m_error);
    }
    ChatResponse response = m_response;
    if (m_format == WireFormat::AnthropicMessages) {
        response.usage = AnthropicMessagesFormat::parseUsage(m_usage);
    }
    for (auto it = m_tools.cbegin(); it != m_tools.cend(); ++it) {
        ToolCall call = it.value();
        if (call.arguments.isEmpty()) {
            call.arguments = "{}"; // a call without parameters streams no argument fragments
        }
        response.toolCalls.append(call);
    }
    return Result<ChatResponse>::success(std::move(response));
}

} // namespace sf
