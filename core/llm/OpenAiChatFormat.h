#pragma once

#include "ChatTypes.h"
#include "Result.h"

#include <QByteArray>
#include <QStringList>

namespace sf {

/**
 * The OpenAI-compatible `/chat/completions` wire format (OpenAI, Hugging Face router, Ollama,
 * llama.cpp, vLLM), as pure functions.
 */
namespace OpenAiChatFormat {

QByteArray requestBody(const ChatRequest &request);
Result<ChatResponse> parseResponse(const QByteArray &body);
/** The provider's own message from an error body, or an empty string when there is none. */
QString errorMessage(const QByteArray &body);
/** Model ids from a `/models` listing (`data[].id`). */
Result<QStringList> parseModelList(const QByteArray &body);

} // namespace OpenAiChatFormat
} // namespace sf
