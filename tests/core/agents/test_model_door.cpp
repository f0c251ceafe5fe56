#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "agents/DoorHttp.h"
#include "agents/DoorWire.h"
#include "agents/ModelDoor.h"
#include "llm/HttpEngine.h"
#include "llm/HttpReply.h"
#include "llm/LocalModelServer.h"
#include "llm/ProviderRegistry.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocalSocket>
#include <QLoggingCategory>
#include <QMutex>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace sf;
using namespace sf::test;
using namespace Qt::StringLiterals;

namespace {

const QByteArray realKey = "sk-door-test-real-key-7Yq2";
const char *const keyVariable = "SF_DOOR_TEST_KEY";

QByteArray event(const QByteArray &name, const QByteArray &data)
{
    return "event: " + name + "\ndata: " + data + "\n\n";
}

/** An Anthropic stream whose second message_delta repeats the output count cumulatively (45, not 30 + 45). */
QByteArray messagesStream()
{
    return event("message_start",
                 R"({"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant",)"
                 R"("model":"claude-upstream-9","content":[],"stop_reason":null,"stop_sequence":null,)"
                 R"("usage":{"input_tokens":100,"cache_read_input_tokens":50,"cache_creation_input_tokens":20,)"
                 R"("output_tokens":1}}})") +
           event("content_block_start",
                 R"({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}})") +
           event("content_block_delta",
                 R"({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hé, PONG"}})") +
           event("message_delta",
                 R"({"type":"message_delta","delta":{"stop_reason":null},"usage":{"output_tokens":30}})") +
           event("content_block_stop", R"({"type":"content_block_stop","index":0})") +
           event("message_delta",
                 R"({"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":45}})") +
           event("message_stop", R"({"type":"message_stop"})");
}

QByteArray responsesStream()
{
    return event("response.created",
                 R"({"type":"response.created","response":{"id":"resp_1","model":"gpt-upstream","output":[]}})") +
           event("response.output_item.done",
                 R"({"type":"response.output_item.done","output_index":0,"item":{"id":"m1","type":"message",)"
                 R"("role":"assistant","content":[{"type":"output_text","text":"PONG"}]}})") +
           event(
               "response.completed",
               R"({"type":"response.completed","response":{"id":"resp_1","model":"gpt-upstream","status":"completed",)"
               R"("usage":{"input_tokens":120,"input_tokens_details":{"cached_tokens":100},"output_tokens":7,)"
               R"("output_tokens_details":{"reasoning_tokens":3},"total_tokens":127}}})");
}

QList<QByteArray> piecesOf(const QByteArray &bytes, qsizetype size)
{
    QList<QByteArray> pieces;
    for (qsizetype at = 0; at < bytes.size(); at += size) {
        pieces.append(bytes.mid(at, size));
    }
    return pieces;
}

/** The stream in two pieces: its first event (message_start, with the input tokens), then the rest. */
QList<QByteArray> afterFirstEvent(const QByteArray &stream)
{
    const qsizetype end = stream.indexOf("\n\n") + 2;
    return {stream.left(end), stream.mid(end)};
}

QByteArray messagesBody(const QByteArray &extra = {})
{
    return R"({"model":"claude-haiku-4-5","max_tokens":32000,"messages":[{"role":"user","content":"ping"}],"stream":true)" +
           extra + "}";
}

QJsonObject jsonOf(const QByteArray &body)
{
    return QJsonDocument::fromJson(body).object();
}

/** One HTTP response as a raw client read it. */
struct RawResponse
{
    int status = 0;
    HttpHeaders headers;
    QByteArray body;

    QByteArray header(const QByteArray &name) const
    {
        for (const auto &[key, value] : headers) {
            if (key.compare(name, Qt::CaseInsensitive) == 0) {
                return value;
            }
        }
        return {};
    }
};

/**
 * A client that writes raw bytes to the door and reads its answers (Content-Length or chunked), so tests
 * control connections exactly: keep-alive, pipelining, chunked request bodies, Unix sockets.
 */
class RawClient final : public QObject
{
public:
    explicit RawClient(QIODevice *socket)
        : m_socket(socket)
    {
        socket->setParent(this);
        connect(socket, &QIODevice::readyRead, this, [this] {
            m_buffer += m_socket->readAll();
            while (std::optional<RawResponse> response = takeResponse()) {
                responses.append(*response);
            }
        });
    }

    void send(const QByteArray &bytes) { m_socket->write(bytes); }
    QTcpSocket *tcpSocket() const { return qobject_cast<QTcpSocket *>(m_socket); }
    /** The next answer is to a HEAD request: its Content-Length announces a body that is not sent. */
    void expectHeadAnswer() { ++m_headAnswers; }

    QList<RawResponse> responses;

private:
    std::optional<RawResponse> takeResponse()
    {
        const qsizetype headEnd = m_buffer.indexOf("\r\n\r\n");
        if (headEnd < 0) {
            return std::nullopt;
        }
        RawResponse response;
        const QList<QByteArray> lines = m_buffer.left(headEnd).split('\n');
        response.status = lines.first().split(' ').value(1).toInt();
        for (qsizetype i = 1; i < lines.size(); ++i) {
            const qsizetype colon = lines.at(i).indexOf(':');
            response.headers.emplaceBack(lines.at(i).left(colon).trimmed(), lines.at(i).mid(colon + 1).trimmed());
        }
        qsizetype at = headEnd + 4;
        if (response.header("Transfer-Encoding") == "chunked") {
            while (true) {
                const qsizetype lineEnd = m_buffer.indexOf("\r\n", at);
                if (lineEnd < 0) {
                    return std::nullopt;
                }
                const qsizetype size = m_buffer.mid(at, lineEnd - at).toLongLong(nullptr, 16);
                if (m_buffer.size() < lineEnd + 2 + size + 2) {
                    return std::nullopt;
                }
                response.body += m_buffer.mid(lineEnd + 2, size);
                at = lineEnd + 2 + size + 2;
                if (size == 0) {
                    break;
                }
            }
        } else if (m_headAnswers > 0) {
            --m_headAnswers;
        } else {
            const qsizetype length = response.header("Content-Length").toLongLong();
            if (m_buffer.size() < at + length) {
                return std::nullopt;
            }
            response.body = m_buffer.mid(at, length);
            at += length;
        }
        m_buffer.remove(0, at);
        return response;
    }

