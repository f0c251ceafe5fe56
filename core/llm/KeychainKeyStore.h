#pragma once

#include "ApiKeyStore.h"

#include <QHash>
#include <QObject>
#include <QStringList>

namespace sf {

/**
 * API keys in the OS keychain (QtKeychain: Secret Service, KWallet, macOS Keychain, Windows
 * Credential Store), with each provider's environment variable as the fallback. Keychain access is
 * asynchronous, so keys are read once by load() and then served from memory; setKey() writes through.
 * Keys never go to a settings or project file: QtKeychain's plaintext fallback stays off, and when
 * no keychain is available saving fails with the keychain's own message.
 */
class KeychainKeyStore final : public QObject, public ApiKeyStore
{
    Q_OBJECT

public:
    explicit KeychainKeyStore(QString service = QStringLiteral("Skillforge"), QObject *parent = nullptr);

    /** Reads the keys of these providers; loaded() follows once all have answered. */
    void load(const QStringList &providerNames);
    /** Stores (or, with an empty key, deletes) a provider's key; saved() follows. */
    void setKey(const QString &providerName, const QString &key);
    /** Whether the keychain (not the environment) holds a key for this provider. */
    bool hasStoredKey(const QString &providerName) const { return m_keys.contains(providerName); }

    QString apiKey(const ProviderConfig &provider) const override;
    QString whereToSet(const ProviderConfig &provider) const override;

Q_SIGNALS:
    void loaded();
    /** `error` is empty on success, else the keychain's own message. */
    void saved(const QString &providerName, const QString &error);

private:
    QString m_service;
    QHash<QString, QString> m_keys;
    int m_pendingReads = 0;
};

} // namespace sf
