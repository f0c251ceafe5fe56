// The real Claude Code and Codex binaries complete a prompt through the door, against a scripted upstream.
// Found through SKILLFORGE_CLAUDE_CODE_CLI and SKILLFORGE_CODEX_CLI; skipped (77) when those are not set.
#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "agents/ModelDoor.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace sf;
using namespace sf::test;
using namespace Qt::StringLiterals;

namespace {

const QByteArray realKey = "sk-door-cli-test-real-key-4Rw9";
const char *const keyVariable = "SF_DOOR_CLI_TEST_KEY";

QByteArray event(const QByteArray &name, const QJsonObject &data)
{
    return "event: " + name + "\ndata: " + QJsonDocument(data).toJson(QJsonDocument::Compact) + "\n\n";
}

/**
 * The smallest Messages stream Claude Code takes as a reply: every event named by an `event:` line (without them
 * it reports "an empty or malformed response"), the text in a text_delta (text put in content_block_start is not
 * shown), usage in message_start and message_delta.
 */
ScriptedResponse messagesReply(const RecordedRequest &request)
{
    const QString model = QJsonDocument::fromJson(request.body).object().value("model"_L1).toString();
    const QJsonObject message{{"id"_L1, "msg_door"_L1},
                              {"type"_L1, "message"_L1},
                              {"role"_L1, "assistant"_L1},
                              {"model"_L1, model},
                              {"content"_L1, QJsonArray()},
                              {"stop_reason"_L1, QJsonValue::Null},
                              {"stop_sequence"_L1, QJsonValue::Null},
                              {"usage"_L1, QJsonObject{{"input_tokens"_L1, 10},
                                                       {"cache_read_input_tokens"_L1, 4},
                                                       {"cache_creation_input_tokens"_L1, 0},
                                                       {"output_tokens"_L1, 1}}}};
    const QByteArray stream =
        event("message_start", {{"type"_L1, "message_start"_L1}, {"message"_L1, message}}) +
        event("content_block_start", {{"type"_L1, "content_block_start"_L1},
                                      {"index"_L1, 0},
                                      {"content_block"_L1, QJsonObject{{"type"_L1, "text"_L1}, {"text"_L1, ""_L1}}}}) +
        event("content_block_delta",
              {{"type"_L1, "content_block_delta"_L1},
               {"index"_L1, 0},
               {"delta"_L1, QJsonObject{{"type"_L1, "text_delta"_L1}, {"text"_L1, "PONG"_L1}}}}) +
        event("content_block_stop", {{"type"_L1, "content_block_stop"_L1}, {"index"_L1, 0}}) +
        event("message_delta", {{"type"_L1, "message_delta"_L1},
                                {"delta"_L1, QJsonObject{{"stop_reason"_L1, "end_turn"_L1}}},
                                {"usage"_L1, QJsonObject{{"output_tokens"_L1, 2}}}}) +
        event("message_stop", {{"type"_L1, "message_stop"_L1}});
    return ScriptedResponse::streamed({stream}, 0);
}

/**
 * The smallest Responses stream Codex takes as a reply: the message as a `response.output_item.done` item and a
 * final `response.completed` with usage (without it Codex reconnects, five times). Codex reads each event's JSON
 * `type`; `event:` lines are optional.
 */
ScriptedResponse responsesReply(const RecordedRequest &)
{
    const QJsonObject item{
        {"id"_L1, "msg_door"_L1},
        {"type"_L1, "message"_L1},
        {"role"_L1, "assistant"_L1},
        {"content"_L1, QJsonArray{QJsonObject{{"type"_L1, "output_text"_L1}, {"text"_L1, "PONG"_L1}}}}};
    const QJsonObject usage{{"input_tokens"_L1, 10},
                            {"input_tokens_details"_L1, QJsonObject{{"cached_tokens"_L1, 4}}},
                            {"output_tokens"_L1, 2},
                            {"output_tokens_details"_L1, QJsonObject{{"reasoning_tokens"_L1, 0}}},
                            {"total_tokens"_L1, 12}};
    const QByteArray stream =
        event("response.output_item.done",
              {{"type"_L1, "response.output_item.done"_L1}, {"output_index"_L1, 0}, {"item"_L1, item}}) +
        event("response.completed", {{"type"_L1, "response.completed"_L1},
                                     {"response"_L1, QJsonObject{{"id"_L1, "resp_door"_L1}, {"usage"_L1, usage}}}});
    return ScriptedResponse::streamed({stream}, 0);
}

/** Nothing of the user's: the system's PATH and a private HOME. */
QProcessEnvironment privateEnvironment(const QTemporaryDir &home)
{
    QProcessEnvironment environment;
    environment.insert(u"PATH"_s, u"/usr/bin:/bin"_s);
    environment.insert(u"HOME"_s, home.path());
    return environment;
}

QString cliFromEnvironment(const char *variable)
{
    const QString path = qEnvironmentVariable(variable);
    return !path.isEmpty() && QFileInfo(path).isExecutable() ? path : QString();
}

} // namespace

