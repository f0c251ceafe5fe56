#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "llm/LocalRuntime.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sf::test;

namespace {

struct Result
{
    int exitCode = -1;
    QString out;
    QString err;
};

} // namespace

class TestCli : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home;

    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "HF_TOKEN", "GENERIC_API_KEY", "GENERIC_BASE_URL",
                                 "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "OLLAMA_HOST"})
            env.remove(QString::fromLatin1(name));
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.filePath(QStringLiteral("data")));
        // The local runtime lives in the real user's cache; keep pointing at it.
        env.insert(QStringLiteral("SKILLFORGE_LLAMA_SERVER"), sf::LocalRuntime::llamaServerPath());
        env.insert(QStringLiteral("SKILLFORGE_LOCAL_MODEL"), sf::LocalRuntime::modelPath());
        return env;
    }

    // Runs the CLI while this test's event loop keeps serving the scripted server.
    Result run(const QStringList &arguments, const QProcessEnvironment &env, int timeoutMs = 60000)
    {
        QProcess process;
        process.setProcessEnvironment(env);
        QSignalSpy finished(&process, &QProcess::finished);
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE), arguments);
        if (!finished.wait(timeoutMs)) {
            process.kill();
            process.waitForFinished();
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }
    Result run(const QStringList &arguments) { return run(arguments, environment()); }

