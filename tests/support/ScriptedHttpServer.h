#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QObject>
#include <QPair>
#include <QTcpServer>
#include <QUrl>
#include <functional>

class QTcpSocket;

namespace sf::test {

using Headers = QList<QPair<QByteArray, QByteArray>>;

/** A canned answer for ScriptedHttpServer, including the misbehaviours real servers show. */
struct ScriptedResponse
{
    int status = 200;
    Headers headers;
    QByteArray body;
    int delayMs = 0;            // silence before the first byte
    QList<QByteArray> chunks;   // when non-empty: sent with chunked encoding instead of `body`
    int chunkPauseMs = 0;       // between chunks
    bool closeAbruptly = false; // drop the connection instead of answering
    int resetAfterChunks = -1;  // >= 0: drop the connection after that many chunks (a stream broken midway)
    int stallAfterChunks = -1;  // >= 0: go silent after that many chunks, keeping the connection open

    static ScriptedResponse json(int status, const QByteArray &body);
    static ScriptedResponse tooManyRequests(int retryAfterSeconds);
    /** A text/event-stream body sent in exactly these chunks (split them anywhere, even inside a character). */
    static ScriptedResponse streamed(const QList<QByteArray> &chunks, int pauseMs);
    static ScriptedResponse abruptClose();
};

/** One request as the server saw it, so tests can assert what a client sent. */
struct RecordedRequest
{
    QByteArray method;
    QByteArray path; // without the query
    QByteArray target;
    Headers headers;
    QByteArray body;

    /** The first header of that name, compared case-insensitively. */
    QByteArray header(const QByteArray &name) const;
};

/**
 * An HTTP/1.1 server on 127.0.0.1 for tests, answering routes with scripted responses (with delays,
 * streamed chunks, 429s or abrupt closes) and keeping connections alive between requests. It runs
 * in the test's event loop, so QTRY_* and QSignalSpy::wait drive it.
 */
class ScriptedHttpServer final : public QObject
{
    Q_OBJECT

public:
    explicit ScriptedHttpServer(QObject *parent = nullptr);
    ~ScriptedHttpServer() override;

    /** Listens on 127.0.0.1:`port` (0: any free port). */
    bool listen(quint16 port = 0);
    quint16 port() const { return m_server.serverPort(); }
    /** `http://127.0.0.1:<port>` with no trailing slash. */
    QUrl baseUrl() const;

    /** Answers `method path` with `response` from now on. */
    void route(const QByteArray &method, const QByteArray &path, const ScriptedResponse &response);
    /** Answers successive requests with successive responses; the last one repeats. */
    void routeSequence(const QByteArray &method, const QByteArray &path, const QList<ScriptedResponse> &responses);

    /** Answers `method path` with whatever `handler` makes of each request (for replies that depend on it). */
    void routeHandler(const QByteArray &method, const QByteArray &path,
                      std::function<ScriptedResponse(const RecordedRequest &)> handler);

    QList<RecordedRequest> requests() const { return m_requests; }
    int requestCount(const QByteArray &path) const;
    /** How many TCP connections clients opened; shows whether they reuse connections. */
    int connectionCount() const { return m_connectionCount; }

private:
    struct Connection
    {
        QByteArray buffer;
        bool answering = false;
    };

    void onNewConnection();
    void processBuffer(QTcpSocket *socket);
    void answer(QTcpSocket *socket, const ScriptedResponse &response);
    void writeChunks(QTcpSocket *socket, ScriptedResponse response, int sent);
    void finishAnswer(QTcpSocket *socket);
    ScriptedResponse responseFor(const RecordedRequest &request);

    QTcpServer m_server;
    QHash<QByteArray, QList<ScriptedResponse>> m_routes; // key: "METHOD path"
    QHash<QByteArray, std::function<ScriptedResponse(const RecordedRequest &)>> m_handlers;
    QHash<QTcpSocket *, Connection> m_connections;
    QList<RecordedRequest> m_requests;
    int m_connectionCount = 0;
};

} // namespace sf::test
