#include "ApiKeyStore.h"

using namespace Qt::StringLiterals;

namespace sf {

QString EnvironmentKeyStore::apiKey(const ProviderConfig &provider) const
{
    if (provider.apiKeyEnv.isEmpty()) {
        return {};
    }
    return qEnvironmentVariable(provider.apiKeyEnv.toLocal8Bit().constData()).trimmed();
}

QString EnvironmentKeyStore::whereToSet(const ProviderConfig &provider) const
{
    return u"set the environment variable %1"_s.arg(provider.apiKeyEnv);
}

} // namespace sf
