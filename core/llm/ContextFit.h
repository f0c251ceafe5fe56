#pragma once

#include "ChatTypes.h"

#include <QString>

namespace sf {

/**
 * Whether a request fits a model's context window, checked before it goes out where the window is
 * known (the embedded server's), and recognised afterwards in the refusal of a provider that knew
 * better. An overflow is a property of the request, not a passing fault: it is never retried.
 */
namespace ContextFit {

/** Tokens a chat template adds around each message, on top of its text. */
inline constexpr int perMessageOverheadTokens = 8;
/** The smallest reply worth asking for when the prompt leaves little room. */
inline constexpr int minimumReplyTokens = 256;

/** About how many tokens the prompt of `request` takes: system text, messages, tool calls and definitions. */
int estimatePromptTokens(const ChatRequest &request);

/**
 * Whether a provider's error says the request did not fit the context: llama-server's "exceeds the
 * available context size" (400) and "Context size has been exceeded" (500 while decoding), OpenAI's
 * context_length_exceeded, Anthropic's "prompt is too long", vLLM's "maximum context length".
 */
bool saysContextExceeded(const QString &message);

/**
 * Makes `request` fit a window of `contextTokens`: lowers its maxTokens to the room the prompt leaves
 * (the estimate may be 15% short, so that much is kept free), or, when not even minimumReplyTokens
 * are left, returns why it cannot fit, naming `model`. Empty when it fits.
 */
QString fitToContext(ChatRequest &request, int contextTokens, const QString &model);

} // namespace ContextFit
} // namespace sf