private Q_SLOTS:
    void version_printsTheVersion()
    {
        const Result r = run({QStringLiteral("--version")});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.trimmed(), QStringLiteral("skillforge " SKILLFORGE_VERSION));
    }

    void help_listsEveryCommandAndEachHasItsOwnHelp()
    {
        const Result r = run({QStringLiteral("--help")});
        QCOMPARE(r.exitCode, 0);
        for (const QString &command : {QStringLiteral("gui"), QStringLiteral("models list"), QStringLiteral("chat")}) {
            QVERIFY2(r.out.contains(QStringLiteral("  ") + command + u' '), qPrintable(command));
            const Result own = run(command.split(u' ') + QStringList{QStringLiteral("--help")});
            QCOMPARE(own.exitCode, 0);
            QVERIFY2(own.out.startsWith(QStringLiteral("Usage: skillforge ") + command), qPrintable(own.out));
        }
    }

    void unknownCommand_isBadUsage()
    {
        const Result r = run({QStringLiteral("frobnicate")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("'frobnicate'")));
    }

    void chat_withoutModel_isBadUsage()
    {
        const Result r = run({QStringLiteral("chat"), QStringLiteral("hello")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("--model")));
    }

    void chat_missingKey_failsNamingTheVariable()
    {
        const Result r = run({QStringLiteral("chat"), QStringLiteral("--model"), QStringLiteral("openai:gpt-4.1"),
                              QStringLiteral("hello")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("OPENAI_API_KEY")), qPrintable(r.err));
    }

    void chat_genericProvider_sendsKeyAndPrintsReplyAndUsage()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        server.route("POST", "/v1/chat/completions",
                     ScriptedResponse::json(200, R"({"id":"c1","object":"chat.completion","model":"tiny",
                        "choices":[{"index":0,"message":{"role":"assistant","content":"A kernel is a GPU function."},
                        "finish_reason":"stop"}],
                        "usage":{"prompt_tokens":21,"completion_tokens":7,"total_tokens":28}})"));
        QProcessEnvironment env = environment();
        env.insert(QStringLiteral("GENERIC_BASE_URL"), server.baseUrl().toString() + QStringLiteral("/v1"));
        env.insert(QStringLiteral("GENERIC_API_KEY"), QStringLiteral("sk-test-secret-1234"));
        const Result r = run({QStringLiteral("chat"), QStringLiteral("--model"), QStringLiteral("generic:tiny"),
                              QStringLiteral("--json"), QStringLiteral("What is a kernel?")},
                             env);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject reply = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(reply.value(QStringLiteral("text")).toString(), QStringLiteral("A kernel is a GPU function."));
        QCOMPARE(reply.value(QStringLiteral("usage")).toObject().value(QStringLiteral("output")).toInt(), 7);
        QCOMPARE(reply.value(QStringLiteral("usage")).toObject().value(QStringLiteral("uncached_input")).toInt(), 21);
        QCOMPARE(server.requests().size(), 1);
        QCOMPARE(server.requests().first().header("authorization"), QByteArrayLiteral("Bearer sk-test-secret-1234"));
        const QJsonObject sent = QJsonDocument::fromJson(server.requests().first().body).object();
        QCOMPARE(sent.value(QStringLiteral("model")).toString(), QStringLiteral("tiny"));
        // The key never appears in what the CLI prints.
        QVERIFY(!r.out.contains(QStringLiteral("sk-test-secret")) && !r.err.contains(QStringLiteral("sk-test-secret")));
    }

    void chat_providerError_passesTheMessageThrough()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        server.route("POST", "/v1/chat/completions",
                     ScriptedResponse::json(401, R"({"error":{"message":"Invalid API key provided"}})"));
        QProcessEnvironment env = environment();
        env.insert(QStringLiteral("GENERIC_BASE_URL"), server.baseUrl().toString() + QStringLiteral("/v1"));
        env.insert(QStringLiteral("GENERIC_API_KEY"), QStringLiteral("wrong"));
        const Result r = run({QStringLiteral("chat"), QStringLiteral("--model"), QStringLiteral("generic:tiny"),
                              QStringLiteral("hi")},
                             env);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("401")) && r.err.contains(QStringLiteral("Invalid API key provided")),
                 qPrintable(r.err));
    }

    void modelsList_genericProvider_listsServedModels()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        server.route("GET", "/v1/models",
                     ScriptedResponse::json(200, R"({"object":"list","data":[{"id":"tiny"},{"id":"small"}]})"));
        QProcessEnvironment env = environment();
        env.insert(QStringLiteral("GENERIC_BASE_URL"), server.baseUrl().toString() + QStringLiteral("/v1"));
        const Result r = run({QStringLiteral("models"), QStringLiteral("list"), QStringLiteral("--provider"),
                              QStringLiteral("generic")},
                             env);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out, QStringLiteral("generic:tiny\ngeneric:small\n"));
    }

    void modelsList_json_saysWhetherAKeyIsPresent_neverTheKey()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        server.route("GET", "/v1/models", ScriptedResponse::json(200, R"({"object":"list","data":[{"id":"tiny"}]})"));
        QProcessEnvironment env = environment();
        env.insert(QStringLiteral("GENERIC_BASE_URL"), server.baseUrl().toString() + QStringLiteral("/v1"));
        env.insert(QStringLiteral("GENERIC_API_KEY"), QStringLiteral("sk-generic-secret-9876"));
        const Result r = run({QStringLiteral("models"), QStringLiteral("list"), QStringLiteral("--provider"),
                              QStringLiteral("generic"), QStringLiteral("--json")},
                             env);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject generic = QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("generic")).toObject();
        QCOMPARE(generic.value(QStringLiteral("key")).toString(), QStringLiteral("present"));
        QCOMPARE(generic.value(QStringLiteral("models")).toArray().first().toString(), QStringLiteral("tiny"));
        QVERIFY(!r.out.contains(QStringLiteral("9876")));

        env.remove(QStringLiteral("GENERIC_API_KEY"));
        const Result without = run({QStringLiteral("models"), QStringLiteral("list"), QStringLiteral("--provider"),
                                    QStringLiteral("generic"), QStringLiteral("--json")},
                                   env);
        QCOMPARE(QJsonDocument::fromJson(without.out.toUtf8()).object().value(QStringLiteral("generic")).toObject()
                     .value(QStringLiteral("key")).toString(),
                 QStringLiteral("not needed"));
    }

    void chat_streamsTheReplyToStdout_andUsageCostLatencyToStderr()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        server.route(
            "POST", "/v1/chat/completions",
            ScriptedResponse::streamed(
                {"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"A kernel \"}}]}\n\n",
                 "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"runs on the "
                 "GPU.\"},\"finish_reason\":\"stop\"}]}\n\n",
                 "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":21,\"completion_tokens\":7}}\n\ndata: [DONE]\n\n"},
                10));
        QProcessEnvironment env = environment();
        env.insert(QStringLiteral("GENERIC_BASE_URL"), server.baseUrl().toString() + QStringLiteral("/v1"));
        const Result r = run({QStringLiteral("chat"), QStringLiteral("--model"), QStringLiteral("generic:tiny"),
                              QStringLiteral("--system"), QStringLiteral("Be brief."), QStringLiteral("--max-tokens"),
                              QStringLiteral("20"), QStringLiteral("What is a kernel?")},
                             env);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QCOMPARE(r.out, QStringLiteral("A kernel runs on the GPU.\n"));
        QVERIFY2(r.err.contains(QStringLiteral("21 input + 7 output tokens")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("no price for generic:tiny")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral(" ms")), qPrintable(r.err));
        const QJsonObject sent = QJsonDocument::fromJson(server.requests().first().body).object();
        QCOMPARE(sent.value(QStringLiteral("stream")).toBool(), true);
        QCOMPARE(sent.value(QStringLiteral("max_tokens")).toInt(), 20);
    }

    // The real thing: the embedded llama.cpp server, started on first use by the CLI itself.
    void chat_localModel_realServerReplies()
    {
        // scripts/test installs the runtime, so its absence is a setup failure, not a reason to skip.
        QVERIFY2(sf::LocalRuntime::isInstalled(), qPrintable(sf::LocalRuntime::missingReason()));
        const Result r = run({QStringLiteral("chat"), QStringLiteral("--model"), sf::LocalRuntime::qualifiedModelName(),
                              QStringLiteral("--max-tokens"), QStringLiteral("48"), QStringLiteral("--temperature"),
                              QStringLiteral("0"), QStringLiteral("--json"),
                              QStringLiteral("Name one use of a GPU in one short sentence.")},
                             environment(), 240000);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject reply = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QVERIFY(!reply.value(QStringLiteral("text")).toString().trimmed().isEmpty());
        QVERIFY(reply.value(QStringLiteral("usage")).toObject().value(QStringLiteral("output")).toInt() > 0);
        QVERIFY(reply.value(QStringLiteral("usage")).toObject().value(QStringLiteral("uncached_input")).toInt() > 0);
    }
};

SF_TEST_GUILESS_MAIN(TestCli)
#include "test_cli.moc"
