#pragma once

#include "ChatTypes.h"
#include "ProviderConfig.h"
#include "common/Result.h"
#include "SseParser.h"

#include <QJsonObject>
#include <QMap>

namespace sf {

/** A piece of a streamed reply, as it arrives. */
struct ChatDelta
{
    enum class Kind
    {
        Text,
        Thinking,
        ToolCall, // a new call (id and name set) or a fragment of its arguments
    };
    Kind kind = Kind::Text;
    QString text{};
    int toolIndex = -1; // position of the call in ChatResponse::toolCalls
    QString toolId{};
    QString toolName{};
    QByteArray argumentsFragment{};
};

/**
 * Turns a streamed chat body (server-sent events in either wire format) into deltas as bytes
 * arrive, and into the same ChatResponse the non-streaming call gives once the stream is complete.
 * OpenAI: `choices[].delta` content, reasoning_content and tool_calls keyed by index, the usage
 * chunk of `stream_options.include_usage`, `[DONE]`. Anthropic: message_start, content_block_*
 * (text, input_json, thinking deltas), message_delta with cumulative usage, message_stop, ping,
 * error. Anything else (bad JSON, broken framing, an early end) is an error quoting the bytes.
 */
class ChatStreamDecoder final
{
public:
    explicit ChatStreamDecoder(WireFormat format);

    /** Deltas completed by `bytes`; after an error nothing more is decoded. */
    QList<ChatDelta> feed(const QByteArray &bytes);
    bool hasError() const { return !m_error.isEmpty(); }
    const QString &error() const { return m_error; }
    /** Whether the error is the provider saying "try again" (Anthropic's overloaded_error, a server error). */
    bool errorIsRetryable() const { return m_errorRetryable; }

    /** The whole reply, or why the stream is not one: cut short, no usage, or an earlier error. */
    Result<ChatResponse> finish();

private:
    void handleOpenAi(const SseEvent &event, QList<ChatDelta> &deltas);
    void handleAnthropic(const SseEvent &event, QList<ChatDelta> &deltas);
    void setError(const QString &message, bool retryable = false);
    void streamError(const QJsonObject &object);
    ToolCall &toolAt(int index);

    WireFormat m_format;
    SseParser m_parser;
    ChatResponse m_response;
    QMap<int, ToolCall> m_tools;           // by the call's index
    QHash<int, int> m_anthropicBlockTools; // Anthropic content block index -> tool index
    QJsonObject m_usage;                   // Anthropic: the latest value of each usage field
    bool m_usageSeen = false;
    bool m_complete = false;
    QString m_error;
    bool m_errorRetryable = false;
};

} // namespace sf
