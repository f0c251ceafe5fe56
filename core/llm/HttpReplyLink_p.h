#pragma once

#include "HttpTypes.h"

#include <QMutex>
#include <memory>

namespace sf {

class HttpReply;

namespace detail {

class CurlWorker;

/**
 * The bridge between one HttpReply (caller's thread) and its transfer (curl thread). The curl thread
 * posts through it only while the reply exists: the reply's destructor detaches under the same mutex,
 * and Qt drops events already posted to a deleted object.
 */
class ReplyLink final
{
public:
    ReplyLink(std::weak_ptr<CurlWorker> worker, quint64 id);

    static HttpReply *createReply(const std::shared_ptr<ReplyLink> &link);

    quint64 id() const { return m_id; }
    void detach();
    void abort();
    void postChunk(int status, const QByteArray &chunk);
    void postFinished(const HttpResponse &response);

private:
    QMutex m_mutex;
    HttpReply *m_reply = nullptr;
    const std::weak_ptr<CurlWorker> m_worker;
    const quint64 m_id;
};

} // namespace detail
} // namespace sf
