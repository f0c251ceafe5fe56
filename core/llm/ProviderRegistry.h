#pragma once

#include "ApiKeyStore.h"
#include "ProviderConfig.h"

#include <QList>
#include <QStringList>
#include <memory>

namespace sf {

/**
 * The providers a model name can refer to: the built-ins, configured from the usual environment
 * variables when the registry is made, plus any the user adds. `local` has no base URL until
 * LocalModelServer is running.
 */
class ProviderRegistry final
{
public:
    /** Built-ins from the environment, keys from `keys` (the environment when null). */
    explicit ProviderRegistry(std::unique_ptr<ApiKeyStore> keys = nullptr);

    const ProviderConfig *find(const QString &name) const;
    QStringList names() const;
    /** Adds a provider, or replaces the one with the same name. */
    void add(const ProviderConfig &provider);
    /** Removes a provider by name; returns whether there was one. */
    bool remove(const QString &name);

    /** Where keys come from (the environment unless another store was given). */
    ApiKeyStore &keyStore() { return *m_keys; }

    QString apiKey(const ProviderConfig &provider) const;
    QString apiKey(const QString &providerName) const;
    /** A message for a missing key that names where to set it. */
    QString missingKeyMessage(const ProviderConfig &provider) const;

    static QList<ProviderConfig> builtinsFromEnvironment();

private:
    QList<ProviderConfig> m_providers;
    std::unique_ptr<ApiKeyStore> m_keys;
};

} // namespace sf
