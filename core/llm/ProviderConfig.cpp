#include "ProviderConfig.h"

#include "AnthropicMessagesFormat.h"

using namespace Qt::StringLiterals;

namespace sf {

QUrl endpointUrl(const QUrl &base, const QString &path)
{
    QUrl url = base;
    QString basePath = url.path();
    while (basePath.endsWith(u'/')) {
        basePath.chop(1);
    }
    url.setPath(basePath + path);
    return url;
}

HttpHeaders providerHeaders(const ProviderConfig &provider, const QString &apiKey)
{
    HttpHeaders headers{{"Content-Type", "application/json"}, {"Accept", "application/json"}};
    if (provider.format == WireFormat::AnthropicMessages) {
        headers.emplaceBack("anthropic-version", AnthropicMessagesFormat::apiVersion);
        if (!apiKey.isEmpty()) {
            headers.emplaceBack("x-api-key", apiKey.toUtf8());
        }
    } else if (!apiKey.isEmpty()) {
        headers.emplaceBack("Authorization", "Bearer " + apiKey.toUtf8());
    }
    headers.append(provider.extraHeaders);
    return headers;
}

QString missingBaseUrlMessage(const ProviderConfig &provider)
{
    if (provider.name == "local"_L1) {
        return u"The local model server is not running, so provider 'local' has no address yet"_s;
    }
    if (!provider.baseUrlEnv.isEmpty()) {
        return u"Provider '%1' has no base URL: set %2"_s.arg(provider.name, provider.baseUrlEnv);
    }
    return u"Provider '%1' has no base URL"_s.arg(provider.name);
}

} // namespace sf
