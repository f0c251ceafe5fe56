#pragma once

#include "HttpTypes.h"

#include <QDateTime>
#include <optional>

namespace sf {

/**
 * When a failed chat request is tried again: how often, and how long to wait. Waits grow
 * exponentially from `baseDelayMs` with jitter (so many clients that failed together do not come
 * back together), capped at `maxDelayMs`; a provider's retry-after overrides the computed wait.
 */
struct RetryPolicy
{
    int maxAttempts = 5; // including the first
    int baseDelayMs = 1000;
    int maxDelayMs = 60000;
    int maxRetryAfterMs = 5 * 60 * 1000; // a longer retry-after is waited only this long
};

/** 408, 409, 429, 500, 502, 503, 504 and 529 (Anthropic's "overloaded"): worth trying again. */
bool isRetryableStatus(int status);

/**
 * The wait a response asks for: `retry-after-ms`, else `retry-after` as seconds or as an HTTP date
 * (relative to `now`). Empty when there is none or it cannot be read.
 */
std::optional<qint64> retryAfterMs(const HttpResponse &response,
                                   const QDateTime &now = QDateTime::currentDateTimeUtc());

/**
 * The wait before the next attempt after `failedAttempts` failures (1 = the first failed):
 * base * 2^(failedAttempts-1), capped, then scaled into [50%, 100%] by `random01` in [0, 1).
 */
qint64 backoffMs(const RetryPolicy &policy, int failedAttempts, double random01);

} // namespace sf
