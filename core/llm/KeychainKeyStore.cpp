#include "KeychainKeyStore.h"

#include "LlmLogging.h"

#include <qt6keychain/keychain.h>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

QString keychainKey(const QString &providerName)
{
    return u"provider/%1/api-key"_s.arg(providerName);
}

// On Linux every keychain QtKeychain knows (Secret Service, KWallet) is reached over the D-Bus session
// bus. Without one (a headless session, CI) libsecret's attempt to find it can answer after the job has
// already given up and freed itself, which crashes; so no job is started at all.
QString whyNoKeychain()
{
#if defined(Q_OS_LINUX)
    if (qEnvironmentVariableIsEmpty("DBUS_SESSION_BUS_ADDRESS")) {
        return u"no keychain in this session (no D-Bus session bus); set the key in the environment instead"_s;
    }
#endif
    return {};
}

} // namespace

KeychainKeyStore::KeychainKeyStore(QString service, QObject *parent)
    : QObject(parent)
    , m_service(std::move(service))
{
}

void KeychainKeyStore::load(const QStringList &providerNames)
{
    if (providerNames.isEmpty() || !whyNoKeychain().isEmpty()) {
        QMetaObject::invokeMethod(this, &KeychainKeyStore::loaded, Qt::QueuedConnection);
        return;
    }
    m_pendingReads += int(providerNames.size());
    for (const QString &name : providerNames) {
        // Jobs are not children of the store: the keychain may answer after the store is gone, and
        // deleting a job in flight crashes in its callback. They delete themselves when done
        // (autoDelete), and `this` as the connection's context drops the answer if the store died.
        auto *job = new QKeychain::ReadPasswordJob(m_service);
        job->setInsecureFallback(false);
        job->setKey(keychainKey(name));
        connect(job, &QKeychain::Job::finished, this, [this, job, name] {
            if (job->error() == QKeychain::NoError && !job->textData().isEmpty()) {
                m_keys.insert(name, job->textData());
            } else if (job->error() != QKeychain::EntryNotFound && job->error() != QKeychain::NoError) {
                // No keychain on this system (a headless session): the environment still works.
                qCDebug(lcChat).noquote() << "keychain unavailable for" << name << ":" << job->errorString();
            }
            if (--m_pendingReads == 0) {
                Q_EMIT loaded();
            }
        });
        job->start();
    }
}

void KeychainKeyStore::setKey(const QString &providerName, const QString &key)
{
    if (const QString why = whyNoKeychain(); !why.isEmpty()) {
        QMetaObject::invokeMethod(
            this, [this, providerName, why] { Q_EMIT saved(providerName, why); }, Qt::QueuedConnection);
        return;
    }
    QKeychain::Job *job = nullptr;
    if (key.isEmpty()) {
        auto *remove = new QKeychain::DeletePasswordJob(m_service); // not a child: see load()
        job = remove;
    } else {
        auto *write = new QKeychain::WritePasswordJob(m_service);
        write->setTextData(key);
        job = write;
    }
    job->setInsecureFallback(false);
    job->setKey(keychainKey(providerName));
    connect(job, &QKeychain::Job::finished, this, [this, job, providerName, key] {
        const bool ok =
            job->error() == QKeychain::NoError || (key.isEmpty() && job->error() == QKeychain::EntryNotFound);
        if (ok) {
            if (key.isEmpty()) {
                m_keys.remove(providerName);
            } else {
                m_keys.insert(providerName, key);
            }
        }
        Q_EMIT saved(providerName, ok ? QString() : job->errorString());
    });
    job->start();
}

QString KeychainKeyStore::apiKey(const ProviderConfig &provider) const
{
    const auto it = m_keys.constFind(provider.name);
    if (it != m_keys.constEnd()) {
        return *it;
    }
    if (provider.apiKeyEnv.isEmpty()) {
        return {};
    }
    return qEnvironmentVariable(provider.apiKeyEnv.toLocal8Bit().constData()).trimmed();
}

QString KeychainKeyStore::whereToSet(const ProviderConfig &provider) const
{
    if (provider.apiKeyEnv.isEmpty()) {
        return u"add it in Tools → Providers and Keys"_s;
    }
    return u"add it in Tools → Providers and Keys, or set the environment variable %1"_s.arg(provider.apiKeyEnv);
}

} // namespace sf