    QIODevice *m_socket;
    QByteArray m_buffer;
    int m_headAnswers = 0;
};

QByteArray postRequest(const QByteArray &path, const QByteArray &body, const QByteArray &extraHeaders = {})
{
    return "POST " + path + " HTTP/1.1\r\nHost: door\r\nContent-Type: application/json\r\nx-api-key: dummy\r\n" +
           extraHeaders + "Content-Length: " + QByteArray::number(body.size()) + "\r\n\r\n" + body;
}

/** Log lines written while it lives, all categories on, so a test can check what never reaches a log. */
class LogCapture final
{
public:
    LogCapture()
    {
        s_lines.clear();
        QLoggingCategory::setFilterRules(u"*.debug=true"_s);
        m_previous = qInstallMessageHandler(&LogCapture::handle);
    }
    ~LogCapture()
    {
        qInstallMessageHandler(m_previous);
        QLoggingCategory::setFilterRules(QString());
    }
    static QStringList lines()
    {
        const QMutexLocker lock(&s_mutex);
        return s_lines;
    }

private:
    static void handle(QtMsgType, const QMessageLogContext &context, const QString &message)
    {
        const QMutexLocker lock(&s_mutex); // the HTTP engine logs from its own thread
        s_lines.append(QString::fromLatin1(context.category ? context.category : "") + u' ' + message);
    }
    static inline QMutex s_mutex;
    static inline QStringList s_lines;
    QtMessageHandler m_previous = nullptr;
};

/** The fake llama-server behind a door to `local:qwen`, misbehaving on /v1/messages as @p fault says. */
struct FakeLocal
{
    explicit FakeLocal(HttpEngine &engine, const QByteArray &fault)
    {
        qputenv("FAKE_LLAMA_MESSAGES_FAULT", fault); // read by the fake when the door starts it
        LocalModelServer::Options options;
        options.serverPath = QStringLiteral(FAKE_LLAMA_SERVER);
        options.modelPath = QStringLiteral(FAKE_LLAMA_SERVER); // any existing file: the fake never reads it
        options.startupTimeoutMs = 20000;
        server = std::make_unique<LocalModelServer>(engine, options);
    }
    ~FakeLocal()
    {
        server->stop();
        qunsetenv("FAKE_LLAMA_MESSAGES_FAULT");
    }
    std::unique_ptr<LocalModelServer> server;
};

} // namespace

