#include "ApiKeyStore.h"

#include <QRegularExpression>

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

QString redactSecret(const QString &secret)
{
    const QString ellipsis = QString(QChar(0x2026));
    // Short secrets would be half revealed by their last four characters.
    if (secret.size() < 12) {
        return ellipsis;
    }
    // Keep a vendor prefix such as "sk-" or "hf_", which says which kind of key it is.
    static const QRegularExpression vendorPrefix(u"^[A-Za-z]{2,4}[-_]"_s);
    const QString prefix = vendorPrefix.match(secret).captured();
    return prefix % ellipsis % secret.right(4);
}

} // namespace sf
