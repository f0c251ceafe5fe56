#include "PriceTableUpdater.h"

#include "HttpEngine.h"

#include <QFile>
#include <QTimer>
#include <QUrl>

using namespace Qt::StringLiterals;

namespace sf {

PriceTableUpdater::PriceTableUpdater(HttpEngine &engine, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
{
}

void PriceTableUpdater::update(const QString &fileOrUrl)
{
    const QString source = fileOrUrl.isEmpty() ? defaultPriceTableUrl() : fileOrUrl;
    const QUrl url(source);
    if (url.scheme() != "http"_L1 && url.scheme() != "https"_L1) {
        const QString path = url.isLocalFile() ? url.toLocalFile() : source;
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {
            // Reported from the event loop, as a download's result is, so callers connect once and start.
            QTimer::singleShot(0, this, [this, path, why = file.errorString()] {
                Q_EMIT failed(u"%1: cannot be read: %2; the prices in use are kept"_s.arg(path, why));
            });
            return;
        }
        QTimer::singleShot(0, this, [this, bytes = file.readAll(), path] { install(bytes, path); });
        return;
    }
    HttpRequest request;
    request.url = url;
    request.totalTimeoutMs = 60000;
    m_reply.reset(m_engine.send(request));
    connect(m_reply.get(), &HttpReply::finished, this, [this, source] {
        const HttpResponse response = m_reply->response();
        m_reply.reset();
        if (response.kind != HttpError::None) {
            Q_EMIT failed(u"%1: cannot be downloaded: %2; the prices in use are kept"_s.arg(source, response.error));
        } else if (response.status != 200) {
            Q_EMIT failed(
                u"%1: the server answered HTTP %2; the prices in use are kept"_s.arg(source).arg(response.status));
        } else {
            install(response.body, source);
        }
    });
}

void PriceTableUpdater::install(const QByteArray &bytes, const QString &source)
{
    const Result<PriceTableSummary> installed = installPriceTable(bytes, source);
    if (installed)
        Q_EMIT finished(*installed.value, source);
    else
        Q_EMIT failed(installed.error);
}

} // namespace sf
