#include "CurlWorker_p.h"
#include "HttpReplyLink_p.h"
#include "LlmLogging.h"

#include <QElapsedTimer>
#include <QMutexLocker>
#include <algorithm>
#include <curl/curl.h>

using namespace Qt::StringLiterals;

namespace sf::detail {

struct Transfer
{
    quint64 id = 0;
    std::shared_ptr<ReplyLink> link;
    HttpRequest request;
    CURL *easy = nullptr;
    curl_slist *headerList = nullptr;
    HttpResponse response;
    QElapsedTimer clock;
    qint64 lastByteMs = -1; // -1 until the first response byte
    char errorBuffer[CURL_ERROR_SIZE] = {};

    ~Transfer()
    {
        curl_easy_cleanup(easy);
        curl_slist_free_all(headerList);
    }

    void noteByte()
    {
        lastByteMs = clock.elapsed();
        if (response.firstByteMs == 0) {
            response.firstByteMs = std::max<qint64>(1, lastByteMs);
        }
    }
};

namespace {

size_t onHeader(char *data, size_t size, size_t count, void *userdata)
{
    auto *transfer = static_cast<Transfer *>(userdata);
    const size_t bytes = size * count;
    transfer->noteByte();
    const QByteArray line = QByteArray(data, qsizetype(bytes)).trimmed();
    if (line.startsWith("HTTP/")) {
        transfer->response.headers.clear(); // a new status line: 100-continue or a redirect came first
    } else if (const qsizetype colon = line.indexOf(':'); colon > 0) {
        transfer->response.headers.emplaceBack(line.left(colon).trimmed(), line.mid(colon + 1).trimmed());
    }
    return bytes;
}

size_t onBody(char *data, size_t size, size_t count, void *userdata)
{
    auto *transfer = static_cast<Transfer *>(userdata);
    const size_t bytes = size * count;
    transfer->noteByte();
    if (transfer->response.status == 0) {
        long status = 0;
        curl_easy_getinfo(transfer->easy, CURLINFO_RESPONSE_CODE, &status);
        transfer->response.status = int(status);
    }
    const QByteArray chunk(data, qsizetype(bytes));
    transfer->response.body.append(chunk);
    transfer->link->postChunk(transfer->response.status, chunk);
    return bytes;
}

HttpError classify(CURLcode code)
{
    switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
        return HttpError::Connect;
    case CURLE_OPERATION_TIMEDOUT:
        return HttpError::Timeout;
    default:
        return HttpError::Network;
    }
}

QString loggableUrl(const QUrl &url)
{
    // Some providers accept keys as query parameters; those never reach a log.
    return url.toString(QUrl::RemoveUserInfo | QUrl::RemoveQuery);
}

} // namespace

CurlWorker::CurlWorker()
    : m_multi(curl_multi_init())
{
    curl_multi_setopt(m_multi, CURLMOPT_PIPELINING, long(CURLPIPE_MULTIPLEX));
}

CurlWorker::~CurlWorker()
{
    stop();
    curl_multi_cleanup(m_multi);
}

void CurlWorker::start()
{
    m_thread = std::thread([this] { run(); });
}

void CurlWorker::stop()
{
    {
        QMutexLocker lock(&m_mutex);
        m_stopping = true;
    }
    curl_multi_wakeup(m_multi);
    if (m_thread.joinable()) {
        m_thread.join();
    }
}

void CurlWorker::enqueue(std::shared_ptr<ReplyLink> link, HttpRequest request)
{
    const quint64 id = link->id();
    pushCommand(Command{Command::Kind::Add, id, std::move(link), std::move(request)});
}

void CurlWorker::abort(quint64 id)
{
    pushCommand(Command{Command::Kind::Abort, id, nullptr, {}});
}

void CurlWorker::pushCommand(Command command)
{
    {
        QMutexLocker lock(&m_mutex);
        m_commands.push_back(std::move(command));
    }
    curl_multi_wakeup(m_multi);
}

void CurlWorker::run()
{
    for (;;) {
        const bool stopping = drainCommands();
        if (stopping) {
            break;
        }
        int running = 0;
        curl_multi_perform(m_multi, &running);
        collectFinished();
        enforceDeadlines();
        curl_multi_poll(m_multi, nullptr, 0, pollTimeoutMs(), nullptr);
    }
    std::vector<quint64> ids;
    for (const auto &entry : m_transfers) {
        ids.push_back(entry.first);
    }
    for (const quint64 id : ids) {
        finish(id, HttpError::Cancelled, u"The HTTP engine shut down"_s);
    }
}

bool CurlWorker::drainCommands()
{
    std::vector<Command> commands;
    bool stopping = false;
    {
        QMutexLocker lock(&m_mutex);
        commands.swap(m_commands);
        stopping = m_stopping;
    }
    for (Command &command : commands) {
        if (stopping && command.kind == Command::Kind::Add) {
            HttpResponse response;
            response.kind = HttpError::Cancelled;
            response.error = u"The HTTP engine shut down"_s;
            command.link->postFinished(response);
        } else if (command.kind == Command::Kind::Add) {
            addTransfer(command);
        } else if (m_transfers.count(command.id) != 0) {
            finish(command.id, HttpError::Cancelled, u"Cancelled"_s);
        }
    }
    return stopping;
}

