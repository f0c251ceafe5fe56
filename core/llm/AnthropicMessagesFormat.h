#pragma once

#include "ChatTypes.h"
#include "Result.h"

#include <QByteArray>

namespace sf {

/** Anthropic's non-streaming `/v1/messages` wire format, as pure functions. */
namespace AnthropicMessagesFormat {

inline constexpr char apiVersion[] = "2023-06-01";

QByteArray requestBody(const ChatRequest &request);
Result<ChatResponse> parseResponse(const QByteArray &body);
/** The provider's own message from an error body, or an empty string when there is none. */
QString errorMessage(const QByteArray &body);

} // namespace AnthropicMessagesFormat
} // namespace sf
