#pragma once

#include "ChatTypes.h"
#include "common/Result.h"

#include <QByteArray>
#include <QJsonObject>

namespace sf {

/** Anthropic's `/v1/messages` wire format, as pure functions (streams: ChatStreamDecoder). */
namespace AnthropicMessagesFormat {

inline constexpr char apiVersion[] = "2023-06-01";

/** The request, with `"stream": true` when the request asks to stream. */
QByteArray requestBody(const ChatRequest &request);
/** Fails when the body is not a message, including one without usage. */
Result<ChatResponse> parseResponse(const QByteArray &body);
/** Usage in separate buckets; `input_tokens` is already the uncached remainder. */
TokenUsage parseUsage(const QJsonObject &usage);
/** The provider's own message from an error body, or an empty string when there is none. */
QString errorMessage(const QByteArray &body);

} // namespace AnthropicMessagesFormat
} // namespace sf