void CurlWorker::addTransfer(Command &command)
{
    auto transfer = std::make_unique<Transfer>();
    transfer->id = command.id;
    transfer->link = std::move(command.link);
    transfer->request = std::move(command.request);
    transfer->clock.start();
    const HttpRequest &request = transfer->request;

    CURL *easy = curl_easy_init();
    transfer->easy = easy;
    curl_easy_setopt(easy, CURLOPT_URL, request.url.toEncoded().constData());
    curl_easy_setopt(easy, CURLOPT_PRIVATE, transfer.get());
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, long(CURL_HTTP_VERSION_2TLS));
    // Over TLS, wait to multiplex on a connection whose HTTP/2 the handshake is negotiating. Plain http:// is
    // HTTP/1.1 here (CURL_HTTP_VERSION_2TLS), but curl learns that only from the first response: waiting would
    // hold every other request to the host (a local server, a test) until that response came.
    if (request.url.scheme() == QLatin1String("https"))
        curl_easy_setopt(easy, CURLOPT_PIPEWAIT, 1L);
    curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, transfer->errorBuffer);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, &onHeader);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, transfer.get());
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &onBody);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, transfer.get());
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, long(request.connectTimeoutMs));
    curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, long(request.totalTimeoutMs));

    if (request.method == "GET") {
        curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
    } else if (request.method == "HEAD") {
        curl_easy_setopt(easy, CURLOPT_NOBODY, 1L);
    } else {
        if (request.method != "POST") {
            curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, request.method.constData());
        }
        // The body lives in the Transfer until curl is done with it, so curl need not copy it.
        curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(request.body.size()));
        curl_easy_setopt(easy, CURLOPT_POSTFIELDS, request.body.constData());
    }

    // An empty Expect stops curl waiting for "100 Continue", which many API servers never send.
    transfer->headerList = curl_slist_append(transfer->headerList, "Expect:");
    for (const auto &[name, value] : request.headers) {
        transfer->headerList = curl_slist_append(transfer->headerList, QByteArray(name + ": " + value).constData());
    }
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, transfer->headerList);

    curl_multi_add_handle(m_multi, easy);
    m_transfers.emplace(transfer->id, std::move(transfer));
}

void CurlWorker::collectFinished()
{
    int queued = 0;
    while (CURLMsg *message = curl_multi_info_read(m_multi, &queued)) {
        if (message->msg != CURLMSG_DONE) {
            continue;
        }
        Transfer *transfer = nullptr;
        curl_easy_getinfo(message->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char **>(&transfer));
        const CURLcode code = message->data.result;
        if (code == CURLE_OK) {
            long status = 0;
            curl_easy_getinfo(transfer->easy, CURLINFO_RESPONSE_CODE, &status);
            transfer->response.status = int(status);
            finish(transfer->id, HttpError::None, {});
        } else {
            const QString detail = transfer->errorBuffer[0] != '\0' ? QString::fromUtf8(transfer->errorBuffer)
                                                                    : QString::fromUtf8(curl_easy_strerror(code));
            finish(transfer->id, classify(code), detail);
        }
    }
}

void CurlWorker::enforceDeadlines()
{
    std::vector<std::pair<quint64, QString>> expired;
    for (const auto &[id, transfer] : m_transfers) {
        const qint64 now = transfer->clock.elapsed();
        const HttpRequest &request = transfer->request;
        if (transfer->lastByteMs < 0 && request.firstByteTimeoutMs > 0 && now >= request.firstByteTimeoutMs) {
            expired.emplace_back(id, u"No response within %1 ms"_s.arg(request.firstByteTimeoutMs));
        } else if (transfer->lastByteMs >= 0 && request.idleTimeoutMs > 0 &&
                   now - transfer->lastByteMs >= request.idleTimeoutMs) {
            expired.emplace_back(id, u"The response stalled for %1 ms"_s.arg(request.idleTimeoutMs));
        }
    }
    for (const auto &[id, reason] : expired) {
        finish(id, HttpError::Timeout, reason);
    }
}

int CurlWorker::pollTimeoutMs() const
{
    // curl_multi_poll also honours curl's own timers; this only bounds our first-byte and idle deadlines.
    qint64 wait = 1000;
    for (const auto &[id, transfer] : m_transfers) {
        const qint64 now = transfer->clock.elapsed();
        const HttpRequest &request = transfer->request;
        if (transfer->lastByteMs < 0 && request.firstByteTimeoutMs > 0) {
            wait = std::min(wait, request.firstByteTimeoutMs - now);
        } else if (transfer->lastByteMs >= 0 && request.idleTimeoutMs > 0) {
            wait = std::min(wait, transfer->lastByteMs + request.idleTimeoutMs - now);
        }
    }
    return int(std::max<qint64>(wait, 1));
}

void CurlWorker::finish(quint64 id, HttpError kind, const QString &error)
{
    auto node = m_transfers.extract(id);
    if (node.empty()) {
        return;
    }
    std::unique_ptr<Transfer> transfer = std::move(node.mapped());
    curl_multi_remove_handle(m_multi, transfer->easy);
    HttpResponse &response = transfer->response;
    response.kind = kind;
    response.error = error;
    // Rounded up: a response that took 0.3 ms still took time, and callers divide by it.
    response.totalMs = (transfer->clock.nsecsElapsed() + 999999) / 1000000;
    if (kind != HttpError::None) {
        response.status = 0;
    }
    if (kind == HttpError::None) {
        qCDebug(lcHttp).noquote() << transfer->request.method << loggableUrl(transfer->request.url) << "->"
                                  << response.status << "in" << response.totalMs << "ms";
    } else {
        qCDebug(lcHttp).noquote() << transfer->request.method << loggableUrl(transfer->request.url)
                                  << "failed:" << error;
    }
    transfer->link->postFinished(response);
}

} // namespace sf::detail
