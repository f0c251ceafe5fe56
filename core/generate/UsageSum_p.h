#pragma once

#include "llm/ChatTypes.h"

namespace sf {

/** Adds @p more to @p sum bucket by bucket: a flow that calls a model several times reports one total. */
inline void addUsage(TokenUsage &sum, const TokenUsage &more)
{
    sum.uncachedInput += more.uncachedInput;
    sum.cacheRead += more.cacheRead;
    sum.cacheWrite5m += more.cacheWrite5m;
    sum.cacheWrite1h += more.cacheWrite1h;
    sum.output += more.output;
    sum.reasoning += more.reasoning;
}

} // namespace sf
