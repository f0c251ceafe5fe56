#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "llm/HttpEngine.h"
#include "llm/ModelLister.h"
#include "llm/ProviderRegistry.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <memory>

using namespace sf;
using namespace sf::test;
using namespace Qt::StringLiterals;

class TestModelLister final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ScriptedHttpServer> m_server;
    std::unique_ptr<HttpEngine> m_engine;

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_server = std::make_unique<ScriptedHttpServer>();
        QVERIFY(m_server->listen());
        const QByteArray base = m_server->baseUrl().toEncoded();
        qputenv("OPENAI_BASE_URL", base + "/v1");
        qputenv("OPENAI_API_KEY", "sk-test-lister-0001");
        qputenv("ANTHROPIC_BASE_URL", base);
        qputenv("ANTHROPIC_API_KEY", "sk-ant-lister-0002");
        qputenv("OLLAMA_HOST", base);
        m_engine = std::make_unique<HttpEngine>();
    }

    void cleanup()
    {
        m_engine.reset();
        m_server.reset();
    }

    void openAiCompatible_listsDataIds_withBearerKey()
    {
        m_server->route("GET", "/v1/models",
                        ScriptedResponse::json(200, R"({"object":"list","data":[{"id":"gpt-4.1"},{"id":"o3-mini"}]})"));
        ProviderRegistry providers;
        ModelLister lister(*m_engine, providers);
        std::unique_ptr<ModelListCall> call(lister.list(u"openai"_s));
        QSignalSpy finished(call.get(), &ModelListCall::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
        QCOMPARE(finished.first().first().toStringList(), QStringList({u"gpt-4.1"_s, u"o3-mini"_s}));
        QCOMPARE(m_server->requests().first().header("Authorization"), QByteArray("Bearer sk-test-lister-0001"));
    }

    void anthropic_listsV1Models_withApiKeyHeader()
    {
        m_server->route(
            "GET", "/v1/models",
            ScriptedResponse::json(200, R"({"data":[{"type":"model","id":"claude-opus-4-5"}],"has_more":false})"));
        ProviderRegistry providers;
        ModelLister lister(*m_engine, providers);
        std::unique_ptr<ModelListCall> call(lister.list(u"anthropic"_s));
        QSignalSpy finished(call.get(), &ModelListCall::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
        QCOMPARE(finished.first().first().toStringList(), QStringList({u"claude-opus-4-5"_s}));
        QCOMPARE(m_server->requests().first().header("x-api-key"), QByteArray("sk-ant-lister-0002"));
    }

    void ollama_listsApiTagsNames()
    {
        m_server->route("GET", "/api/tags", ScriptedResponse::json(200, R"({"models":[
            {"name":"qwen3-coder:latest","model":"qwen3-coder:latest","size":123},
            {"name":"gemma3:270m","model":"gemma3:270m","size":456}]})"));
        ProviderRegistry providers;
        ModelLister lister(*m_engine, providers);
        std::unique_ptr<ModelListCall> call(lister.list(u"ollama"_s));
        QSignalSpy finished(call.get(), &ModelListCall::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
        QCOMPARE(finished.first().first().toStringList(), QStringList({u"qwen3-coder:latest"_s, u"gemma3:270m"_s}));
        QCOMPARE(m_server->requests().first().path, QByteArray("/api/tags"));
    }

    void httpError_failsWithProviderMessage()
    {
        m_server->route("GET", "/v1/models", ScriptedResponse::json(401, R"({"error":{"message":"Invalid token"}})"));
        ProviderRegistry providers;
        ModelLister lister(*m_engine, providers);
        std::unique_ptr<ModelListCall> call(lister.list(u"openai"_s));
        QSignalSpy failed(call.get(), &ModelListCall::failed);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
        QCOMPARE(failed.first().first().toString(), u"HTTP 401: Invalid token"_s);
    }

    void missingKey_failsWithoutSending()
    {
        qunsetenv("OPENAI_API_KEY");
        ProviderRegistry providers;
        ModelLister lister(*m_engine, providers);
        std::unique_ptr<ModelListCall> call(lister.list(u"openai"_s));
        QSignalSpy failed(call.get(), &ModelListCall::failed);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 5000);
        QVERIFY(failed.first().first().toString().contains("OPENAI_API_KEY"_L1));
        QCOMPARE(m_server->requests().size(), 0);
    }

    void parseOllamaTags_malformed_isAnError()
    {
        QVERIFY(!ModelLister::parseOllamaTags(R"({"tags":[]})").ok());
        QVERIFY(!ModelLister::parseOllamaTags("not json").ok());
    }
};

SF_TEST_GUILESS_MAIN(TestModelLister)
#include "test_model_lister.moc"
