#pragma once

#include "HttpTypes.h"

#include <QObject>
#include <memory>

namespace sf {

namespace detail {
class ReplyLink;
}

/**
 * The caller's handle on one request sent through HttpEngine. It lives in the thread that called
 * send() and is owned by the caller; body data arrives as dataReceived() while the response streams
 * in, then finished() is emitted exactly once. Deleting it cancels the transfer.
 */
class HttpReply final : public QObject
{
    Q_OBJECT

public:
    ~HttpReply() override;

    const HttpResponse &response() const { return m_response; }
    bool isFinished() const { return m_finished; }
    /**
     * The HTTP status while the body streams in (0 before the first body byte), so a reader of
     * dataReceived() can tell an error body from the stream it asked for.
     */
    int status() const { return m_finished ? m_response.status : m_status; }

    /** Cancels the transfer; safe from any thread. finished() follows with HttpError::Cancelled. */
    void abort();

Q_SIGNALS:
    void dataReceived(const QByteArray &chunk);
    void finished();

private:
    friend class detail::ReplyLink;
    explicit HttpReply(std::shared_ptr<detail::ReplyLink> link);

    void deliverChunk(int status, const QByteArray &chunk);
    void deliverFinished(const HttpResponse &response);

    std::shared_ptr<detail::ReplyLink> m_link;
    HttpResponse m_response;
    int m_status = 0;
    bool m_finished = false;
};

/**
 * Deleter for owners of an HttpReply: aborts the transfer, disconnects the reply and deletes it
 * later, so an owner may drop its reply from inside the reply's own finished() signal.
 */
struct HttpReplyDeleter
{
    void operator()(HttpReply *reply) const;
};
using HttpReplyPtr = std::unique_ptr<HttpReply, HttpReplyDeleter>;

} // namespace sf
