#pragma once

#include "TokenUsage.h"

#include <QDate>
#include <QList>
#include <QString>
#include <optional>

namespace sf {

/** A rate that changes with the size of the request's prompt: above a tier's threshold, every token of the request
 * is billed at that tier's rate (the providers' "cliff" tiers; 2026: Anthropic above 200K, OpenAI above 272K). */
struct RateTier
{
    qint64 aboveInputTokens = 0; // input tokens of the request, cached ones included
    double usdPerMillion = 0;
};

struct Rate
{
    double usdPerMillion = 0;
    QList<RateTier> tiers; // ascending by threshold

    /** The rate a request with @p promptTokens input tokens pays. */
    double at(qint64 promptTokens) const;
};

/**
 * What one model costs at one moment, whichever table it came from: dollars per million tokens by bucket, and
 * where the price was read, so every cost shown can say where it came from.
 */
struct ModelRates
{
    Rate input;
    Rate output; // reasoning tokens are part of output and billed as output unless outputReasoning is set
    Rate cacheRead;
    Rate cacheWrite5m; // a provider's one cache-write price (OpenAI's) is this one
    Rate cacheWrite1h;
    std::optional<Rate> outputReasoning;
    double usdPerThousandRequests = 0;

    QString modelName; // as the table names it: "Claude Sonnet 5.5"
    QString origin;    // "genai-prices: anthropic/claude-sonnet-5-5", "your pricing.json: anthropic:my-model*"
    QDate since;       // the day this price took effect, where the table says
    QDate until;       // the first day it is no longer in force, where the table says

    /** What @p usage, one request's, costs at these rates, in US dollars. */
    double costOf(const TokenUsage &usage) const;
    /** The prompt sizes above which some rate changes, ascending, each once. */
    QList<qint64> tierThresholds() const;
    /** "$2 input, $10 output, $0.10 cache read, … per million tokens; above 200K input tokens: …". */
    QString summary() const;
};

} // namespace sf
