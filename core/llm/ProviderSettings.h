#pragma once

#include "ProviderConfig.h"
#include "common/Result.h"

#include <QList>
#include <optional>

class QSettings;

namespace sf {

class ProviderRegistry;

/**
 * The providers the user added (name, wire format, base URL, extra headers, max concurrent
 * requests, requests per minute, timeouts), kept in the application settings. Keys are not: they
 * live in the keychain (KeychainKeyStore) or the environment.
 */
namespace ProviderSettings {

/** The user's providers as stored; entries that no longer validate are skipped. */
QList<ProviderConfig> load(QSettings &settings);
/** Replaces the stored list. */
void save(QSettings &settings, const QList<ProviderConfig> &providers);
/** Adds the user's providers to `registry` (built-in names are never replaced), and applies the limits the user
    set for built-in providers. */
void applyTo(ProviderRegistry &registry, QSettings &settings);

/** The limits a user sets for a built-in provider (its address and format stay Skillforge's). */
struct Limits
{
    int maxConcurrent = 0;     ///< 0: unlimited
    int requestsPerMinute = 0; ///< 0: unlimited
};
/** Stores `limits` for the built-in `provider`; none: back to Skillforge's defaults. */
void saveBuiltinLimits(QSettings &settings, const QString &provider, const std::optional<Limits> &limits);
/** The limits stored for the built-in `provider`, if the user set any. */
std::optional<Limits> builtinLimits(QSettings &settings, const QString &provider);

/** Why this provider cannot be saved (empty name, a built-in's name, no http(s) URL...), or empty. */
QString validate(const ProviderConfig &provider);
/** "Name: value" lines, one header a line, as the settings page edits them. */
Result<HttpHeaders> parseHeaderLines(const QString &text);
QString headerLines(const HttpHeaders &headers);

} // namespace ProviderSettings
} // namespace sf
