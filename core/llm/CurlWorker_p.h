#pragma once

#include "HttpTypes.h"

#include <QMutex>
#include <atomic>
#include <curl/curl.h>
#include <memory>
#include <thread>
#include <unordered_map>
#include <vector>

namespace sf::detail {

class ReplyLink;
struct Transfer;

/**
 * The libcurl-multi loop behind HttpEngine. Other threads only queue commands and wake the loop;
 * every curl handle is touched by the loop's own thread alone.
 */
class CurlWorker final : public std::enable_shared_from_this<CurlWorker>
{
public:
    CurlWorker();
    ~CurlWorker();
    CurlWorker(const CurlWorker &) = delete;
    CurlWorker &operator=(const CurlWorker &) = delete;

    void start();
    /** Finishes every transfer as Cancelled and joins the thread. */
    void stop();

    quint64 nextId() { return ++m_lastId; }
    void enqueue(std::shared_ptr<ReplyLink> link, HttpRequest request);
    void abort(quint64 id);

private:
    struct Command
    {
        enum class Kind
        {
            Add,
            Abort
        } kind;
        quint64 id = 0;
        std::shared_ptr<ReplyLink> link;
        HttpRequest request;
    };

    void run();
    void pushCommand(Command command);
    bool drainCommands();
    void addTransfer(Command &command);
    void collectFinished();
    void enforceDeadlines();
    int pollTimeoutMs() const;
    void finish(quint64 id, HttpError kind, const QString &error);

    CURLM *m_multi = nullptr;
    std::thread m_thread;
    std::atomic<quint64> m_lastId{0};

    QMutex m_mutex; // guards m_commands and m_stopping
    std::vector<Command> m_commands;
    bool m_stopping = false;

    std::unordered_map<quint64, std::unique_ptr<Transfer>> m_transfers; // loop thread only
};

} // namespace sf::detail
