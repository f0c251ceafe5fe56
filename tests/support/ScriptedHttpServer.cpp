#include "ScriptedHttpServer.h"

#include "agents/DoorHttp.h"

#include <QTcpSocket>
#include <QTimer>
#include <algorithm>

namespace sf::test {

namespace {

QByteArray statusAndHeaders(const ScriptedResponse &response, const QByteArray &framing)
{
    QByteArray head =
        "HTTP/1.1 " + QByteArray::number(response.status) + ' ' + httpReasonPhrase(response.status) + "\r\n";
    for (const auto &[name, value] : response.headers) {
        head += name + ": " + value + "\r\n";
    }
    return head + framing + "\r\n";
}

} // namespace

ScriptedResponse ScriptedResponse::json(int status, const QByteArray &body)
{
    ScriptedResponse response;
    response.status = status;
    response.headers = {{"Content-Type", "application/json"}};
    response.body = body;
    return response;
}

ScriptedResponse ScriptedResponse::tooManyRequests(int retryAfterSeconds)
{
    ScriptedResponse response = json(429, R"({"error":{"message":"Rate limit reached","type":"rate_limit"}})");
    response.headers.emplaceBack("Retry-After", QByteArray::number(retryAfterSeconds));
    return response;
}

ScriptedResponse ScriptedResponse::streamed(const QList<QByteArray> &chunks, int pauseMs)
{
    ScriptedResponse response;
    response.headers = {{"Content-Type", "text/event-stream"}};
    response.chunks = chunks;
    response.chunkPauseMs = pauseMs;
    return response;
}

ScriptedResponse ScriptedResponse::abruptClose()
{
    ScriptedResponse response;
    response.closeAbruptly = true;
    return response;
}

QByteArray RecordedRequest::header(const QByteArray &name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0) {
            return value;
        }
    }
    return {};
}

ScriptedHttpServer::ScriptedHttpServer(QObject *parent)
    : QObject(parent)
{
    connect(&m_server, &QTcpServer::newConnection, this, &ScriptedHttpServer::onNewConnection);
}

ScriptedHttpServer::~ScriptedHttpServer()
{
    // Sockets announce their disconnection while dying; by then m_connections may be gone.
    const QList<QTcpSocket *> sockets = m_connections.keys();
    for (QTcpSocket *socket : sockets) {
        socket->disconnect(this);
        delete socket;
    }
}

bool ScriptedHttpServer::listen(quint16 port)
{
    // A client opening 64 connections at once (an evaluation at --concurrency 64) must not overflow the queue:
    // a dropped SYN is retried after a second, which is what a benchmark would then measure.
    m_server.setListenBacklogSize(1024);
    m_server.setMaxPendingConnections(1024);
    return m_server.listen(QHostAddress::LocalHost, port);
}

QUrl ScriptedHttpServer::baseUrl() const
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(QStringLiteral("127.0.0.1"));
    url.setPort(port());
    return url;
}

void ScriptedHttpServer::route(const QByteArray &method, const QByteArray &path, const ScriptedResponse &response)
{
    m_routes.insert(method + ' ' + path, {response});
}

void ScriptedHttpServer::routeSequence(const QByteArray &method, const QByteArray &path,
                                       const QList<ScriptedResponse> &responses)
{
    m_routes.insert(method + ' ' + path, responses);
}

int ScriptedHttpServer::requestCount(const QByteArray &path) const
{
    return int(std::count_if(m_requests.cbegin(), m_requests.cend(),
                             [&path](const RecordedRequest &request) { return request.path == path; }));
}

void ScriptedHttpServer::onNewConnection()
{
    while (QTcpSocket *socket = m_server.nextPendingConnection()) {
        ++m_connectionCount;
        m_connections.insert(socket, {});
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { processBuffer(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            m_connections.remove(socket);
            socket->deleteLater();
        });
    }
}