class TestModelDoorClis final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ScriptedHttpServer> m_upstream;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;

    /** Runs `program` to its end while the event loop serves the door; its stdout, or empty on a failure. */
    QByteArray run(const QString &program, const QStringList &arguments, const QProcessEnvironment &environment,
                   const QString &workingDirectory)
    {
        QProcess process;
        process.setProgram(program);
        process.setArguments(arguments);
        process.setProcessEnvironment(environment);
        process.setWorkingDirectory(workingDirectory);
        QSignalSpy finished(&process, &QProcess::finished);
        process.start();
        process.closeWriteChannel(); // Codex reads a prompt from stdin too, until it ends
        [&] { QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000); }();
        if (finished.isEmpty()) {
            process.kill();
            process.waitForFinished(5000);
            return {};
        }
        const QByteArray errors = process.readAllStandardError();
        if (process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
            qWarning().noquote() << "exit" << process.exitCode() << QString::fromUtf8(errors.right(2000));
            return {};
        }
        return process.readAllStandardOutput();
    }

    void checkRecords(const ModelDoor &door)
    {
        QVERIFY(!door.records().isEmpty());
        for (const DoorRequestRecord &record : door.records()) {
            QCOMPARE(record.status, 200);
            QVERIFY2(record.error.isEmpty(), qPrintable(record.error));
        }
        for (const RecordedRequest &request : m_upstream->requests()) {
            QVERIFY(!request.body.contains("dummy"));
            QVERIFY(request.header("x-api-key") == realKey || request.header("Authorization") == "Bearer " + realKey);
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv(keyVariable, realKey);
    }

    void init()
    {
        m_upstream = std::make_unique<ScriptedHttpServer>();
        QVERIFY(m_upstream->listen());
        m_upstream->routeHandler("POST", "/v1/messages", messagesReply);
        m_upstream->routeHandler("POST", "/v1/responses", responsesReply);
        m_engine = std::make_unique<HttpEngine>();
        m_providers = std::make_unique<ProviderRegistry>();
        ProviderConfig anthropic;
        anthropic.name = u"scripted"_s;
        anthropic.format = WireFormat::AnthropicMessages;
        anthropic.baseUrl = m_upstream->baseUrl();
        anthropic.apiKeyEnv = QString::fromLatin1(keyVariable);
        m_providers->add(anthropic);
        ProviderConfig openAi = anthropic;
        openAi.name = u"scripted-oai"_s;
        openAi.format = WireFormat::OpenAiChat;
        openAi.baseUrl.setPath(u"/v1"_s);
        m_providers->add(openAi);
    }

    void cleanup()
    {
        m_engine.reset();
        m_upstream.reset();
        m_providers.reset();
    }

    void claudeCode_completesAPromptThroughTheDoor_tokensAgree()
    {
        const QString claude = cliFromEnvironment("SKILLFORGE_CLAUDE_CODE_CLI");
        if (claude.isEmpty()) {
            QSKIP("SKILLFORGE_CLAUDE_CODE_CLI does not name an executable Claude Code binary");
        }
        DoorLimits limits;
        limits.maxOutputTokens = 2000;
        ModelDoor door(*m_engine, *m_providers, nullptr, u"scripted:claude-sonnet-4-5"_s, limits);
        QVERIFY2(door.listenOnTcp(), qPrintable(door.errorString()));
        QTemporaryDir home;
        QVERIFY(home.isValid() && QDir(home.path()).mkpath(u"workspace"_s));
        QProcessEnvironment environment = privateEnvironment(home);
        environment.insert(u"CLAUDE_CONFIG_DIR"_s, home.filePath(u"claude"_s));
        environment.insert(u"ANTHROPIC_BASE_URL"_s, door.tcpBaseUrl().toString());
        environment.insert(u"ANTHROPIC_API_KEY"_s, u"dummy"_s);
        environment.insert(u"DISABLE_TELEMETRY"_s, u"1"_s);
        environment.insert(u"DISABLE_AUTOUPDATER"_s, u"1"_s);
        environment.insert(u"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC"_s, u"1"_s);

        const QByteArray output = run(claude, {u"-p"_s, u"Say pong"_s, u"--output-format"_s, u"json"_s}, environment,
                                      home.filePath(u"workspace"_s));

        const QJsonObject result = QJsonDocument::fromJson(output).object();
        QCOMPARE(result.value("result"_L1).toString(), u"PONG"_s);
        QCOMPARE(result.value("is_error"_L1).toBool(), false);
        checkRecords(door);
        const QJsonObject sent = QJsonDocument::fromJson(m_upstream->requests().first().body).object();
        QCOMPARE(sent.value("model"_L1).toString(), u"claude-sonnet-4-5"_s);
        QCOMPARE(sent.value("max_tokens"_L1).toInt(), 2000); // Claude Code asked for 32,000
        // What Claude Code counted is what the door recorded.
        const QJsonObject usage = result.value("usage"_L1).toObject();
        QCOMPARE(usage.value("input_tokens"_L1).toInteger(), door.totalUsage().uncachedInput);
        QCOMPARE(usage.value("cache_read_input_tokens"_L1).toInteger(), door.totalUsage().cacheRead);
        QCOMPARE(usage.value("output_tokens"_L1).toInteger(), door.totalUsage().output);
    }

    void codex_completesAPromptThroughTheDoor()
    {
        const QString codex = cliFromEnvironment("SKILLFORGE_CODEX_CLI");
        if (codex.isEmpty()) {
            QSKIP("SKILLFORGE_CODEX_CLI does not name an executable Codex binary");
        }
        DoorLimits limits;
        limits.maxOutputTokens = 2000;
        ModelDoor door(*m_engine, *m_providers, nullptr, u"scripted-oai:gpt-5-codex"_s, limits);
        QVERIFY2(door.listenOnTcp(), qPrintable(door.errorString()));
        QTemporaryDir home;
        QVERIFY(home.isValid() && QDir(home.path()).mkpath(u"workspace"_s) && QDir(home.path()).mkpath(u"codex"_s));
        QProcessEnvironment environment = privateEnvironment(home);
        environment.insert(u"CODEX_HOME"_s, home.filePath(u"codex"_s));
        environment.insert(u"SF_DOOR_KEY"_s, u"dummy"_s);
        const QString provider = u"model_providers.door={name=\"door\", base_url=\"%1/v1\", wire_api=\"responses\", "
                                 u"env_key=\"SF_DOOR_KEY\"}"_s.arg(door.tcpBaseUrl().toString());

        const QByteArray output = run(codex,
                                      {u"exec"_s, u"--skip-git-repo-check"_s, u"-c"_s, u"model_provider=door"_s,
                                       u"-c"_s, provider, u"-m"_s, u"gpt-5-codex"_s, u"Say pong"_s},
                                      environment, home.filePath(u"workspace"_s));

        QCOMPARE(output.trimmed(), QByteArray("PONG"));
        checkRecords(door);
        const QJsonObject sent = QJsonDocument::fromJson(m_upstream->requests().first().body).object();
        QCOMPARE(sent.value("max_output_tokens"_L1).toInt(), 2000); // Codex asks for none
        QCOMPARE(door.totalUsage().uncachedInput, 6);
        QCOMPARE(door.totalUsage().cacheRead, 4);
        QCOMPARE(door.totalUsage().output, 2);
    }
};

SF_TEST_GUILESS_MAIN(TestModelDoorClis)
#include "test_model_door_clis.moc"
