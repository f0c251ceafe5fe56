#include "HttpEngine.h"

#include "CurlWorker_p.h"
#include "HttpReply.h"
#include "HttpReplyLink_p.h"

#include <curl/curl.h>
#include <mutex>

namespace sf {

HttpEngine::HttpEngine(QObject *parent)
    : QObject(parent)
{
    static std::once_flag curlInitialised;
    // Never paired with curl_global_cleanup: other engines may still run, and the process exit frees it.
    std::call_once(curlInitialised, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
    m_worker = std::make_shared<detail::CurlWorker>();
    m_worker->start();
}

HttpEngine::~HttpEngine()
{
    m_worker->stop();
}

HttpReply *HttpEngine::send(const HttpRequest &request)
{
    auto link = std::make_shared<detail::ReplyLink>(m_worker, m_worker->nextId());
    HttpReply *reply = detail::ReplyLink::createReply(link);
    m_worker->enqueue(std::move(link), request);
    return reply;
}

} // namespace sf
