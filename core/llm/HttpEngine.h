#pragma once

#include "HttpTypes.h"

#include <QObject>
#include <memory>

namespace sf {

class HttpReply;

namespace detail {
class CurlWorker;
}

/**
 * Runs every HTTP request of the application on one libcurl-multi thread, so connections are
 * reused and HTTP/2 streams are multiplexed where the server offers them. send() may be called from
 * any thread; results come back to the reply's thread as queued calls. Destroying the engine stops
 * its thread and finishes the replies still in flight as Cancelled.
 */
class HttpEngine final : public QObject
{
    Q_OBJECT

public:
    explicit HttpEngine(QObject *parent = nullptr);
    ~HttpEngine() override;

    /** Starts the request; the returned reply is owned by the caller and lives in the calling thread. */
    [[nodiscard]] HttpReply *send(const HttpRequest &request);

private:
    std::shared_ptr<detail::CurlWorker> m_worker;
};

} // namespace sf
