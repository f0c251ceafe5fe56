#pragma once

#include "HttpTypes.h"

#include <QString>
#include <QUrl>

namespace sf {

/** The two chat wire formats that cover every provider Skillforge talks to. */
enum class WireFormat
{
    OpenAiChat,
    AnthropicMessages,
};

/** How a provider lists its models. */
enum class ModelListStyle
{
    OpenAiModels, // GET <base>/models -> data[].id (Anthropic's /v1/models has the same shape)
    OllamaTags,   // GET <host>/api/tags -> models[].name
};

/** Everything needed to reach one provider; the key itself is never stored here, only where to find it. */
struct ProviderConfig
{
    QString name;
    WireFormat format = WireFormat::OpenAiChat;
    QUrl baseUrl;
    QString baseUrlEnv; // where the user overrides baseUrl, for messages when it is missing
    QString apiKeyEnv;
    bool apiKeyRequired = true;
    HttpHeaders extraHeaders;
    int maxConcurrent = 8;     // requests in flight at once; 0 means unlimited
    // Whether maxConcurrent and requestsPerMinute are the user's (a provider they added, or limits they set for a
    // built-in one) rather than Skillforge's defaults. A run's concurrency overrides a default, never the user's.
    bool limitsSetByUser = false;
    int requestsPerMinute = 0; // requests started in any 60 s window, retries included; 0 means unlimited
    int connectTimeoutMs = 10000;
    // A non-streaming request to a reasoning model can think for minutes before its first byte.
    int firstByteTimeoutMs = 10 * 60 * 1000;
    int idleTimeoutMs = 120000; // longest silence once the response (or stream) has started
    bool maxCompletionTokens = false; // OpenAI's own API: send max_completion_tokens, not max_tokens
    ModelListStyle listStyle = ModelListStyle::OpenAiModels;
};

/** `base` with `path` appended to its path ("https://api.openai.com/v1" + "/models"). */
QUrl endpointUrl(const QUrl &base, const QString &path);

/** Content type, authentication in the provider's style, and the provider's extra headers. */
HttpHeaders providerHeaders(const ProviderConfig &provider, const QString &apiKey);

/** Why a provider without a base URL cannot be used, and how to fix it. */
QString missingBaseUrlMessage(const ProviderConfig &provider);

} // namespace sf
