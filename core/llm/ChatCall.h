#pragma once

#include "ChatTypes.h"
#include "HttpReply.h"
#include "ModelName.h"
#include "ProviderConfig.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <memory>

namespace sf {

class ChatClient;
class ChatStreamDecoder;

/**
 * One chat request in flight, made by ChatClient::chat(). Exactly one of finished() or failed() is
 * emitted, always after chat() has returned. Owned by the caller (parented to the client until
 * then); deleting it cancels the request.
 *
 * Failed attempts that may succeed when repeated (busy or broken provider, dropped connection,
 * stalled or truncated stream) are retried with backoff; each is announced by retrying() and kept
 * in attempts(). A retry to the embedded server goes to the address it has then: one that died or hung
 * was restarted on another port. A streaming request (ChatRequest::stream) emits deltas as they arrive; after
 * retrying() the reply starts again from scratch, so whatever the deltas built must be dropped.
 */
class ChatCall final : public QObject
{
    Q_OBJECT

public:
    ~ChatCall() override;

    QString modelName() const { return m_modelText; }
    bool isDone() const { return m_done; }
    /** Whether it failed because the request did not fit the model's context window (never retried). */
    bool exceededContext() const { return m_exceededContext; }
    /** Every attempt so far, including the failed ones (also in ChatResponse::attempts). */
    const QList<ChatAttempt> &attempts() const { return m_attempts; }

    /** Stops the request at once; failed("Cancelled") follows unless it already finished. */
    void cancel();

Q_SIGNALS:
    void finished(const sf::ChatResponse &response);
    void failed(const QString &message);

    void textDelta(const QString &text);
    void thinkingDelta(const QString &text);
    /** A new tool call (`id` and `name` set) or a fragment of the arguments of call `index`. */
    void toolCallDelta(int index, const QString &id, const QString &name, const QByteArray &argumentsFragment);
    /** Attempt `attempt` failed for `reason`; the request starts over in `waitMs`. */
    void retrying(int attempt, qint64 waitMs, const QString &reason);

private:
    friend class ChatClient;
    ChatCall(ChatClient *client, QString modelText, ChatRequest request);

    void send(const QUrl &baseUrl);
    void startAttempt();
    void retry();
    void onData(const QByteArray &chunk);
    void onReplyFinished();
    void attemptFailed(int status, const QString &message, bool retryable, std::optional<qint64> retryAfter = {});
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
    QUrl m_baseUrl;
    HttpReplyPtr m_reply;
    std::unique_ptr<ChatStreamDecoder> m_decoder;
    QTimer m_waitTimer;
    QElapsedTimer m_attemptClock;
    qint64 m_nextWaitMs = 0;
    bool m_exceededContext = false;
    QList<ChatAttempt> m_attempts;
    QList<QMetaObject::Connection> m_localConnections;
    bool m_holdsSlot = false;
    bool m_done = false;
};

} // namespace sf
