#include "ProviderRegistry.h"

#include "LocalRuntime.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

QString env(const char *name)
{
    return qEnvironmentVariable(name).trimmed();
}

QUrl baseUrlFrom(const QString &text)
{
    QUrl url(text);
    QString path = url.path();
    while (path.endsWith(u'/')) {
        path.chop(1); // endpoints are appended as "/chat/completions"
    }
    url.setPath(path);
    return url;
}

QUrl ollamaBaseUrl()
{
    // OLLAMA_HOST is often written without a scheme or port ("127.0.0.1", "0.0.0.0:11434").
    QString host = env("OLLAMA_HOST");
    if (host.isEmpty()) {
        host = u"http://127.0.0.1:11434"_s;
    }
    if (!host.contains("://"_L1)) {
        host.prepend("http://"_L1);
    }
    QUrl url = baseUrlFrom(host);
    if (url.port() == -1 && url.scheme() == "http"_L1) {
        url.setPort(11434);
    }
    url.setPath(url.path() + "/v1"_L1);
    return url;
}

ProviderConfig provider(const QString &name, WireFormat format, const QString &baseUrl, const QString &baseUrlEnv,
                        const QString &apiKeyEnv, bool apiKeyRequired, int maxConcurrent)
{
    ProviderConfig config;
    config.name = name;
    config.format = format;
    config.baseUrl = baseUrl.isEmpty() ? QUrl() : baseUrlFrom(baseUrl);
    config.baseUrlEnv = baseUrlEnv;
    config.apiKeyEnv = apiKeyEnv;
    config.apiKeyRequired = apiKeyRequired;
    config.maxConcurrent = maxConcurrent;
    return config;
}

QString envOr(const char *name, const QString &fallback)
{
    const QString value = env(name);
    return value.isEmpty() ? fallback : value;
}

} // namespace

ProviderRegistry::ProviderRegistry(std::unique_ptr<ApiKeyStore> keys)
    : m_providers(builtinsFromEnvironment())
    , m_keys(keys ? std::move(keys) : std::make_unique<EnvironmentKeyStore>())
{
}

QList<ProviderConfig> ProviderRegistry::builtinsFromEnvironment()
{
    using enum WireFormat;
    QList<ProviderConfig> providers{
        provider(u"anthropic"_s, AnthropicMessages, envOr("ANTHROPIC_BASE_URL", u"https://api.anthropic.com"_s),
                 u"ANTHROPIC_BASE_URL"_s, u"ANTHROPIC_API_KEY"_s, true, 8),
        provider(u"openai"_s, OpenAiChat, envOr("OPENAI_BASE_URL", u"https://api.openai.com/v1"_s),
                 u"OPENAI_BASE_URL"_s, u"OPENAI_API_KEY"_s, true, 8),
        provider(u"hf"_s, OpenAiChat, u"https://router.huggingface.co/v1"_s, {}, u"HF_TOKEN"_s, true, 8),
        provider(u"ollama"_s, OpenAiChat, {}, u"OLLAMA_HOST"_s, {}, false, 4),
        // Self-hosted OpenAI-compatible servers (vLLM, TGI) often run without a key.
        provider(u"generic"_s, OpenAiChat, env("GENERIC_BASE_URL"), u"GENERIC_BASE_URL"_s, u"GENERIC_API_KEY"_s, false,
                 8),
        // As many requests as the embedded server has slots; the base URL arrives when LocalModelServer is ready.
        provider(u"local"_s, OpenAiChat, {}, {}, {}, false, LocalRuntime::slots),
    };
    providers[1].maxCompletionTokens = true; // o-series models reject max_tokens
    ProviderConfig &ollama = providers[3];
    ollama.baseUrl = ollamaBaseUrl();
    ollama.listStyle = ModelListStyle::OllamaTags;
    return providers;
}

const ProviderConfig *ProviderRegistry::find(const QString &name) const
{
    const auto it = std::find_if(m_providers.cbegin(), m_providers.cend(),
                                 [&name](const ProviderConfig &config) { return config.name == name; });
    return it == m_providers.cend() ? nullptr : &*it;
}

QStringList ProviderRegistry::names() const
{
    QStringList result;
    for (const ProviderConfig &config : m_providers) {
        result.append(config.name);
    }
    return result;
}

void ProviderRegistry::add(const ProviderConfig &provider)
{
    const auto it = std::find_if(m_providers.begin(), m_providers.end(),
                                 [&provider](const ProviderConfig &config) { return config.name == provider.name; });
    if (it == m_providers.end()) {
        m_providers.append(provider);
    } else {
        *it = provider;
    }
}

bool ProviderRegistry::remove(const QString &name)
{
    return m_providers.removeIf([&name](const ProviderConfig &config) { return config.name == name; }) > 0;
}

QString ProviderRegistry::apiKey(const ProviderConfig &provider) const
{
    return m_keys->apiKey(provider);
}

QString ProviderRegistry::apiKey(const QString &providerName) const
{
    const ProviderConfig *config = find(providerName);
    return config ? apiKey(*config) : QString();
}

QString ProviderRegistry::missingKeyMessage(const ProviderConfig &provider) const
{
    return u"No API key for provider '%1': %2"_s.arg(provider.name, m_keys->whereToSet(provider));
}

} // namespace sf
