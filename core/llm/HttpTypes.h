#pragma once

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QPair>
#include <QString>
#include <QUrl>

namespace sf {

using HttpHeaders = QList<QPair<QByteArray, QByteArray>>;

/** Why a request produced no complete HTTP response. */
enum class HttpError
{
    None,      // a response arrived (any status, including 4xx/5xx)
    Connect,   // the host could not be resolved or reached
    Timeout,   // connect, first-byte, idle or total deadline passed
    Cancelled, // HttpReply::abort() or the engine shut down
    Network,   // the connection broke or the response was malformed
};

/** One HTTP request for HttpEngine; timeouts are in milliseconds, 0 meaning "none". */
struct HttpRequest
{
    QUrl url;
    QByteArray method = QByteArrayLiteral("GET");
    HttpHeaders headers;
    QByteArray body;
    int connectTimeoutMs = 10000;
    int firstByteTimeoutMs = 120000; // from sending until the first response byte
    int idleTimeoutMs = 120000;      // longest silence once the response has started
    int totalTimeoutMs = 0;
};

/** What came back for an HttpRequest; `kind != None` means `status` and `body` are incomplete. */
struct HttpResponse
{
    int status = 0;
    HttpHeaders headers;
    QByteArray body;
    QString error;
    HttpError kind = HttpError::None;
    qint64 firstByteMs = 0;
    qint64 totalMs = 0;

    /** First header with this name, compared case-insensitively as HTTP requires. */
    QByteArray header(const QByteArray &name) const
    {
        for (const auto &[key, value] : headers) {
            if (key.compare(name, Qt::CaseInsensitive) == 0) {
                return value;
            }
        }
        return {};
    }
};

} // namespace sf

Q_DECLARE_METATYPE(sf::HttpResponse)
