#pragma once

#include "ChatTypes.h"
#include "HttpReply.h"
#include "ModelName.h"
#include "ProviderConfig.h"

#include <QObject>
#include <QPointer>

namespace sf {

class ChatClient;

/**
 * One chat request in flight, made by ChatClient::chat(). Exactly one of finished() or failed() is
 * emitted, always after chat() has returned. Owned by the caller (parented to the client until
 * then); deleting it cancels the request.
 */
class ChatCall final : public QObject
{
    Q_OBJECT

public:
    ~ChatCall() override;

    QString modelName() const { return m_modelText; }
    bool isDone() const { return m_done; }

    /** Stops the request; failed("Cancelled") follows unless it already finished. */
    void cancel();

Q_SIGNALS:
    void finished(const sf::ChatResponse &response);
    void failed(const QString &message);

private:
    friend class ChatClient;
    ChatCall(ChatClient *client, QString modelText, ChatRequest request);

    void send(const QUrl &baseUrl);
    void onReplyFinished();
    void succeed(ChatResponse response);
    void fail(const QString &message);
    void release();
    void dropLocalConnections();

    QPointer<ChatClient> m_client;
    QString m_modelText;
    ChatRequest m_request;
    ModelName m_name;
    ProviderConfig m_provider;
    QString m_apiKey;
    HttpReplyPtr m_reply;
    QList<QMetaObject::Connection> m_localConnections;
    bool m_holdsSlot = false;
    bool m_done = false;
};

} // namespace sf
