#include "HttpReply.h"

#include "CurlWorker_p.h"
#include "HttpReplyLink_p.h"

#include <QMetaObject>
#include <QMutexLocker>

namespace sf {

namespace detail {

ReplyLink::ReplyLink(std::weak_ptr<CurlWorker> worker, quint64 id)
    : m_worker(std::move(worker))
    , m_id(id)
{
}

HttpReply *ReplyLink::createReply(const std::shared_ptr<ReplyLink> &link)
{
    auto *reply = new HttpReply(link);
    QMutexLocker lock(&link->m_mutex);
    link->m_reply = reply;
    return reply;
}

void ReplyLink::detach()
{
    QMutexLocker lock(&m_mutex);
    m_reply = nullptr;
}

void ReplyLink::abort()
{
    if (const auto worker = m_worker.lock()) {
        worker->abort(m_id);
    }
}

void ReplyLink::postChunk(int status, const QByteArray &chunk)
{
    QMutexLocker lock(&m_mutex);
    if (HttpReply *reply = m_reply) {
        QMetaObject::invokeMethod(
            reply, [reply, status, chunk] { reply->deliverChunk(status, chunk); }, Qt::QueuedConnection);
    }
}

void ReplyLink::postFinished(const HttpResponse &response)
{
    QMutexLocker lock(&m_mutex);
    if (HttpReply *reply = m_reply) {
        QMetaObject::invokeMethod(
            reply, [reply, response] { reply->deliverFinished(response); }, Qt::QueuedConnection);
    }
}

} // namespace detail

HttpReply::HttpReply(std::shared_ptr<detail::ReplyLink> link)
    : m_link(std::move(link))
{
}

HttpReply::~HttpReply()
{
    m_link->detach();
    if (!m_finished) {
        m_link->abort();
    }
}

void HttpReply::abort()
{
    m_link->abort();
}

void HttpReply::deliverChunk(int status, const QByteArray &chunk)
{
    if (!m_finished) {
        m_status = status;
        Q_EMIT dataReceived(chunk);
    }
}

void HttpReply::deliverFinished(const HttpResponse &response)
{
    if (m_finished) {
        return;
    }
    m_finished = true;
    m_response = response;
    Q_EMIT finished();
}

void HttpReplyDeleter::operator()(HttpReply *reply) const
{
    if (!reply) {
        return;
    }
    if (!reply->isFinished()) {
        reply->abort();
    }
    reply->disconnect();
    reply->deleteLater();
}

} // namespace sf
