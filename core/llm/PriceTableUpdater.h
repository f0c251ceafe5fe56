#pragma once

#include "HttpReply.h"
#include "usage/PriceTableUpdate.h"

#include <QObject>

namespace sf {

class HttpEngine;

/**
 * Takes a newer price table from a file or an http(s) URL and installs it (installPriceTable): what
 * `skillforge prices update` and the app's "Update Prices…" run. One update at a time; finished() or failed()
 * follows each update() exactly once, and on failure the prices in use are kept.
 */
class PriceTableUpdater final : public QObject
{
    Q_OBJECT

public:
    explicit PriceTableUpdater(HttpEngine &engine, QObject *parent = nullptr);

    /** Starts an update from @p fileOrUrl; an empty one means genai-prices' own published table. */
    void update(const QString &fileOrUrl);

Q_SIGNALS:
    void finished(const sf::PriceTableSummary &summary, const QString &source);
    void failed(const QString &message);

private:
    void install(const QByteArray &bytes, const QString &source);

    HttpEngine &m_engine;
    HttpReplyPtr m_reply;
};

} // namespace sf
