#pragma once

#include "ProviderConfig.h"
#include "common/Result.h"

#include <QList>

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
/** Adds the user's providers to `registry` (built-in names are never replaced). */
void applyTo(ProviderRegistry &registry, QSettings &settings);

/** Why this provider cannot be saved (empty name, a built-in's name, no http(s) URL...), or empty. */
QString validate(const ProviderConfig &provider);
/** "Name: value" lines, one header a line, as the settings page edits them. */
Result<HttpHeaders> parseHeaderLines(const QString &text);
QString headerLines(const HttpHeaders &headers);

} // namespace ProviderSettings
} // namespace sf
