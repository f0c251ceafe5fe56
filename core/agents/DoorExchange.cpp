#include "DoorExchange_p.h"
#include "llm/AnthropicMessagesFormat.h"
#include "llm/HttpEngine.h"
#include "llm/LocalModelServer.h"

#include <QLocalSocket>
#include <QTcpSocket>
#include <algorithm>

using namespace Qt::StringLiterals;

namespace sf::detail {

namespace {

const QString forwardedRoutes =
    u"POST /v1/messages, POST /v1/messages/count_tokens, POST /v1/responses and GET /v1/models"_s;

/** Upstream headers worth passing back: not the framing, which the door redoes, nor the encoding curl undid. */
HttpHeaders answerHeaders(const HttpHeaders &upstream)
{
    static const QByteArrayList dropped{"content-length", "content-encoding", "set-cookie"};
    HttpHeaders headers;
    for (const auto &[name, value] : upstream) {
        if (!isHopByHopHeader(name) && !dropped.contains(name.toLower())) {
            headers.emplaceBack(name, value);
        }
    }
    return headers;
}

} // namespace

// ----- DoorConnection -----

DoorConnection::DoorConnection(ModelDoor &door, QIODevice *socket)
    : QObject(&door)
    , m_door(door)
    , m_socket(socket)
{
    socket->setParent(this);
    connect(socket, &QIODevice::readyRead, this, &DoorConnection::onReadyRead);
    if (auto *tcp = qobject_cast<QTcpSocket *>(socket)) {
        connect(tcp, &QTcpSocket::disconnected, this, &DoorConnection::onDisconnected);
    } else if (auto *local = qobject_cast<QLocalSocket *>(socket)) {
        connect(local, &QLocalSocket::disconnected, this, &DoorConnection::onDisconnected);
    }
}

DoorConnection::~DoorConnection()
{
    m_socket->disconnect(this);
}

void DoorConnection::onReadyRead()
{
    m_parser.append(m_socket->readAll());
    while (std::optional<DoorHttpRequest> request = m_parser.next()) {
        m_waiting.enqueue(std::move(*request));
    }
    serveNext();
}

void DoorConnection::serveNext()
{
    if (m_exchange || m_gone || m_closeAfterAnswer) {
        return;
    }
    if (!m_waiting.isEmpty()) {
        DoorHttpRequest request = m_waiting.dequeue();
        m_closeAfterAnswer = !request.keepAlive;
        m_headRequest = request.method == "HEAD";
        m_exchange = new DoorExchange(m_door, *this, std::move(request));
        m_exchange->start();
        return;
    }
    if (m_parser.wantsContinue()) {
        // Only now, with no answer being written: an interim response must not land inside another one.
        m_parser.continueSent();
        write("HTTP/1.1 100 Continue\r\n\r\n");
        return;
    }
    if (m_parser.hasError()) {
        m_closeAfterAnswer = true;
        m_headRequest = false;
        const DoorWire wire = doorWireOf(DoorRoute::Unknown, m_door.m_provider.format);
        writeWhole(m_parser.errorStatus(), {{"Content-Type", "application/json"}},
                   doorErrorBody(wire, m_parser.errorStatus(), m_parser.error()));
        closeGracefully();
    }
}

void DoorConnection::writeWhole(int status, HttpHeaders headers, const QByteArray &body)
{
    headers.emplaceBack("Content-Length", QByteArray::number(body.size()));
    if (m_closeAfterAnswer) {
        headers.emplaceBack("Connection", "close");
    }
    write(responseHead(status, headers) + (m_headRequest ? QByteArray() : body));
}

void DoorConnection::beginStream(int status, HttpHeaders headers)
{
    headers.emplaceBack("Transfer-Encoding", "chunked");
    if (m_closeAfterAnswer) {
        headers.emplaceBack("Connection", "close");
    }
    write(responseHead(status, headers));
}

void DoorConnection::writeStreamChunk(const QByteArray &bytes)
{
    if (!bytes.isEmpty()) {
        write(QByteArray::number(bytes.size(), 16) + "\r\n" + bytes + "\r\n");
    }
}

void DoorConnection::endStream()
{
    write("0\r\n\r\n");
}

void DoorConnection::breakOff()
{
    // Marked gone first: aborting emits disconnected(), which must not be taken for the client leaving.
    m_gone = true;
    if (auto *tcp = qobject_cast<QTcpSocket *>(m_socket)) {
        tcp->abort();
    } else if (auto *local = qobject_cast<QLocalSocket *>(m_socket)) {
        local->abort();
    }
}

void DoorConnection::exchangeDone()
{
    if (m_exchange) {
        m_exchange->deleteLater();
        m_exchange = nullptr;
    }
    if (m_gone) {
        m_door.forget(this);
        deleteLater();
        return;
    }
    if (m_closeAfterAnswer) {
        closeGracefully();
        return;
    }
    serveNext();
}

void DoorConnection::shutDown(const QString &reason)
{
    if (m_exchange) {
        m_exchange->abort(reason);
        m_exchange->deleteLater();
        m_exchange = nullptr;
    }
    breakOff();
    deleteLater();
}

void DoorConnection::onDisconnected()
{
    if (m_gone) {
        return;
    }
    m_gone = true;
    if (m_exchange) {
        m_exchange->abort(u"The CLI closed the connection before the answer ended"_s);
        m_exchange->deleteLater();
        m_exchange = nullptr;
    }
    m_door.forget(this);
    deleteLater();
}

void DoorConnection::closeGracefully()
{
    // Both wait for the answer still being written before they close.
    if (auto *tcp = qobject_cast<QTcpSocket *>(m_socket)) {
        tcp->disconnectFromHost();
    } else if (auto *local = qobject_cast<QLocalSocket *>(m_socket)) {
        local->disconnectFromServer();
    }
}

void DoorConnection::write(const QByteArray &bytes)
{
    if (!m_gone && m_socket->isOpen()) {
        m_socket->write(bytes);
    }
}

// ----- DoorExchange -----

DoorExchange::DoorExchange(ModelDoor &door, DoorConnection &connection, DoorHttpRequest request)
    : QObject(&connection)
    , m_door(door)
    , m_connection(connection)
    , m_request(std::move(request))
    , m_route(doorRouteOf(m_request.method, m_request.path))
    , m_wire(doorWireOf(m_route, door.m_provider.format))
    , m_meter(m_wire)
{
    m_clock.start();
}

DoorExchange::~DoorExchange() = default;

void DoorExchange::start()
{
    if (m_route == DoorRoute::Unknown) {
        answerError(404, u"Skillforge's door forwards only %1 to the model, not %2 %3"_s.arg(
                             forwardedRoutes, QString::fromUtf8(m_request.method), QString::fromUtf8(m_request.path)));
        return;
    }
    if (m_door.budgetExhausted()) {
        const QString message =
            u"The item's token budget is spent (%1 tokens used of %2): Skillforge's door refuses further model requests"_s
                .arg(m_door.totalTokens())
                .arg(m_door.limits().maxTotalTokens);
        // Each CLI stops at once on its own terms: Claude Code's SDK retries a 400 but honours x-should-retry on a
        // 429; Codex retries a 429 (and hides its message) but stops at a 400 and prints it.
        if (m_wire == DoorWire::AnthropicMessages) {
            answerError(429, message, {{"x-should-retry", "false"}});
        } else {
            answerError(400, message);
        }
        return;
    }
    if (const QByteArray encoding = m_request.header("Content-Encoding");
        !encoding.isEmpty() && encoding.compare("identity", Qt::CaseInsensitive) != 0) {
        answerError(415, u"Skillforge's door reads request bodies uncompressed, not as '%1'"_s.arg(
                             QString::fromLatin1(encoding)));
        return;
    }
    if (m_request.method == "POST") {
        Result<DoorBodyRewrite> rewrite =
            rewriteDoorRequestBody(m_route, m_request.body, m_door.m_modelId, m_door.limits().maxOutputTokens,
                                   m_door.m_local && m_door.m_provider.name == "local"_L1);
        if (!rewrite) {
            answerError(400, rewrite.error);
            return;
        }
        m_rewrite = std::move(*rewrite.value);
    }
    resolveUpstream(true);
}

void DoorExchange::resolveUpstream(bool mayStart)
{
    if (m_door.m_provider.name != "local"_L1) {
        send(m_door.m_provider.baseUrl);
        return;
    }
    // The embedded server may have restarted on another port since the last request: asked every time.
    LocalModelServer *local = m_door.m_local;
    if (mayStart) {
        local->ensureStarted();
    }
    switch (local->state()) {
    case LocalModelServer::State::Ready:
        send(local->baseUrl());
        return;
    case LocalModelServer::State::Failed:
    case LocalModelServer::State::Stopped:
        answerError(502, u"The embedded model server failed: %1"_s.arg(local->errorString()));
        return;
    case LocalModelServer::State::Starting:
        break;
    }
    m_localConnections = {
        connect(local, &LocalModelServer::ready, this, [this](const QUrl &baseUrl) { send(baseUrl); }),
        connect(local, &LocalModelServer::failed, this,
                [this](const QString &message) {
                    answerError(502, u"The embedded model server failed: %1"_s.arg(message));
                }),
    };
}

void DoorExchange::send(const QUrl &baseUrl)
{
    dropLocalConnections();
    const ProviderConfig &provider = m_door.m_provider;
    HttpRequest request;
    request.url = doorUpstreamUrl(baseUrl, m_request.path, m_request.query);
    request.method = m_request.method;
    request.headers = doorUpstreamHeaders(m_request.headers, provider, m_door.m_apiKey);
    request.body = m_rewrite.body;
    request.connectTimeoutMs = provider.connectTimeoutMs;
    request.firstByteTimeoutMs = provider.firstByteTimeoutMs;
    request.idleTimeoutMs = provider.idleTimeoutMs;
    if (!m_sendClock.isValid()) {
        m_sendClock.start();
    }
    if (const int limit = m_door.limits().requestTimeoutMs; limit > 0) {
        // One limit for the request, resends included: a resend gets what is left of it, not a fresh one.
        const int left = int(std::max<qint64>(0, limit - m_sendClock.elapsed()));
        if (left == 0) {
            answerError(504, u"The model endpoint did not answer in time: the request's limit of %1 ms was spent "
                             u"before it could be sent again"_s.arg(limit));
            return;
        }
        request.totalTimeoutMs = left;
        request.connectTimeoutMs = std::min(request.connectTimeoutMs, left);
        // The wait for the first byte is the item's to decide: a CPU can take longer than a provider's default
        // wait to read a CLI's first prompt (about 11,000 tokens for Claude Code), and a streamed reply says
        // nothing until it has.
        request.firstByteTimeoutMs = left;
        request.idleTimeoutMs = std::min(request.idleTimeoutMs, left);
    }
    m_reply.reset(m_door.m_engine.send(request));
    connect(m_reply.get(), &HttpReply::dataReceived, this, &DoorExchange::onData);
    connect(m_reply.get(), &HttpReply::finished, this, &DoorExchange::onFinished);
}

void DoorExchange::onData(const QByteArray &chunk)
{
    const int status = m_reply->status();
    if (status < 200 || status >= 300) {
        return; // an error body goes back whole, with the provider's headers, once it is complete
    }
    m_meter.feed(chunk);
    if (!m_rewrite.stream || m_answerWhole) {
        return;
    }
    if (m_streaming) {
        m_connection.writeStreamChunk(chunk);
        return;
    }
    m_undecided += chunk;
    const QByteArray start = m_undecided.trimmed();
    if (start.isEmpty()) {
        return; // nothing yet to tell an event stream from a JSON body
    }
    if (start.startsWith('{')) {
        m_answerWhole = true; // a provider that ignored "stream": the JSON goes back whole, with its headers
        m_undecided.clear();
        return;
    }
    m_streaming = true;
    m_connection.beginStream(status, {{"Content-Type", "text/event-stream"}, {"Cache-Control", "no-cache"}});
    m_connection.writeStreamChunk(std::exchange(m_undecided, {}));
}

void DoorExchange::onFinished()
{
    const HttpReplyPtr reply = std::move(m_reply); // deleted later, after this function is done with it
    const HttpResponse &response = reply->response();
    if (response.kind != HttpError::None) {
        // The embedded server died (or was killed as hung) before a byte of its answer went to the CLI: the same
        // request goes to the restarted server, as the built-in student's retry does, rather than costing the CLI
        // one of its own retries.
        constexpr int maxResends = 2;
        if (!m_streaming && m_door.m_provider.name == "local"_L1 &&
            (response.kind == HttpError::Connect || response.kind == HttpError::Network) && m_resends < maxResends) {
            ++m_resends;
            // What the broken attempt delivered is not part of the answer: only the resent one is read.
            m_meter = DoorUsageMeter(m_wire);
            m_undecided.clear();
            m_answerWhole = false;
            resolveUpstream(false);
            return;
        }
        if (m_streaming) {
            m_connection.breakOff();
            end(200, u"The model's stream broke off: %1"_s.arg(response.error), m_meter.finish());
        } else if (response.kind == HttpError::Timeout) {
            answerError(504, u"The model endpoint did not answer in time: %1"_s.arg(response.error));
        } else {
            answerError(502, u"Skillforge's door could not reach the model endpoint: %1"_s.arg(response.error));
        }
        return;
    }
    const bool success = response.status >= 200 && response.status < 300;
    const DoorUsageReading reading = success ? m_meter.finish() : DoorUsageReading{};
    if (m_streaming) {
        m_connection.endStream();
    } else {
        m_connection.writeWhole(response.status, answerHeaders(response.headers), response.body);
    }
    QString error;
    if (!success) {
        error = AnthropicMessagesFormat::errorMessage(response.body); // both wires nest it as error.message
        if (error.isEmpty()) {
            error = u"HTTP %1 from the model endpoint"_s.arg(response.status);
        }
    } else if (!reading.streamError.isEmpty()) {
        error = reading.streamError;
    } else if (!reading.found && (m_route == DoorRoute::Messages || m_route == DoorRoute::Responses)) {
        error = u"The response reported no token usage"_s;
    }
    end(response.status, error, reading);
}

void DoorExchange::abort(const QString &reason)
{
    if (m_ended) {
        return;
    }
    m_aborting = true;
    m_reply.reset();
    dropLocalConnections();
    // Tokens of a stream cut short were spent all the same: what it reported so far counts.
    end(m_streaming ? 200 : 0, reason, m_streaming ? m_meter.finish() : DoorUsageReading{});
}

void DoorExchange::answerError(int status, const QString &message, HttpHeaders extraHeaders)
{
    dropLocalConnections();
    HttpHeaders headers{{"Content-Type", "application/json"}};
    headers.append(extraHeaders);
    m_connection.writeWhole(status, headers, doorErrorBody(m_wire, status, message));
    end(status, message);
}

void DoorExchange::end(int status, const QString &error, const DoorUsageReading &reading)
{
    if (m_ended) {
        return;
    }
    m_ended = true;
    DoorRequestRecord record;
    record.method = QString::fromUtf8(m_request.method);
    record.path = QString::fromUtf8(m_request.path);
    record.status = status;
    record.model = reading.model.isEmpty() ? m_door.m_modelId : reading.model;
    record.requestedModel = m_rewrite.requestedModel;
    record.usage = reading.usage;
    record.latencyMs = m_clock.elapsed();
    record.streamed = m_streaming;
    record.error = error;
    m_door.record(record);
    if (!m_aborting) {
        m_connection.exchangeDone();
    }
}

void DoorExchange::dropLocalConnections()
{
    for (const QMetaObject::Connection &connection : std::as_const(m_localConnections)) {
        disconnect(connection);
    }
    m_localConnections.clear();
}

} // namespace sf::detail
