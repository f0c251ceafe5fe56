// Keys in the OS keychain, and what happens where there is none (a headless session, CI).
#include "SkippedChecks.h"
#include "llm/KeychainKeyStore.h"
#include "llm/ProviderConfig.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

class TestKeychainKeyStore final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qunsetenv("DBUS_SESSION_BUS_ADDRESS"); // the session this test describes
    }

    void withoutASessionBus_savingSaysWhyAndTheEnvironmentStillWorks()
    {
        KeychainKeyStore store(u"Skillforge-test"_s);
        QSignalSpy saved(&store, &KeychainKeyStore::saved);
        store.setKey(u"my-provider"_s, u"sk-never-stored-1234"_s);
        QVERIFY(saved.isEmpty()); // reported after setKey() returns, like a real keychain's answer
        QTRY_COMPARE_WITH_TIMEOUT(saved.count(), 1, 2000);
        QCOMPARE(saved.first().at(0).toString(), u"my-provider"_s);
        QVERIFY(saved.first().at(1).toString().contains(u"environment"_s));

        ProviderConfig provider;
        provider.name = u"my-provider"_s;
        provider.apiKeyEnv = u"SKILLFORGE_TEST_KEY"_s;
        QVERIFY(store.apiKey(provider).isEmpty()); // the refused key was not kept
        qputenv("SKILLFORGE_TEST_KEY", " sk-from-env-5678 ");
        QCOMPARE(store.apiKey(provider), u"sk-from-env-5678"_s);
    }

    void withoutASessionBus_loadingEndsAtOnceWithNoKeys()
    {
        KeychainKeyStore store(u"Skillforge-test"_s);
        QSignalSpy loaded(&store, &KeychainKeyStore::loaded);
        store.load({u"anthropic"_s, u"openai"_s});
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 2000);
        ProviderConfig provider;
        provider.name = u"anthropic"_s;
        QVERIFY(store.apiKey(provider).isEmpty());
    }
};

SF_TEST_GUILESS_MAIN(TestKeychainKeyStore)
#include "test_keychain_key_store.moc"
