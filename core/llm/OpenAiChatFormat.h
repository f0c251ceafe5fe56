#pragma once

#include "ChatTypes.h"
#include "common/Result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QStringList>

namespace sf {

/**
 * The OpenAI-compatible `/chat/completions` wire format (OpenAI, Hugging Face router, Ollama,
 * llama.cpp, vLLM), as pure functions.
 */
namespace OpenAiChatFormat {

/** Which name the output limit goes by: OpenAI's own API wants the newer one, most servers the older. */
enum class TokenLimitField
{
    MaxTokens,
    MaxCompletionTokens,
};

/** The request; a streaming one asks for usage in the final chunk (`stream_options.include_usage`). */
QByteArray requestBody(const ChatRequest &request, TokenLimitField limitField = TokenLimitField::MaxTokens);
/** Fails when the body is not a chat completion, including one without usage. */
Result<ChatResponse> parseResponse(const QByteArray &body);
/** The provider's own message from an error body, or an empty string when there is none. */
QString errorMessage(const QByteArray &body);
/** Model ids from a `/models` listing (`data[].id`). */
Result<QStringList> parseModelList(const QByteArray &body);

} // namespace OpenAiChatFormat
} // namespace sf
