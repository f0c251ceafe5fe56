#pragma once

#include "llm/HttpTypes.h"

#include <QByteArray>
#include <QString>
#include <optional>

namespace sf {

/** One HTTP/1.1 request as a client sent it to the door, its body already de-chunked. */
struct DoorHttpRequest
{
    QByteArray method;
    QByteArray path;  // without the query
    QByteArray query; // after the '?', empty when none
    QByteArray version;
    HttpHeaders headers;
    QByteArray body;
    bool keepAlive = true; // whether the client wants the connection kept for another request

    /** The first header of that name, compared case-insensitively. */
    QByteArray header(const QByteArray &name) const;
};

/**
 * Reads HTTP/1.1 requests out of a connection's bytes however they were split: bodies framed by
 * Content-Length or chunked, several requests back to back (keep-alive and pipelining). A request the
 * door cannot read is an error with the status to answer it with; the connection must then be closed,
 * since where the next request would start is unknown.
 */
class DoorRequestParser final
{
public:
    static constexpr qsizetype maxHeadBytes = 64 * 1024;
    static constexpr qsizetype maxBodyBytes = 64 * 1024 * 1024;

    void append(const QByteArray &bytes);
    /** The next request once all its bytes have arrived. */
    std::optional<DoorHttpRequest> next();

    bool hasError() const { return m_errorStatus != 0; }
    int errorStatus() const { return m_errorStatus; }
    const QString &error() const { return m_error; }

    /**
     * Whether the request being read asked `Expect: 100-continue` and none of its body has arrived: the client
     * waits for an interim "100 Continue" (continueSent() once written) before it sends the body.
     */
    bool wantsContinue() const;
    void continueSent() { m_continueSent = true; }

private:
    enum class Body
    {
        None,
        Length,
        Chunked,
    };

    bool parseHead();
    /** Whether the chunked body is complete; sets its bytes and where the request ends. */
    bool readChunkedBody(qsizetype &end);
    void fail(int status, const QString &message);

    QByteArray m_buffer;
    std::optional<DoorHttpRequest> m_head; // the request whose head has been read, waiting for its body
    qsizetype m_bodyStart = 0;
    Body m_bodyKind = Body::None;
    qsizetype m_contentLength = 0;
    bool m_expectsContinue = false;
    bool m_continueSent = false;
    int m_errorStatus = 0;
    QString m_error;
};

/** The reason phrase for a status code ("Too Many Requests"). */
QByteArray httpReasonPhrase(int status);

/** Status line and headers of a response, up to and including the blank line. */
QByteArray responseHead(int status, const HttpHeaders &headers);

/** Whether a header only concerns one connection (RFC 9110 §7.6.1) and so is never forwarded. */
bool isHopByHopHeader(const QByteArray &name);

} // namespace sf
