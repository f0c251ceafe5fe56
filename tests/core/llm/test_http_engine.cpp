#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "llm/HttpEngine.h"
#include "llm/HttpReply.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTest>
#include <QThread>
#include <memory>
#include <vector>

using namespace sf;
using namespace sf::test;
using namespace Qt::StringLiterals;

class TestHttpEngine final : public QObject
{
    Q_OBJECT

private:
    HttpRequest requestFor(const ScriptedHttpServer &server, const QString &path) const
    {
        HttpRequest request;
        request.url = server.baseUrl();
        request.url.setPath(path);
        return request;
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void get_okResponse_deliversStatusHeadersAndBody()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        ScriptedResponse canned = ScriptedResponse::json(200, R"({"hello":"world"})");
        canned.headers.emplaceBack("X-Request-Id", "abc123");
        server.route("GET", "/hello", canned);
        HttpEngine engine;

        std::unique_ptr<HttpReply> reply(engine.send(requestFor(server, u"/hello"_s)));
        QSignalSpy finished(reply.get(), &HttpReply::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);

        const HttpResponse &response = reply->response();
        QCOMPARE(response.kind, HttpError::None);
        QCOMPARE(response.status, 200);
        QCOMPARE(response.body, QByteArray(R"({"hello":"world"})"));
        QCOMPARE(response.header("x-request-id"), QByteArray("abc123"));
        QVERIFY(response.firstByteMs > 0);
        QVERIFY(response.totalMs >= response.firstByteMs);
    }

    void post_bodyAndHeaders_reachTheServerUnchanged()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        server.route("POST", "/echo", ScriptedResponse::json(201, "{}"));
        HttpEngine engine;
        HttpRequest request = requestFor(server, u"/echo"_s);
        request.method = "POST";
        request.headers = {{"Content-Type", "application/json"}, {"X-Custom", "yes"}};
        request.body = QByteArray(R"({"payload":")") + QByteArray(5000, 'x') + "\"}";

        std::unique_ptr<HttpReply> reply(engine.send(request));
        QSignalSpy finished(reply.get(), &HttpReply::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);