class TestModelDoor final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ScriptedHttpServer> m_upstream;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    QTemporaryDir m_dir;

    /** `scripted` speaks Anthropic Messages at the upstream's root; `scripted-oai` is OpenAI-style under /v1. */
    void addScriptedProviders(const QUrl &base)
    {
        ProviderConfig anthropic;
        anthropic.name = u"scripted"_s;
        anthropic.format = WireFormat::AnthropicMessages;
        anthropic.baseUrl = base;
        anthropic.apiKeyEnv = QString::fromLatin1(keyVariable);
        m_providers->add(anthropic);
        ProviderConfig openAi = anthropic;
        openAi.name = u"scripted-oai"_s;
        openAi.format = WireFormat::OpenAiChat;
        QUrl v1 = base;
        v1.setPath(u"/v1"_s);
        openAi.baseUrl = v1;
        m_providers->add(openAi);
    }

    std::unique_ptr<ModelDoor> openDoor(const QString &model, const DoorLimits &limits = {})
    {
        auto door = std::make_unique<ModelDoor>(*m_engine, *m_providers, nullptr, model, limits);
        if (!door->listenOnTcp()) {
            qWarning().noquote() << door->errorString();
            return nullptr;
        }
        return door;
    }

    /** Sends a request to the door through the project's own HTTP client and waits for the whole answer. */
    HttpResponse call(ModelDoor &door, const QByteArray &path, const QByteArray &body,
                      const HttpHeaders &headers = {{"x-api-key", "dummy"}, {"anthropic-version", "2023-06-01"}})
    {
        HttpRequest request;
        request.url = door.tcpBaseUrl();
        const qsizetype question = path.indexOf('?');
        request.url.setPath(QString::fromLatin1(question < 0 ? path : path.left(question)));
        if (question >= 0) {
            request.url.setQuery(QString::fromLatin1(path.mid(question + 1)));
        }
        request.method = body.isNull() ? QByteArray("GET") : QByteArray("POST");
        request.headers = headers;
        request.headers.emplaceBack("Content-Type", "application/json");
        request.body = body;
        HttpReplyPtr reply(m_engine->send(request));
        QSignalSpy finished(reply.get(), &HttpReply::finished);
        [&] { QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 10000); }();
        return reply->response();
    }

    RawClient *tcpClient(ModelDoor &door, QObject *owner)
    {
        auto *socket = new QTcpSocket;
        auto *client = new RawClient(socket);
        client->setParent(owner);
        socket->connectToHost(QHostAddress::LocalHost, door.tcpPort());
        return client;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        qputenv(keyVariable, realKey);
    }

    void init()
    {
        m_upstream = std::make_unique<ScriptedHttpServer>();
        QVERIFY(m_upstream->listen());
        m_engine = std::make_unique<HttpEngine>();
        m_providers = std::make_unique<ProviderRegistry>();
        addScriptedProviders(m_upstream->baseUrl());
    }

    void cleanup()
    {
        m_engine.reset();
        m_upstream.reset();
        m_providers.reset();
    }

    void requestParser_readsRequestsSplitAnywhere_contentLengthChunkedAndBackToBack()
    {
        const QByteArray bytes = "POST /v1/messages?beta=true HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
                                 "POST /v1/responses HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                                 "3;ext=1\r\nabc\r\n4\r\ndefg\r\n0\r\nX-Trailer: t\r\n\r\n"
                                 "GET /v1/models HTTP/1.1\r\nConnection: close\r\n\r\n";
        DoorRequestParser parser;
        QList<DoorHttpRequest> requests;
        for (const char byte : bytes) {
            parser.append(QByteArray(1, byte));
            while (std::optional<DoorHttpRequest> request = parser.next()) {
                requests.append(*request);
            }
        }
        QVERIFY2(!parser.hasError(), qPrintable(parser.error()));
        QCOMPARE(requests.size(), 3);
        QCOMPARE(requests[0].path, QByteArray("/v1/messages"));
        QCOMPARE(requests[0].query, QByteArray("beta=true"));
        QCOMPARE(requests[0].body, QByteArray("hello"));
        QVERIFY(requests[0].keepAlive);
        QCOMPARE(requests[1].body, QByteArray("abcdefg"));
        QCOMPARE(requests[2].method, QByteArray("GET"));
        QVERIFY(!requests[2].keepAlive);
    }

    void requestParser_malformedRequest_isAnErrorWithItsStatus()
    {
        DoorRequestParser parser;
        parser.append("POST /v1/messages HTTP/1.1\r\nContent-Length: lots\r\n\r\n");
        QVERIFY(!parser.next());
        QCOMPARE(parser.errorStatus(), 400);
        DoorRequestParser gzip;
        gzip.append("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n");
        QVERIFY(!gzip.next());
        QCOMPARE(gzip.errorStatus(), 501);
    }

    void messagesStream_bytesPassThroughUnchanged_usageKeepsLatestCumulativeDelta()
    {
        const QByteArray stream = messagesStream();
        m_upstream->route("POST", "/v1/messages", ScriptedResponse::streamed(piecesOf(stream, 37), 5));
        const auto door = openDoor(u"scripted:claude-item-model"_s);
        QVERIFY(door);
        QSignalSpy finished(door.get(), &ModelDoor::requestFinished);

        const HttpResponse response = call(*door, "/v1/messages?beta=true", messagesBody());

        QCOMPARE(response.status, 200);
        QCOMPARE(response.body, stream);
        QCOMPARE(response.header("Content-Type"), QByteArray("text/event-stream"));
        QCOMPARE(m_upstream->requests().first().target, QByteArray("/v1/messages?beta=true"));
        QTRY_COMPARE(finished.count(), 1);
        const DoorRequestRecord record = door->records().first();
        QCOMPARE(record.path, u"/v1/messages"_s);
        QCOMPARE(record.status, 200);
        QVERIFY(record.streamed);
        QVERIFY2(record.error.isEmpty(), qPrintable(record.error));
        QCOMPARE(record.model, u"claude-upstream-9"_s);
        QCOMPARE(record.requestedModel, u"claude-haiku-4-5"_s);
        QCOMPARE(record.usage.uncachedInput, 100);
        QCOMPARE(record.usage.cacheRead, 50);
        QCOMPARE(record.usage.cacheWrite5m, 20);
        QCOMPARE(record.usage.output, 45);
        QCOMPARE(door->totalTokens(), 215);
        QCOMPARE(finished.first().first().value<DoorRequestRecord>().usage.output, 45);
    }

    void messagesWhole_usageFromTheMessage()
    {
        m_upstream->route("POST", "/v1/messages",
                          ScriptedResponse::json(200, R"({"id":"m","type":"message","role":"assistant","model":"x",)"
                                                      R"("content":[{"type":"text","text":"hi"}],)"
                                                      R"("usage":{"input_tokens":9,"output_tokens":4}})"));
        const auto door = openDoor(u"scripted:claude-item-model"_s);
        QVERIFY(door);
        const HttpResponse response = call(*door, "/v1/messages", R"({"model":"m","max_tokens":10,"messages":[]})");
        QCOMPARE(response.status, 200);
        QCOMPARE(response.header("Content-Type"), QByteArray("application/json"));
        QTRY_COMPARE(door->records().size(), 1);
        QVERIFY(!door->records().first().streamed);
        QCOMPARE(door->records().first().usage.uncachedInput, 9);
        QCOMPARE(door->records().first().usage.output, 4);

        // A provider that ignores "stream": true is answered as it answered, JSON with its own headers.
        const HttpResponse ignored = call(*door, "/v1/messages", messagesBody());
        QCOMPARE(ignored.status, 200);
        QCOMPARE(ignored.header("Content-Type"), QByteArray("application/json"));
        QCOMPARE(ignored.body, response.body);
        QTRY_COMPARE(door->records().size(), 2);
        QCOMPARE(door->records().last().usage.output, 4);
    }

    void expectContinue_answeredBeforeTheBodyIsSent()
    {
        m_upstream->route("POST", "/v1/messages", ScriptedResponse::streamed({messagesStream()}, 0));
        const auto door = openDoor(u"scripted:claude-item-model"_s);
        QVERIFY(door);
        QObject owner;
        RawClient *client = tcpClient(*door, &owner);
        const QByteArray body = messagesBody();
        client->send("POST /v1/messages HTTP/1.1\r\nHost: door\r\nExpect: 100-continue\r\nContent-Length: " +
                     QByteArray::number(body.size()) + "\r\n\r\n");
        QTRY_COMPARE(client->responses.size(), 1);
        QCOMPARE(client->responses.first().status, 100);
        client->send(body);
        QTRY_COMPARE(client->responses.size(), 2);
        QCOMPARE(client->responses.last().status, 200);
        QCOMPARE(client->responses.last().body, messagesStream());
    }

    void responsesStream_usageFromResponseCompleted_cachedSplitOut()
    {
        const QByteArray stream = responsesStream();
        m_upstream->route("POST", "/v1/responses", ScriptedResponse::streamed(piecesOf(stream, 50), 2));
        const auto door = openDoor(u"scripted-oai:gpt-item"_s);
        QVERIFY(door);

        const HttpResponse response =
            call(*door, "/v1/responses", R"({"model":"gpt-5-codex","input":[],"stream":true})",
                 {{"Authorization", "Bearer dummy"}});

        QCOMPARE(response.status, 200);
        QCOMPARE(response.body, stream);
        QCOMPARE(m_upstream->requests().first().path, QByteArray("/v1/responses")); // base ".../v1" + "/responses"
        QTRY_COMPARE(door->records().size(), 1);
        const DoorRequestRecord record = door->records().first();
        QVERIFY2(record.error.isEmpty(), qPrintable(record.error));
        QCOMPARE(record.model, u"gpt-upstream"_s);
        QCOMPARE(record.usage.uncachedInput, 20);
        QCOMPARE(record.usage.cacheRead, 100);
        QCOMPARE(record.usage.output, 7);
        QCOMPARE(record.usage.reasoning, 3);
    }

    void requestBody_modelReplaced_outputTokensCapped_fieldOrderKept()
    {
        m_upstream->route("POST", "/v1/messages", ScriptedResponse::streamed({messagesStream()}, 0));
        m_upstream->route("POST", "/v1/responses", ScriptedResponse::streamed({responsesStream()}, 0));
        DoorLimits limits;
        limits.maxOutputTokens = 4000;
        const auto door = openDoor(u"scripted:claude-item-model"_s, limits);
        QVERIFY(door);

        call(*door, "/v1/messages", messagesBody(R"(,"thinking":{"type":"enabled","budget_tokens":31999})"));
        call(*door, "/v1/messages", R"({"model":"claude-haiku-4-5","messages":[],"stream":true,"max_tokens":512})");
        call(*door, "/v1/messages", R"({"model":"claude-haiku-4-5","messages":[],"stream":true})");

        const QList<RecordedRequest> seen = m_upstream->requests();
        QCOMPARE(seen.size(), 3);
        QVERIFY2(seen[0].body.startsWith(R"({"model":"claude-item-model","max_tokens":4000,"messages":)"),
                 seen[0].body.constData());
        QCOMPARE(jsonOf(seen[0].body).value("thinking"_L1).toObject().value("budget_tokens"_L1).toInt(), 3999);
        QCOMPARE(jsonOf(seen[1].body).value("max_tokens"_L1).toInt(), 512);
        QCOMPARE(jsonOf(seen[2].body).value("max_tokens"_L1).toInt(), 4000);

        const auto codexDoor = openDoor(u"scripted-oai:gpt-item"_s, limits);
        QVERIFY(codexDoor);
        call(*codexDoor, "/v1/responses", R"({"model":"gpt-5-codex","input":[],"stream":true})");
        call(*codexDoor, "/v1/responses", R"({"model":"gpt-5-codex","input":[],"max_output_tokens":100})");
        const QJsonObject capped = jsonOf(m_upstream->requests()[3].body);
        QCOMPARE(capped.value("model"_L1).toString(), u"gpt-item"_s);
        QCOMPARE(capped.value("max_output_tokens"_L1).toInt(), 4000);
        QCOMPARE(jsonOf(m_upstream->requests()[4].body).value("max_output_tokens"_L1).toInt(), 100);
    }

    void requestBody_capTooSmallToThink_thinkingAndItsContextEditsDropped()
    {
        m_upstream->route("POST", "/v1/messages", ScriptedResponse::streamed({messagesStream()}, 0));
        DoorLimits limits;
        limits.maxOutputTokens = 800;
        const auto door = openDoor(u"scripted:claude-item-model"_s, limits);
        QVERIFY(door);
        call(*door, "/v1/messages",
             messagesBody(R"(,"thinking":{"type":"enabled","budget_tokens":31999},)"
                          R"("context_management":{"edits":[{"type":"clear_thinking_20251015","keep":"all"}]})"));
        const QJsonObject sent = jsonOf(m_upstream->requests().first().body);
        QCOMPARE(sent.value("max_tokens"_L1).toInt(), 800);
        QVERIFY(!sent.contains("thinking"_L1));
        QVERIFY(!sent.contains("context_management"_L1));
    }

    void requestBody_forThePromptCache_billingLineLeftOut_elsewhereKept()
    {
        const QByteArray body =
            "{\"model\":\"m\",\"system\":[{\"type\":\"text\",\"text\":\"x-anthropic-billing-header: "
            "cc_version=2.1.332.5bd;\"},{\"type\":\"text\",\"text\":\"You are a Claude agent.\"}],"
            "\"messages\":[]}";
        const Result<DoorBodyRewrite> forCache = rewriteDoorRequestBody(DoorRoute::Messages, body, u"m"_s, 64, true);
        QVERIFY(forCache.ok());
        const QJsonArray system = jsonOf(forCache.value->body).value("system"_L1).toArray();
        QCOMPARE(system.size(), 1);
        QCOMPARE(system.first().toObject().value("text"_L1).toString(), u"You are a Claude agent."_s);
        const Result<DoorBodyRewrite> forAnthropic = rewriteDoorRequestBody(DoorRoute::Messages, body, u"m"_s, 64);
        QCOMPARE(jsonOf(forAnthropic.value->body).value("system"_L1).toArray().size(), 2);
    }

    void countTokens_forwardedWithTheModelReplaced_noOutputCapAdded()
    {
        m_upstream->route("POST", "/v1/messages/count_tokens", ScriptedResponse::json(200, R"({"input_tokens":42})"));
        DoorLimits limits;
        limits.maxOutputTokens = 100;
        const auto door = openDoor(u"scripted:claude-item-model"_s, limits);
        QVERIFY(door);
        const HttpResponse response =
            call(*door, "/v1/messages/count_tokens", R"({"model":"claude-haiku-4-5","messages":[]})");
        QCOMPARE(response.body, QByteArray(R"({"input_tokens":42})"));
        const QJsonObject sent = jsonOf(m_upstream->requests().first().body);
        QCOMPARE(sent.value("model"_L1).toString(), u"claude-item-model"_s);
        QVERIFY(!sent.contains("max_tokens"_L1));
        QTRY_COMPARE(door->records().size(), 1);
        QCOMPARE(door->records().first().tokens(), 0); // counting tokens spends none
        QVERIFY(door->records().first().error.isEmpty());
    }

    void cliKey_replacedByTheRealKey_whichNoRecordNorLogHolds()
    {
        LogCapture logs;
        m_upstream->route("POST", "/v1/messages", ScriptedResponse::streamed({messagesStream()}, 0));
        m_upstream->route("POST", "/v1/responses", ScriptedResponse::streamed({responsesStream()}, 0));
        const auto door = openDoor(u"scripted:claude-item-model"_s);
        QVERIFY(door);
        call(*door, "/v1/messages", messagesBody(),
             {{"x-api-key", "dummy"},
              {"Authorization", "Bearer dummy"},
              {"anthropic-version", "2023-06-01"},
              {"anthropic-beta", "claude-code-20250219"},
              {"x-app", "cli"}});
        const RecordedRequest anthropic = m_upstream->requests().first();
        QCOMPARE(anthropic.header("x-api-key"), realKey);
        QVERIFY(anthropic.header("Authorization").isEmpty());
        QCOMPARE(anthropic.header("anthropic-version"), QByteArray("2023-06-01"));
        QCOMPARE(anthropic.header("anthropic-beta"), QByteArray("claude-code-20250219"));
        QCOMPARE(anthropic.header("x-app"), QByteArray("cli"));

        const auto codexDoor = openDoor(u"scripted-oai:gpt-item"_s);
        QVERIFY(codexDoor);
        call(*codexDoor, "/v1/responses", R"({"model":"m","input":[],"stream":true})",
             {{"Authorization", "Bearer dummy"}, {"Accept", "text/event-stream"}});
        const RecordedRequest openAi = m_upstream->requests().last();
        QCOMPARE(openAi.header("Authorization"), "Bearer " + realKey);
        QCOMPARE(openAi.header("Accept"), QByteArray("text/event-stream")); // the CLI's, not the provider's default

        QTRY_COMPARE(door->records().size() + codexDoor->records().size(), 2);
        for (const ModelDoor *each : {door.get(), codexDoor.get()}) {
            for (const DoorRequestRecord &record : each->records()) {
                for (const QString &field :
                     {record.method, record.path, record.model, record.requestedModel, record.error}) {
                    QVERIFY(!field.contains(QString::fromLatin1(realKey)));
                }
            }
        }
        QVERIFY(!LogCapture::lines().isEmpty()); // the door and the HTTP engine did log
        for (const QString &line : LogCapture::lines()) {
            QVERIFY2(!line.contains(QString::fromLatin1(realKey)), qPrintable(line));
        }
    }

    void budget_spent_furtherRequestsRefusedAtOnceInTheWiresShape()
    {
        m_upstream->route("POST", "/v1/messages", ScriptedResponse::streamed({messagesStream()}, 0));
        DoorLimits limits;
        limits.maxTotalTokens = 200; // the first request uses 215
        const auto door = openDoor(u"scripted:claude-item-model"_s, limits);
        QVERIFY(door);
        QSignalSpy reached(door.get(), &ModelDoor::budgetReached);

        QCOMPARE(call(*door, "/v1/messages", messagesBody()).status, 200);
        QTRY_COMPARE(reached.count(), 1);
        QVERIFY(door->budgetExhausted());

        const HttpResponse refused = call(*door, "/v1/messages", messagesBody());
        // Claude Code's SDK stops at a 429 that says not to retry; a 400 it would retry several times.
        QCOMPARE(refused.status, 429);
        QCOMPARE(refused.header("x-should-retry"), QByteArray("false"));
        const QJsonObject error = jsonOf(refused.body);
        QCOMPARE(error.value("type"_L1).toString(), u"error"_s);
        QVERIFY(error.value("error"_L1).toObject().value("message"_L1).toString().contains("budget"_L1));
        QCOMPARE(m_upstream->requestCount("/v1/messages"), 1);
        QTRY_COMPARE(door->records().size(), 2);
        QCOMPARE(door->records().last().status, 429);
        QVERIFY(door->records().last().error.contains("budget"_L1));
        QCOMPARE(reached.count(), 1);

        m_upstream->route("POST", "/v1/responses", ScriptedResponse::streamed({responsesStream()}, 0));
        limits.maxTotalTokens = 100;
        const auto codexDoor = openDoor(u"scripted-oai:gpt-item"_s, limits);
        QVERIFY(codexDoor);
        call(*codexDoor, "/v1/responses", R"({"model":"m","input":[],"stream":true})");
        const HttpResponse codexRefused = call(*codexDoor, "/v1/responses", R"({"model":"m","input":[]})");
        QCOMPARE(codexRefused.status, 400); // Codex stops at a 400 and prints it; a 429 it retries
        QVERIFY(jsonOf(codexRefused.body)
                    .value("error"_L1)
                    .toObject()
                    .value("message"_L1)
                    .toString()
                    .contains("budget"_L1));
    }

    void upstreamError_passesThroughWithStatusHeadersAndBody()
    {
        m_upstream->route("POST", "/v1/messages", ScriptedResponse::tooManyRequests(7));
        const auto door = openDoor(u"scripted:claude-item-model"_s);
        QVERIFY(door);
        const HttpResponse response = call(*door, "/v1/messages", messagesBody());
        QCOMPARE(response.status, 429);
        QCOMPARE(response.header("Retry-After"), QByteArray("7"));
        QCOMPARE(response.body, ScriptedResponse::tooManyRequests(7).body);
        QTRY_COMPARE(door->records().size(), 1);
        QCOMPARE(door->records().first().status, 429);
        QCOMPARE(door->records().first().error, u"Rate limit reached"_s);
    }

    void upstreamDown_answers502WithAJsonError()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost));
        QUrl closed = m_upstream->baseUrl();
        closed.setPort(probe.serverPort());
        probe.close();
        addScriptedProviders(closed);
        const auto door = openDoor(u"scripted:claude-item-model"_s);
        QVERIFY(door);
        const HttpResponse response = call(*door, "/v1/messages", messagesBody());
        QCOMPARE(response.status, 502);
        QCOMPARE(response.header("Content-Type"), QByteArray("application/json"));
        QVERIFY(!jsonOf(response.body).value("error"_L1).toObject().value("message"_L1).toString().isEmpty());
        QTRY_COMPARE(door->records().size(), 1);
        QCOMPARE(door->records().first().status, 502);
    }

    void upstreamTooSlow_answers504AtTheRequestTimeout()
    {
        ScriptedResponse slow = ScriptedResponse::json(200, "{}");
        slow.delayMs = 5000;
        m_upstream->route("POST", "/v1/messages", slow);
        DoorLimits limits;
        limits.requestTimeoutMs = 300;
        const auto door = openDoor(u"scripted:claude-item-model"_s, limits);
        QVERIFY(door);
        const HttpResponse response = call(*door, "/v1/messages", messagesBody());
        QCOMPARE(response.status, 504);
        QTRY_COMPARE(door->records().size(), 1);
        QVERIFY(door->records().first().latencyMs < 3000);
    }

    void slowFirstByte_waitedForUpToTheItemsLimit_notTheProvidersDefault()
    {
        // A CPU reading a CLI's long first prompt says nothing for minutes: the item's limit decides how long.
        ProviderConfig impatient = *m_providers->find(u"scripted"_s);
        impatient.name = u"impatient"_s;
        impatient.firstByteTimeoutMs = 200;
        m_providers->add(impatient);
        ScriptedResponse slow = ScriptedResponse::streamed({messagesStream()}, 0);
        slow.delayMs = 1200;
        m_upstream->route("POST", "/v1/messages", slow);
        DoorLimits limits;
        limits.requestTimeoutMs = 20000;
        const auto door = openDoor(u"impatient:claude-item-model"_s, limits);
        QVERIFY(door);
        const HttpResponse response = call(*door, "/v1/messages", messagesBody());
        QCOMPARE(response.status, 200);
    }

    void upstreamStreamBreaksOff_clientStreamIsCutShortToo()
    {
        ScriptedResponse broken = ScriptedResponse::streamed(afterFirstEvent(messagesStream()), 5);
        broken.resetAfterChunks = 1;
        m_upstream->route("POST", "/v1/messages", broken);
        const auto door = openDoor(u"scripted:claude-item-model"_s);
        QVERIFY(door);
        const HttpResponse response = call(*door, "/v1/messages", messagesBody());
        QCOMPARE(response.kind, HttpError::Network); // not a complete-looking stream
        QTRY_COMPARE(door->records().size(), 1);
        QVERIFY(door->records().first().error.contains("broke off"_L1));
        QCOMPARE(door->records().first().usage.uncachedInput, 100); // message_start had arrived: those tokens count
    }

    void twoConnectionsAtOnce_areServedConcurrently()
    {
        ScriptedResponse slow = ScriptedResponse::streamed({messagesStream()}, 0);
        slow.delayMs = 400;
        m_upstream->route("POST", "/v1/messages", slow);
        const auto door = openDoor(u"scripted:claude-item-model"_s);
        QVERIFY(door);
        QObject owner;
        RawClient *first = tcpClient(*door, &owner);
        RawClient *second = tcpClient(*door, &owner);
        first->send(postRequest("/v1/messages", messagesBody()));
        second->send(postRequest("/v1/messages", messagesBody()));
        // Both reach the upstream before either is answered.
        QTRY_COMPARE(m_upstream->requestCount("/v1/messages"), 2);
        QCOMPARE(first->responses.size() + second->responses.size(), 0);
        QCOMPARE(door->requestsInFlight(), 2);
        QTRY_COMPARE(first->responses.size(), 1);
        QTRY_COMPARE(second->responses.size(), 1);
        QCOMPARE(first->responses.first().body, messagesStream());
        QCOMPARE(second->responses.first().body, messagesStream());
        QCOMPARE(door->totalTokens(), 2 * 215);
    }

    void keepAlive_severalRequestsOnOneConnection_answeredInOrder()
    {
        m_upstream->route("POST", "/v1/messages", ScriptedResponse::streamed({messagesStream()}, 0));
        m_upstream->route("POST", "/v1/messages/count_tokens", ScriptedResponse::json(200, R"({"input_tokens":3})"));
        const auto door = openDoor(u"scripted:claude-item-model"_s);
        QVERIFY(door);
        QObject owner;
        RawClient *client = tcpClient(*door, &owner);
        // Two requests written back to back (pipelined), then a third with a chunked body once they are answered.
        client->send(postRequest("/v1/messages", messagesBody()) +
                     postRequest("/v1/messages/count_tokens", R"({"model":"m","messages":[]})"));
        QTRY_COMPARE(client->responses.size(), 2);
        QCOMPARE(client->responses[0].body, messagesStream());
        QCOMPARE(client->responses[1].body, QByteArray(R"({"input_tokens":3})"));
        const QByteArray body = messagesBody();
        client->send("POST /v1/messages HTTP/1.1\r\nHost: door\r\nTransfer-Encoding: chunked\r\n\r\n" +
                     QByteArray::number(10, 16) + "\r\n" + body.left(10) + "\r\n" +
                     QByteArray::number(body.size() - 10, 16) + "\r\n" + body.mid(10) + "\r\n0\r\n\r\n");
        QTRY_COMPARE(client->responses.size(), 3);
        QCOMPARE(client->responses[2].status, 200);
        QVERIFY(m_upstream->requests().last().body.startsWith(R"({"model":"claude-item-model")"));
        QCOMPARE(m_upstream->requests().size(), 3);
    }

    void unixSocket_servesRequests_readableByTheUserOnly()
    {
        m_upstream->route("POST", "/v1/messages", ScriptedResponse::streamed({messagesStream()}, 0));
        ModelDoor door(*m_engine, *m_providers, nullptr, u"scripted:claude-item-model"_s, {});
        const QString path = m_dir.filePath(u"door.sock"_s);
        QVERIFY2(door.listenOnSocket(path), qPrintable(door.errorString()));
        QCOMPARE(door.socketPath(), path);
        const QFileDevice::Permissions others =
            QFileDevice::ReadGroup | QFileDevice::WriteGroup | QFileDevice::ReadOther | QFileDevice::WriteOther;
        QCOMPARE(QFileInfo(path).permissions() & others, QFileDevice::Permissions());

        QObject owner;
        auto *socket = new QLocalSocket;
        auto *client = new RawClient(socket);
        client->setParent(&owner);
        socket->connectToServer(path);
        client->send(postRequest("/v1/messages", messagesBody()));
        QTRY_COMPARE(client->responses.size(), 1);
        QCOMPARE(client->responses.first().status, 200);
        QCOMPARE(client->responses.first().body, messagesStream());
        QCOMPARE(m_upstream->requests().first().header("x-api-key"), realKey);

        ModelDoor second(*m_engine, *m_providers, nullptr, u"scripted:claude-item-model"_s, {});
        QVERIFY(!second.listenOnSocket(path)); // taken
        QVERIFY(!second.listenOnSocket(u"relative.sock"_s));
        door.close();
        QVERIFY(!QFileInfo::exists(path));
    }

    void otherPaths_answered404ByTheDoor_neverForwarded()
    {
        const auto door = openDoor(u"scripted:claude-item-model"_s);
        QVERIFY(door);
        QObject owner;
        RawClient *client = tcpClient(*door, &owner);
        client->expectHeadAnswer();
        client->send("HEAD /api/hello HTTP/1.1\r\nHost: door\r\n\r\n"
                     "POST /v1/chat/completions HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}");
        QTRY_COMPARE(client->responses.size(), 2);
        QCOMPARE(client->responses[0].status, 404);
        QCOMPARE(client->responses[1].status, 404);
        QVERIFY(jsonOf(client->responses[1].body)
                    .value("error"_L1)
                    .toObject()
                    .value("message"_L1)
                    .toString()
                    .contains("/v1/messages"_L1));
        QCOMPARE(m_upstream->requests().size(), 0);
    }

    void malformedRequest_answered400AndTheConnectionClosed()
    {
        const auto door = openDoor(u"scripted:claude-item-model"_s);
        QVERIFY(door);
        QObject owner;
        RawClient *client = tcpClient(*door, &owner);
        QSignalSpy disconnected(client->tcpSocket(), &QTcpSocket::disconnected);
        client->send("POST /v1/messages HTTP/1.1\r\nContent-Length: -4\r\n\r\n");
        QTRY_COMPARE(client->responses.size(), 1);
        QCOMPARE(client->responses.first().status, 400);
        QTRY_COMPARE(disconnected.count(), 1);

        RawClient *badJson = tcpClient(*door, &owner);
        badJson->send(postRequest("/v1/messages", "not json"));
        QTRY_COMPARE(badJson->responses.size(), 1);
        QCOMPARE(badJson->responses.first().status, 400);
        QCOMPARE(jsonOf(badJson->responses.first().body).value("type"_L1).toString(), u"error"_s);
    }

    void close_abortsRequestsInFlight_eachStillRecorded()
    {
        ScriptedResponse stalled = ScriptedResponse::streamed(piecesOf(messagesStream(), 300), 0);
        stalled.stallAfterChunks = 1;
        m_upstream->route("POST", "/v1/messages", stalled);
        const auto door = openDoor(u"scripted:claude-item-model"_s);
        QVERIFY(door);
        QObject owner;
        RawClient *client = tcpClient(*door, &owner);
        QSignalSpy disconnected(client->tcpSocket(), &QTcpSocket::disconnected);
        client->send(postRequest("/v1/messages", messagesBody()));
        QTRY_COMPARE(m_upstream->requestCount("/v1/messages"), 1);
        QCOMPARE(door->requestsInFlight(), 1);
        door->close();
        QTRY_COMPARE(disconnected.count(), 1);
        QCOMPARE(door->records().size(), 1);
        QVERIFY(door->records().first().error.contains("closed"_L1));
        QCOMPARE(door->requestsInFlight(), 0);
        QVERIFY(!door->listenOnTcp()); // a closed door stays closed
    }

    void clientGoesAway_upstreamRequestAbortedAndRecorded()
    {
        ScriptedResponse stalled = ScriptedResponse::streamed(afterFirstEvent(messagesStream()), 0);
        stalled.stallAfterChunks = 1;
        m_upstream->route("POST", "/v1/messages", stalled);
        const auto door = openDoor(u"scripted:claude-item-model"_s);
        QVERIFY(door);
        auto socket = std::make_unique<QTcpSocket>();
        socket->connectToHost(QHostAddress::LocalHost, door->tcpPort());
        socket->write(postRequest("/v1/messages", messagesBody()));
        QTRY_VERIFY(socket->bytesAvailable() > 0); // the stream has started
        socket->abort();
        QTRY_COMPARE(door->records().size(), 1);
        QVERIFY(door->records().first().error.contains("closed the connection"_L1));
        QCOMPARE(door->records().first().usage.uncachedInput, 100);
        QCOMPARE(door->requestsInFlight(), 0);
    }

    void unusableModel_doorSaysWhyAndDoesNotListen()
    {
        ModelDoor unknown(*m_engine, *m_providers, nullptr, u"nosuch:model"_s, {});
        QVERIFY(unknown.whyUnusable().contains("nosuch"_L1));
        QVERIFY(!unknown.listenOnTcp());
        QCOMPARE(unknown.errorString(), unknown.whyUnusable());

        ProviderConfig keyless = *m_providers->find(u"scripted"_s);
        keyless.name = u"keyless"_s;
        keyless.apiKeyEnv = u"SF_DOOR_TEST_NO_SUCH_KEY"_s;
        m_providers->add(keyless);
        ModelDoor noKey(*m_engine, *m_providers, nullptr, u"keyless:m"_s, {});
        QVERIFY(noKey.whyUnusable().contains("SF_DOOR_TEST_NO_SUCH_KEY"_L1));

        ModelDoor noLocal(*m_engine, *m_providers, nullptr, u"local:qwen"_s, {});
        QVERIFY(!noLocal.whyUnusable().isEmpty());
    }

    void localResend_data()
    {
        QTest::addColumn<QByteArray>("fault");
        // Before any byte, on a connection kept from the health checks, curl may retry by itself; either way the
        // CLI gets one answer.
        QTest::newRow("cut before any byte") << QByteArray("cut-before-any-byte");
        // The half that arrived carries usage of its own (500 in, 300 out): it must not mix with the answer's.
        QTest::newRow("cut mid-body") << QByteArray("cut-mid-body");
    }

    void localResend()
    {
        QFETCH(QByteArray, fault);
        FakeLocal local(*m_engine, fault);
        ModelDoor door(*m_engine, *m_providers, local.server.get(), u"local:qwen"_s, {});
        QVERIFY(door.listenOnTcp());
        const HttpResponse response = call(door, "/v1/messages", R"({"model":"m","max_tokens":10,"messages":[]})", {});
        QCOMPARE(response.status, 200);
        QCOMPARE(jsonOf(response.body).value("id"_L1).toString(), u"msg_fake"_s); // the resent request's answer
        QTRY_COMPARE(door.records().size(), 1);                                   // one request, as the CLI sees it
        const DoorRequestRecord record = door.records().first();
        QCOMPARE(record.error, QString());
        QCOMPARE(record.usage.uncachedInput, 9); // the answer's tokens, counted once
        QCOMPARE(record.usage.output, 4);
        QCOMPARE(door.totalTokens(), 13);
    }

    void localResend_keepsTheRequestsOneTimeLimit()
    {
        // Every attempt is cut mid-body after 1 s of silence; the request may take 1.5 s in all. Resent with a fresh
        // limit each time, it ran three attempts (3 s) and ended 502; with one limit it ends at 1.5 s as a timeout.
        FakeLocal local(*m_engine, "cut-after-ms:1000");
        DoorLimits limits;
        limits.requestTimeoutMs = 1500;
        ModelDoor door(*m_engine, *m_providers, local.server.get(), u"local:qwen"_s, limits);
        QVERIFY(door.listenOnTcp());
        local.server->ensureStarted(); // started first, so that the latency below is the request's alone
        QTRY_COMPARE_WITH_TIMEOUT(local.server->state(), LocalModelServer::State::Ready, 20000);
        const HttpResponse response = call(door, "/v1/messages", R"({"model":"m","max_tokens":10,"messages":[]})", {});
        QCOMPARE(response.status, 504);
        QTRY_COMPARE(door.records().size(), 1);
        QCOMPARE(door.records().first().status, 504);
        QVERIFY2(door.records().first().latencyMs < 2900,
                 qPrintable(u"the request ran %1 ms against a limit of 1500"_s.arg(door.records().first().latencyMs)));
    }

    void localModel_serverStartedOnDemand_requestsGoToItsCurrentPort()
    {
        LocalModelServer::Options options;
        options.serverPath = QStringLiteral(FAKE_LLAMA_SERVER);
        options.modelPath = QStringLiteral(FAKE_LLAMA_SERVER); // any existing file: the fake never reads it
        options.startupTimeoutMs = 20000;
        LocalModelServer local(*m_engine, options);
        ModelDoor door(*m_engine, *m_providers, &local, u"local:qwen"_s, {});
        QVERIFY2(door.whyUnusable().isEmpty(), qPrintable(door.whyUnusable()));
        QVERIFY(door.listenOnTcp());
        QCOMPARE(local.state(), LocalModelServer::State::Stopped);

        // The fake llama-server serves only chat completions: its own 404 body shows the request reached it.
        const QByteArray fakeNotFound = ScriptedResponse::json(404, R"({"error":{"message":"no such route"}})").body;
        const HttpResponse first = call(door, "/v1/messages", messagesBody(), {});
        QCOMPARE(local.state(), LocalModelServer::State::Ready);
        QCOMPARE(first.status, 404);
        QCOMPARE(first.body, fakeNotFound);

        local.stop();
        const HttpResponse again = call(door, "/v1/messages", messagesBody(), {}); // started again, maybe elsewhere
        QCOMPARE(again.body, fakeNotFound);
        QTRY_COMPARE(door.records().size(), 2);
        QCOMPARE(door.records().first().error, u"no such route"_s);
        local.stop();
    }
};

SF_TEST_GUILESS_MAIN(TestModelDoor)
#include "test_model_door.moc"
