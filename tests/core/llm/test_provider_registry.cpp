#include "SkippedChecks.h"
#include "common/Secrets.h"
#include "llm/ProviderRegistry.h"

#include <QStandardPaths>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

constexpr const char *providerVariables[] = {
    "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY", "OPENAI_BASE_URL",  "OPENAI_API_KEY",
    "HF_TOKEN",           "OLLAMA_HOST",       "GENERIC_BASE_URL", "GENERIC_API_KEY",
};

class FixedKeyStore final : public ApiKeyStore
{
public:
    QString apiKey(const ProviderConfig &provider) const override { return u"key-for-"_s + provider.name; }
    QString whereToSet(const ProviderConfig &) const override { return u"the keychain"_s; }
};

} // namespace

class TestProviderRegistry final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        for (const char *name : providerVariables) {
            qunsetenv(name);
        }
    }

    void builtins_withoutEnvironment_useDocumentedDefaults()
    {
        const ProviderRegistry registry;
        QCOMPARE(registry.names(),
                 QStringList({u"anthropic"_s, u"openai"_s, u"hf"_s, u"ollama"_s, u"generic"_s, u"local"_s}));
        QCOMPARE(registry.find(u"anthropic"_s)->baseUrl, QUrl(u"https://api.anthropic.com"_s));
        QCOMPARE(registry.find(u"anthropic"_s)->format, WireFormat::AnthropicMessages);
        QCOMPARE(registry.find(u"openai"_s)->baseUrl, QUrl(u"https://api.openai.com/v1"_s));
        QCOMPARE(registry.find(u"hf"_s)->baseUrl, QUrl(u"https://router.huggingface.co/v1"_s));
        QCOMPARE(registry.find(u"hf"_s)->apiKeyEnv, u"HF_TOKEN"_s);
        QCOMPARE(registry.find(u"ollama"_s)->baseUrl, QUrl(u"http://127.0.0.1:11434/v1"_s));
        QCOMPARE(registry.find(u"ollama"_s)->listStyle, ModelListStyle::OllamaTags);
        QVERIFY(registry.find(u"generic"_s)->baseUrl.isEmpty());
        QVERIFY(registry.find(u"local"_s)->baseUrl.isEmpty());
        QVERIFY(!registry.find(u"local"_s)->apiKeyRequired);
        QCOMPARE(registry.find(u"nope"_s), nullptr);
    }

    void baseUrls_fromEnvironment_dropTrailingSlash()
    {
        qputenv("ANTHROPIC_BASE_URL", "http://proxy.internal:8080/anthropic/");
        qputenv("OPENAI_BASE_URL", "https://gateway.example/openai/v1/");
        qputenv("GENERIC_BASE_URL", "http://10.0.0.5:8000/v1");
        const ProviderRegistry registry;
        QCOMPARE(registry.find(u"anthropic"_s)->baseUrl, QUrl(u"http://proxy.internal:8080/anthropic"_s));
        QCOMPARE(registry.find(u"openai"_s)->baseUrl, QUrl(u"https://gateway.example/openai/v1"_s));
        QCOMPARE(registry.find(u"generic"_s)->baseUrl, QUrl(u"http://10.0.0.5:8000/v1"_s));
    }

    void ollamaHost_withoutSchemeOrPort_isCompleted_data()
    {
        QTest::addColumn<QByteArray>("host");
        QTest::addColumn<QString>("expected");
        QTest::newRow("host only") << QByteArray("192.168.1.9") << u"http://192.168.1.9:11434/v1"_s;
        QTest::newRow("host and port") << QByteArray("0.0.0.0:9999") << u"http://0.0.0.0:9999/v1"_s;
        QTest::newRow("full url") << QByteArray("https://ollama.example") << u"https://ollama.example/v1"_s;
    }

    void ollamaHost_withoutSchemeOrPort_isCompleted()
    {
        QFETCH(QByteArray, host);
        QFETCH(QString, expected);
        qputenv("OLLAMA_HOST", host);
        QCOMPARE(ProviderRegistry().find(u"ollama"_s)->baseUrl, QUrl(expected));
    }

    void apiKey_readsTheProvidersVariable()
    {
        qputenv("OPENAI_API_KEY", "  sk-test-123456789  ");
        const ProviderRegistry registry;
        QCOMPARE(registry.apiKey(u"openai"_s), u"sk-test-123456789"_s);
        QVERIFY(registry.apiKey(u"anthropic"_s).isEmpty());
        QVERIFY(registry.apiKey(u"ollama"_s).isEmpty());
    }

    void missingKeyMessage_namesTheVariable()
    {
        const ProviderRegistry registry;
        const QString message = registry.missingKeyMessage(*registry.find(u"hf"_s));
        QVERIFY2(message.contains("HF_TOKEN"_L1), qPrintable(message));
        QVERIFY(message.contains("'hf'"_L1));
    }

    void customKeyStore_replacesTheEnvironment()
    {
        qputenv("OPENAI_API_KEY", "from-env");
        const ProviderRegistry registry(std::make_unique<FixedKeyStore>());
        QCOMPARE(registry.apiKey(u"openai"_s), u"key-for-openai"_s);
        QVERIFY(registry.missingKeyMessage(*registry.find(u"openai"_s)).contains("the keychain"_L1));
    }

    void add_sameName_replacesProvider()
    {
        ProviderRegistry registry;
        ProviderConfig together;
        together.name = u"together"_s;
        together.baseUrl = QUrl(u"https://api.together.xyz/v1"_s);
        together.apiKeyEnv = u"TOGETHER_API_KEY"_s;
        registry.add(together);
        QVERIFY(registry.names().contains(u"together"_s));

        ProviderConfig local = *registry.find(u"local"_s);
        local.baseUrl = QUrl(u"http://127.0.0.1:4242/v1"_s);
        registry.add(local);
        QCOMPARE(registry.names().count(u"local"_s), 1);
        QCOMPARE(registry.find(u"local"_s)->baseUrl.port(), 4242);
    }

    void redactSecret_keepsVendorPrefixAndLastFour()
    {
        QCOMPARE(redactSecret(u"sk-abcdef0123456789a1b2"_s), u"sk-\u2026a1b2"_s);
        QCOMPARE(redactSecret(u"hf_AbCdEfGhIjKlMnOp9z8y"_s), u"hf_\u2026"_s + u"9z8y"_s);
        QCOMPARE(redactSecret(u"sk-ant-api03-LongSecretValue-wxyz"_s), u"sk-\u2026wxyz"_s);
        QCOMPARE(redactSecret(u"0123456789abcdefXYZW"_s), u"\u2026XYZW"_s);
    }

    void redactSecret_shortSecret_revealsNothing()
    {
        QCOMPARE(redactSecret(u"sk-12345"_s), u"\u2026"_s);
        QCOMPARE(redactSecret(QString()), u"\u2026"_s);
    }
};

SF_TEST_GUILESS_MAIN(TestProviderRegistry)
#include "test_provider_registry.moc"