        QCOMPARE(reply->response().status, 201);
        QCOMPARE(server.requests().size(), 1);
        const RecordedRequest sent = server.requests().first();
        QCOMPARE(sent.method, QByteArray("POST"));
        QCOMPARE(sent.body, request.body);
        QCOMPARE(sent.header("content-type"), QByteArray("application/json"));
        QCOMPARE(sent.header("x-custom"), QByteArray("yes"));
    }

    void manyConcurrentRequests_allComplete()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        ScriptedResponse slow = ScriptedResponse::json(200, "ok");
        slow.delayMs = 50;
        server.route("GET", "/work", slow);
        HttpEngine engine;

        constexpr int count = 40;
        std::vector<std::unique_ptr<HttpReply>> replies;
        int finished = 0;
        for (int i = 0; i < count; ++i) {
            replies.emplace_back(engine.send(requestFor(server, u"/work"_s)));
            connect(replies.back().get(), &HttpReply::finished, this, [&finished] { ++finished; });
        }
        QTRY_COMPARE_WITH_TIMEOUT(finished, count, 15000);
        for (const auto &reply : replies) {
            QCOMPARE(reply->response().status, 200);
            QCOMPARE(reply->response().body, QByteArray("ok"));
        }
    }

    void sequentialRequests_reuseOneConnection()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        server.route("GET", "/ping", ScriptedResponse::json(200, "pong"));
        HttpEngine engine;

        for (int i = 0; i < 3; ++i) {
            std::unique_ptr<HttpReply> reply(engine.send(requestFor(server, u"/ping"_s)));
            QSignalSpy finished(reply.get(), &HttpReply::finished);
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
            QCOMPARE(reply->response().status, 200);
        }
        QCOMPARE(server.connectionCount(), 1);
    }

    void abort_slowServer_cancelsAtOnce()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        ScriptedResponse never = ScriptedResponse::json(200, "late");
        never.delayMs = 30000;
        server.route("GET", "/slow", never);
        HttpEngine engine;

        std::unique_ptr<HttpReply> reply(engine.send(requestFor(server, u"/slow"_s)));
        QSignalSpy finished(reply.get(), &HttpReply::finished);
        QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 1, 5000);
        QElapsedTimer clock;
        clock.start();
        reply->abort();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 2000);

        QVERIFY2(clock.elapsed() < 1000, qPrintable(u"abort took %1 ms"_s.arg(clock.elapsed())));
        QCOMPARE(reply->response().kind, HttpError::Cancelled);
        QCOMPARE(reply->response().status, 0);
    }

    void abort_fromAnotherThread_cancels()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        ScriptedResponse never = ScriptedResponse::json(200, "late");
        never.delayMs = 30000;
        server.route("GET", "/slow", never);
        HttpEngine engine;

        std::unique_ptr<HttpReply> reply(engine.send(requestFor(server, u"/slow"_s)));
        QSignalSpy finished(reply.get(), &HttpReply::finished);
        HttpReply *raw = reply.get();
        std::unique_ptr<QThread> thread(QThread::create([raw] { raw->abort(); }));
        thread->start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 2000);
        QVERIFY(thread->wait(2000));
        QCOMPARE(reply->response().kind, HttpError::Cancelled);
    }

    void connectRefused_reportsConnectError()
    {
        quint16 closedPort = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            closedPort = probe.serverPort();
        }
        HttpEngine engine;
        HttpRequest request;
        request.url = QUrl(u"http://127.0.0.1:%1/"_s.arg(closedPort));

        std::unique_ptr<HttpReply> reply(engine.send(request));
        QSignalSpy finished(reply.get(), &HttpReply::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);

        QCOMPARE(reply->response().kind, HttpError::Connect);
        QVERIFY(!reply->response().error.isEmpty());
    }

    void firstByteTimeout_silentServer_firesTimeout()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        ScriptedResponse silent = ScriptedResponse::json(200, "late");
        silent.delayMs = 10000;
        server.route("GET", "/silent", silent);
        HttpEngine engine;
        HttpRequest request = requestFor(server, u"/silent"_s);
        request.firstByteTimeoutMs = 300;

        QElapsedTimer clock;
        clock.start();
        std::unique_ptr<HttpReply> reply(engine.send(request));
        QSignalSpy finished(reply.get(), &HttpReply::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);

        QCOMPARE(reply->response().kind, HttpError::Timeout);
        QVERIFY(clock.elapsed() >= 300);
        QVERIFY2(clock.elapsed() < 3000, qPrintable(u"timeout took %1 ms"_s.arg(clock.elapsed())));
    }

    void idleTimeout_stalledStream_firesTimeout()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        server.route("GET", "/stall", ScriptedResponse::streamed({"first", "second"}, 10000));
        HttpEngine engine;
        HttpRequest request = requestFor(server, u"/stall"_s);
        request.idleTimeoutMs = 300;

        std::unique_ptr<HttpReply> reply(engine.send(request));
        QSignalSpy finished(reply.get(), &HttpReply::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);

        QCOMPARE(reply->response().kind, HttpError::Timeout);
        QCOMPARE(reply->response().body, QByteArray("first"));
    }

    void streaming_chunksArriveBeforeFinished()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        server.route("GET", "/stream",
                     ScriptedResponse::streamed({"data: one\n\n", "data: two\n\n", "data: [DONE]\n\n"}, 150));
        HttpEngine engine;

        std::unique_ptr<HttpReply> reply(engine.send(requestFor(server, u"/stream"_s)));
        QSignalSpy finished(reply.get(), &HttpReply::finished);
        QByteArray streamed;
        int chunksBeforeFinished = 0;
        connect(reply.get(), &HttpReply::dataReceived, this, [&](const QByteArray &chunk) {
            streamed += chunk;
            if (finished.isEmpty()) {
                ++chunksBeforeFinished;
            }
        });
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);

        QVERIFY(chunksBeforeFinished >= 3);
        QCOMPARE(streamed, QByteArray("data: one\n\ndata: two\n\ndata: [DONE]\n\n"));
        QCOMPARE(reply->response().body, streamed);
        QVERIFY(reply->response().totalMs >= 300);
    }

    void abruptClose_reportsNetworkError()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        server.route("GET", "/drop", ScriptedResponse::abruptClose());
        HttpEngine engine;

        std::unique_ptr<HttpReply> reply(engine.send(requestFor(server, u"/drop"_s)));
        QSignalSpy finished(reply.get(), &HttpReply::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);

        QCOMPARE(reply->response().kind, HttpError::Network);
    }

    void tooManyRequests_isAResponseWithRetryAfter()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        server.route("GET", "/limited", ScriptedResponse::tooManyRequests(7));
        HttpEngine engine;

        std::unique_ptr<HttpReply> reply(engine.send(requestFor(server, u"/limited"_s)));
        QSignalSpy finished(reply.get(), &HttpReply::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);

        QCOMPARE(reply->response().kind, HttpError::None);
        QCOMPARE(reply->response().status, 429);
        QCOMPARE(reply->response().header("Retry-After"), QByteArray("7"));
    }

    void destroyingEngine_cancelsRepliesInFlight()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        ScriptedResponse never = ScriptedResponse::json(200, "late");
        never.delayMs = 30000;
        server.route("GET", "/slow", never);
        auto engine = std::make_unique<HttpEngine>();

        std::unique_ptr<HttpReply> reply(engine->send(requestFor(server, u"/slow"_s)));
        QSignalSpy finished(reply.get(), &HttpReply::finished);
        QTRY_COMPARE_WITH_TIMEOUT(server.requests().size(), 1, 5000);
        engine.reset();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 2000);

        QCOMPARE(reply->response().kind, HttpError::Cancelled);
        reply->abort(); // harmless once the engine is gone
    }

    void deletingReply_midTransfer_isSafe()
    {
        ScriptedHttpServer server;
        QVERIFY(server.listen());
        server.route("GET", "/stream", ScriptedResponse::streamed({"a", "b", "c", "d"}, 50));
        server.route("GET", "/ping", ScriptedResponse::json(200, "pong"));
        HttpEngine engine;

        auto *reply = engine.send(requestFor(server, u"/stream"_s));
        QSignalSpy chunks(reply, &HttpReply::dataReceived);
        QVERIFY(chunks.wait(5000));
        delete reply;

        std::unique_ptr<HttpReply> next(engine.send(requestFor(server, u"/ping"_s)));
        QSignalSpy finished(next.get(), &HttpReply::finished);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
        QCOMPARE(next->response().status, 200);
    }
};

SF_TEST_GUILESS_MAIN(TestHttpEngine)
#include "test_http_engine.moc"
