#pragma once

#include "TokenUsage.h"

#include <QJsonObject>

namespace sf {

/**
 * OpenAI's chat-completions usage object in separate buckets: `prompt_tokens` holds the cached
 * (`prompt_tokens_details.cached_tokens`, DeepSeek's `prompt_cache_hit_tokens`) and the cache-written
 * (`prompt_tokens_details.cache_write_tokens`) tokens, which are split out so none is billed twice. Shared by the
 * model client and the readers of files that carry such objects (chat logs, agent traces).
 */
TokenUsage openAiChatUsage(const QJsonObject &usage);

} // namespace sf
