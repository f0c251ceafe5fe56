#pragma once

#include "DoorHttp.h"
#include "DoorUsage.h"
#include "DoorWire.h"
#include "ModelDoor.h"
#include "llm/HttpReply.h"

#include <QElapsedTimer>
#include <QObject>
#include <QQueue>
#include <optional>

class QIODevice;

namespace sf::detail {

class DoorExchange;

/**
 * One client connection to the door: reads its requests in order and answers them one at a time (HTTP/1.1
 * keeps answers in request order), keeping the connection for the next one unless the client asked not to.
 */
class DoorConnection final : public QObject
{
    Q_OBJECT

public:
    /** Takes ownership of `socket` (a QTcpSocket or QLocalSocket). */
    DoorConnection(ModelDoor &door, QIODevice *socket);
    ~DoorConnection() override;

    bool isBusy() const { return m_exchange != nullptr; }

    /** A whole response with a Content-Length (no body on a HEAD request). */
    void writeWhole(int status, HttpHeaders headers, const QByteArray &body);
    /** The head of a response whose body follows in chunks. */
    void beginStream(int status, HttpHeaders headers);
    void writeStreamChunk(const QByteArray &bytes);
    void endStream();
    /** Drops the connection at once, so a client reading a stream sees it cut short rather than complete. */
    void breakOff();
    /** The current exchange has answered: go on with the next request, or close if the client asked to. */
    void exchangeDone();
    /** Aborts the exchange in flight (recorded with `reason`) and the connection; the door is closing. */
    void shutDown(const QString &reason);

private:
    void onReadyRead();
    void serveNext();
    void onDisconnected();
    void closeGracefully();
    void write(const QByteArray &bytes);

    ModelDoor &m_door;
    QIODevice *m_socket;
    DoorRequestParser m_parser;
    QQueue<DoorHttpRequest> m_waiting;
    DoorExchange *m_exchange = nullptr;
    bool m_closeAfterAnswer = false; // the client asked to close once this answer is written
    bool m_headRequest = false;      // the answer being written is to a HEAD request: no body
    bool m_gone = false;             // the socket is closed or going: nothing more is written
};

/**
 * One request on its way through the door: refused at once, or forwarded to the provider with the body
 * and headers rewritten, its answer written back as it arrives, and its record made when it ends.
 */
class DoorExchange final : public QObject
{
    Q_OBJECT

public:
    DoorExchange(ModelDoor &door, DoorConnection &connection, DoorHttpRequest request);
    ~DoorExchange() override;

    void start();
    /** The client went away or the door is closing: stop the upstream request and record why. */
    void abort(const QString &reason);

private:
    /// Sends the request to the item's model; for the embedded one, to the address its server has now.
    /// @p mayStart: start that server when it is stopped or has failed (not when sending again after a fault).
    void resolveUpstream(bool mayStart);
    void send(const QUrl &baseUrl);
    void onData(const QByteArray &chunk);
    void onFinished();
    /** Answers with an error in the request's wire shape and records it. */
    void answerError(int status, const QString &message, HttpHeaders extraHeaders = {});
    void end(int status, const QString &error, const DoorUsageReading &reading = {});
    void dropLocalConnections();

    ModelDoor &m_door;
    DoorConnection &m_connection;
    const DoorHttpRequest m_request;
    const DoorRoute m_route;
    const DoorWire m_wire;
    DoorBodyRewrite m_rewrite;
    DoorUsageMeter m_meter;
    HttpReplyPtr m_reply;
    QElapsedTimer m_clock;     // since the request arrived: its latency
    QElapsedTimer m_sendClock; // since it was first sent upstream: what the request's time limit counts
    QList<QMetaObject::Connection> m_localConnections;
    bool m_streaming = false;   // the head went out and the body is being streamed through
    int m_resends = 0;          // to the embedded server, after it died or hung before answering
    QByteArray m_undecided;     // the first bytes of a streaming request's answer, until they show its kind
    bool m_answerWhole = false; // a streaming request answered with one JSON body
    bool m_aborting = false;
    bool m_ended = false;
};

} // namespace sf::detail
