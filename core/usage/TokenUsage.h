#pragma once

#include <QtGlobal>

namespace sf {

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

    /** Bucket by bucket: a conversation of several calls reports one total. */
    TokenUsage &operator+=(const TokenUsage &other)
    {
        uncachedInput += other.uncachedInput;
        cacheRead += other.cacheRead;
        cacheWrite5m += other.cacheWrite5m;
        cacheWrite1h += other.cacheWrite1h;
        output += other.output;
        reasoning += other.reasoning;
        return *this;
    }
};

} // namespace sf