void ScriptedHttpServer::processBuffer(QTcpSocket *socket)
{
    auto it = m_connections.find(socket);
    if (it == m_connections.end()) {
        return;
    }
    it->buffer += socket->readAll();
    if (it->answering) {
        return; // HTTP/1.1 answers in order; the next request waits in the buffer
    }
    const qsizetype headerEnd = it->buffer.indexOf("\r\n\r\n");
    if (headerEnd < 0) {
        return;
    }
    const QList<QByteArray> lines = it->buffer.left(headerEnd).split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    RecordedRequest request;
    request.method = requestLine.value(0);
    request.target = requestLine.value(1);
    request.path =
        request.target.left(request.target.indexOf('?') < 0 ? request.target.size() : request.target.indexOf('?'));
    qsizetype contentLength = 0;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines.at(i).indexOf(':');
        if (colon > 0) {
            request.headers.emplaceBack(lines.at(i).left(colon).trimmed(), lines.at(i).mid(colon + 1).trimmed());
        }
    }
    contentLength = request.header("Content-Length").toLongLong();
    if (it->buffer.size() < headerEnd + 4 + contentLength) {
        return;
    }
    request.body = it->buffer.mid(headerEnd + 4, contentLength);
    it->buffer.remove(0, headerEnd + 4 + contentLength);
    it->answering = true;
    m_requests.append(request);
    answer(socket, responseFor(request));
}

void ScriptedHttpServer::routeHandler(const QByteArray &method, const QByteArray &path,
                                      std::function<ScriptedResponse(const RecordedRequest &)> handler)
{
    m_handlers.insert(method + ' ' + path, std::move(handler));
}

ScriptedResponse ScriptedHttpServer::responseFor(const RecordedRequest &request)
{
    if (const auto handler = m_handlers.constFind(request.method + ' ' + request.path); handler != m_handlers.cend())
        return (*handler)(request);
    auto it = m_routes.find(request.method + ' ' + request.path);
    if (it == m_routes.end() || it->isEmpty()) {
        return ScriptedResponse::json(404, R"({"error":{"message":"no such route"}})");
    }
    return it->size() > 1 ? it->takeFirst() : it->first();
}

void ScriptedHttpServer::answer(QTcpSocket *socket, const ScriptedResponse &response)
{
    if (response.delayMs > 0) {
        ScriptedResponse now = response;
        now.delayMs = 0;
        // Precise: a coarse timer may fire 5% late, 10 ms on a 200 ms latency, which benchmarks would count.
        QTimer::singleShot(response.delayMs, Qt::PreciseTimer, socket, [this, socket, now] { answer(socket, now); });
        return;
    }
    if (response.closeAbruptly) {
        socket->abort();
        return;
    }
    if (response.chunks.isEmpty()) {
        socket->write(
            statusAndHeaders(response, "Content-Length: " + QByteArray::number(response.body.size()) + "\r\n"));
        socket->write(response.body);
        finishAnswer(socket);
        return;
    }
    socket->write(statusAndHeaders(response, "Transfer-Encoding: chunked\r\n"));
    socket->flush();
    writeChunks(socket, response, 0);
}

void ScriptedHttpServer::writeChunks(QTcpSocket *socket, ScriptedResponse response, int sent)
{
    const bool outOfChunks = response.chunks.isEmpty();
    if (sent == response.resetAfterChunks || (outOfChunks && response.resetAfterChunks >= 0)) {
        socket->abort();
        return;
    }
    if (sent == response.stallAfterChunks || (outOfChunks && response.stallAfterChunks >= 0)) {
        return; // the connection stays open and silent until the client gives up
    }
    if (outOfChunks) {
        socket->write("0\r\n\r\n");
        finishAnswer(socket);
        return;
    }
    const QByteArray chunk = response.chunks.takeFirst();
    socket->write(QByteArray::number(chunk.size(), 16) + "\r\n" + chunk + "\r\n");
    socket->flush();
    QTimer::singleShot(response.chunkPauseMs, socket,
                       [this, socket, response, sent] { writeChunks(socket, response, sent + 1); });
}

void ScriptedHttpServer::finishAnswer(QTcpSocket *socket)
{
    socket->flush();
    auto it = m_connections.find(socket);
    if (it != m_connections.end()) {
        it->answering = false;
        if (!it->buffer.isEmpty()) {
            QTimer::singleShot(0, socket, [this, socket] { processBuffer(socket); });
        }
    }
}

} // namespace sf::test
