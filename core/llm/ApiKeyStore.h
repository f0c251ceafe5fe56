#pragma once

#include "ProviderConfig.h"

#include <QString>

namespace sf {

/**
 * Where API keys come from. Kept behind an interface so a keychain-backed store can replace the
 * environment without callers changing.
 */
class ApiKeyStore
{
public:
    virtual ~ApiKeyStore() = default;
    /** The key for this provider, or an empty string when none is configured. */
    virtual QString apiKey(const ProviderConfig &provider) const = 0;
    /** Where the user should put the key, for error messages ("set OPENAI_API_KEY"). */
    virtual QString whereToSet(const ProviderConfig &provider) const = 0;
};

/** Reads each provider's key from its environment variable (`apiKeyEnv`). */
class EnvironmentKeyStore final : public ApiKeyStore
{
public:
    QString apiKey(const ProviderConfig &provider) const override;
    QString whereToSet(const ProviderConfig &provider) const override;
};

} // namespace sf
