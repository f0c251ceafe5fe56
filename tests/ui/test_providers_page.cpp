// The provider settings page as a user drives it, against the real local llama.cpp server.
#include "SkippedChecks.h"
#include "llm/HttpEngine.h"
#include "llm/KeychainKeyStore.h"
#include "llm/LocalModelServer.h"
#include "llm/LocalRuntime.h"
#include "llm/ModelLister.h"
#include "llm/ProviderRegistry.h"
#include "llm/ProviderSettings.h"
#include "project/AppSettings.h"
#include "settings/ProvidersPage.h"

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTest>
#include <cstdio>
#include <memory>

using namespace sf;
using namespace Qt::StringLiterals;

class TestProvidersPage final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<LocalModelServer> m_local;
    std::unique_ptr<ProviderRegistry> m_providers;
    KeychainKeyStore *m_keys = nullptr;
    std::unique_ptr<ModelLister> m_lister;
    std::unique_ptr<ProvidersPage> m_page;

    template <typename T> T *child(const QString &name) { return m_page->findChild<T *>(name); }

    void fillNewProvider(const QString &name, const QString &baseUrl, const QString &key)
    {
        QTest::mouseClick(child<QPushButton>(u"addProvider"_s), Qt::LeftButton);
        QTest::keyClicks(child<QLineEdit>(u"providerName"_s), name);
        QTest::keyClicks(child<QLineEdit>(u"providerBaseUrl"_s), baseUrl);
        QTest::keyClicks(child<QLineEdit>(u"providerKey"_s), key);
        QTest::mouseClick(child<QPushButton>(u"saveProvider"_s), Qt::LeftButton);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QSettings(AppSettings::filePath(), QSettings::IniFormat).clear();
        m_engine = std::make_unique<HttpEngine>();
        LocalModelServer::Options options = LocalModelServer::Options::fromRuntime();
        options.startupTimeoutMs = 180000;
        m_local = std::make_unique<LocalModelServer>(*m_engine, options);
    }

    void init()
    {
        QSettings(AppSettings::filePath(), QSettings::IniFormat).clear();
        auto keys = std::make_unique<KeychainKeyStore>(u"Skillforge-test"_s);
        m_keys = keys.get();
        m_providers = std::make_unique<ProviderRegistry>(std::move(keys));
        m_lister = std::make_unique<ModelLister>(*m_engine, *m_providers);
        m_page = std::make_unique<ProvidersPage>(*m_providers, *m_keys, *m_lister);
        m_page->show();
    }

    void cleanup()
    {
        m_page.reset();
        m_lister.reset();
        m_providers.reset();
    }

    void cleanupTestCase()
    {
        m_local.reset();
        m_engine.reset();
    }

    void builtInProviders_areListed()
    {
        const QListWidget *list = child<QListWidget>(u"providerList"_s);
        QVERIFY(!list->findItems(u"anthropic"_s, Qt::MatchExactly).isEmpty());
        QVERIFY(!list->findItems(u"local"_s, Qt::MatchExactly).isEmpty());
        QVERIFY(!child<QPushButton>(u"removeProvider"_s)->isEnabled()); // built-ins cannot be removed
    }

    void builtInProvider_limitsCanBeSet_andAreTheUsersFromThen()
    {
        auto *list = child<QListWidget>(u"providerList"_s);
        list->setCurrentItem(list->findItems(u"anthropic"_s, Qt::MatchExactly).first());
        auto *maxConcurrent = child<QSpinBox>(u"providerMaxConcurrent"_s);
        QVERIFY(maxConcurrent && maxConcurrent->isEnabled()); // a built-in's limits are the user's to set
        QVERIFY(!child<QLineEdit>(u"providerBaseUrl"_s)->isEnabled()); // its address is not
        maxConcurrent->setValue(32);
        QTest::mouseClick(child<QPushButton>(u"saveProvider"_s), Qt::LeftButton);
        QCOMPARE(m_providers->find(u"anthropic"_s)->maxConcurrent, 32);
        QVERIFY(m_providers->find(u"anthropic"_s)->limitsSetByUser);
        // Kept in the settings, and applied to a fresh registry (the next start).
        QSettings settings(AppSettings::filePath(), QSettings::IniFormat);
        QCOMPARE(ProviderSettings::builtinLimits(settings, u"anthropic"_s)->maxConcurrent, 32);
        ProviderRegistry fresh;
        ProviderSettings::applyTo(fresh, settings);
        QCOMPARE(fresh.find(u"anthropic"_s)->maxConcurrent, 32);
        QVERIFY(fresh.find(u"anthropic"_s)->limitsSetByUser);
        QVERIFY(!fresh.find(u"openai"_s)->limitsSetByUser);
        // The embedded server's slots are not a setting.
        list->setCurrentItem(list->findItems(u"local"_s, Qt::MatchExactly).first());
        QVERIFY(!maxConcurrent->isEnabled());
    }

    void addProvider_savesItWithoutTheKey_andTestConnectionReachesTheLocalServer()
    {
        m_local->ensureStarted();
        if (m_local->state() != LocalModelServer::State::Ready) {
            QSignalSpy ready(m_local.get(), &LocalModelServer::ready);
            QVERIFY2(ready.wait(180000), qPrintable(m_local->errorString()));
        }
        fillNewProvider(u"my-llama"_s, m_local->baseUrl().toString(), u"sk-page-test-key-4321"_s);

        const ProviderConfig *saved = m_providers->find(u"my-llama"_s);
        QVERIFY(saved);
        QCOMPARE(saved->baseUrl, m_local->baseUrl());
        QVERIFY(!child<QListWidget>(u"providerList"_s)->findItems(u"my-llama"_s, Qt::MatchExactly).isEmpty());
        QVERIFY(child<QLineEdit>(u"providerKey"_s)->text().isEmpty()); // the typed key is gone from the form
        // The provider is in the settings file; the key is not.
        QSettings settings(AppSettings::filePath(), QSettings::IniFormat);
        settings.sync();
        QFile file(settings.fileName());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray stored = file.readAll();
        QVERIFY(stored.contains("my-llama"));
        QVERIFY(!stored.contains("sk-page-test-key"));
        QVERIFY(!stored.contains("4321"));

        QSignalSpy tested(m_page.get(), &ProvidersPage::connectionTested);
        QTest::mouseClick(child<QPushButton>(u"testConnection"_s), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, 60000);
        const QString message = tested.first().at(1).toString();
        QVERIFY2(tested.first().at(0).toBool(), qPrintable(message));
        QVERIFY2(message.startsWith("Connected to 'my-llama' in "_L1), qPrintable(message));
        QVERIFY2(message.contains("model"_L1), qPrintable(message));
    }

    void testConnection_toAClosedPort_showsTheFirstErrorVerbatim()
    {
        quint16 closedPort = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            closedPort = probe.serverPort();
        }
        fillNewProvider(u"nowhere"_s, u"http://127.0.0.1:%1/v1"_s.arg(closedPort), QString());
        QSignalSpy tested(m_page.get(), &ProvidersPage::connectionTested);
        QTest::mouseClick(child<QPushButton>(u"testConnection"_s), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(tested.count(), 1, 15000);
        QCOMPARE(tested.first().at(0).toBool(), false);
        const QString message = tested.first().at(1).toString();
        QVERIFY2(message.startsWith("'nowhere' failed: "_L1), qPrintable(message));
        QVERIFY2(message.contains(QString::number(closedPort)), qPrintable(message)); // curl's own words name the port
    }

    void badInput_isExplained_andNothingIsSaved()
    {
        fillNewProvider(u"Bad Name"_s, u"http://127.0.0.1:1/v1"_s, QString());
        QVERIFY2(child<QLabel>(u"providerStatus"_s)->text().contains("lowercase"_L1),
                 qPrintable(child<QLabel>(u"providerStatus"_s)->text()));
        QVERIFY(!m_providers->find(u"Bad Name"_s));

        fillNewProvider(u"openai"_s, u"http://127.0.0.1:1/v1"_s, QString());
        QVERIFY(child<QLabel>(u"providerStatus"_s)->text().contains("built-in"_L1));

        fillNewProvider(u"nourl"_s, u"ftp://example.com"_s, QString());
        QVERIFY(child<QLabel>(u"providerStatus"_s)->text().contains("http"_L1));
        QVERIFY(!m_providers->find(u"nourl"_s));
    }

    void removeProvider_dropsItFromListRegistryAndSettings()
    {
        fillNewProvider(u"temp"_s, u"http://127.0.0.1:9/v1"_s, QString());
        QVERIFY(m_providers->find(u"temp"_s));
        QListWidget *list = child<QListWidget>(u"providerList"_s);
        list->setCurrentItem(list->findItems(u"temp"_s, Qt::MatchExactly).first());
        QVERIFY(child<QPushButton>(u"removeProvider"_s)->isEnabled());
        QTest::mouseClick(child<QPushButton>(u"removeProvider"_s), Qt::LeftButton);
        QVERIFY(!m_providers->find(u"temp"_s));
        QVERIFY(list->findItems(u"temp"_s, Qt::MatchExactly).isEmpty());
        QSettings settings(AppSettings::filePath(), QSettings::IniFormat);
        QCOMPARE(settings.beginReadArray(u"llm/providers"_s), 0);
        settings.endArray();
    }
};

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    if (!LocalRuntime::isInstalled()) {
        return sf::test::skipAll(LocalRuntime::missingReason());
    }
    TestProvidersPage test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_providers_page.moc"
