#include "OpenAiUsage.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace sf {

TokenUsage openAiChatUsage(const QJsonObject &usage)
{
    const qint64 prompt = usage.value("prompt_tokens"_L1).toInteger();
    const QJsonObject details = usage.value("prompt_tokens_details"_L1).toObject();
    qint64 cached = details.value("cached_tokens"_L1).toInteger();
    if (cached == 0)
        cached = usage.value("prompt_cache_hit_tokens"_L1).toInteger(); // DeepSeek's spelling
    TokenUsage result;
    result.cacheRead = cached;
    // OpenAI bills cache writes of its newer models (GPT-5.6, GPT-6.x) at their own rate.
    result.cacheWrite5m = details.value("cache_write_tokens"_L1).toInteger();
    result.uncachedInput = std::max<qint64>(0, prompt - cached - result.cacheWrite5m);
    result.output = usage.value("completion_tokens"_L1).toInteger();
    result.reasoning = usage.value("completion_tokens_details"_L1).toObject().value("reasoning_tokens"_L1).toInteger();
    return result;
}

} // namespace sf
