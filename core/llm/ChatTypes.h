#pragma once

#include <QList>
#include <QMetaType>
#include <QString>
#include <optional>

namespace sf {

/** One message of a conversation; `role` is "user" or "assistant" (the system prompt is separate). */
struct ChatMessage
{
    QString role;
    QString content;
};

/** A provider-neutral, non-streaming chat request. */
struct ChatRequest
{
    QString model; // the provider's own model id, without the PROVIDER: prefix
    QString system;
    QList<ChatMessage> messages;
    int maxTokens = 1024;
    std::optional<double> temperature;
    std::optional<double> topP;
    std::optional<qint64> seed;
};

/**
 * Token counts in separate, non-overlapping buckets, whatever the provider's own convention
 * (OpenAI counts cached tokens inside prompt_tokens, Anthropic does not), so costs add up correctly.
 */
struct TokenUsage
{
    qint64 uncachedInput = 0;
    qint64 cacheRead = 0;
    qint64 cacheWrite5m = 0;
    qint64 cacheWrite1h = 0;
    qint64 output = 0;
    qint64 reasoning = 0; // already counted inside output

    qint64 totalInput() const { return uncachedInput + cacheRead + cacheWrite5m + cacheWrite1h; }
};

/** The answer to a ChatRequest, with usage and timing. */
struct ChatResponse
{
    QString text;
    QString finishReason;
    QString model;
    TokenUsage usage;
    qint64 latencyMs = 0;
    qint64 firstByteMs = 0;
    std::optional<double> serverTokensPerSecond; // llama.cpp's own timings.predicted_per_second
};

} // namespace sf

Q_DECLARE_METATYPE(sf::ChatResponse)
