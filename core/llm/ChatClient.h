#pragma once

#include "ChatTypes.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>

namespace sf {

class ChatCall;
class HttpEngine;
class LocalModelServer;
class ProviderRegistry;

/**
 * Sends chat requests to any provider by model name (`PROVIDER:MODEL`), in the provider's wire
 * format, starting the local model server when a `local:` model is asked for. Calls beyond a
 * provider's `maxConcurrent` wait their turn here rather than piling onto the provider.
 */
class ChatClient final : public QObject
{
    Q_OBJECT

public:
    /** `local` may be null when the local model is not offered. */
    ChatClient(HttpEngine &engine, ProviderRegistry &providers, LocalModelServer *local, QObject *parent = nullptr);
    ~ChatClient() override;

    /** Starts a chat; see ChatCall for ownership and signals. */
    [[nodiscard]] ChatCall *chat(const QString &modelName, const ChatRequest &request);

private:
    friend class ChatCall;

    void start(ChatCall *call);
    void dispatch(ChatCall *call);
    void waitForLocalServer(ChatCall *call);
    void releaseSlot(const QString &provider);

    HttpEngine &m_engine;
    ProviderRegistry &m_providers;
    QPointer<LocalModelServer> m_local;
    QHash<QString, int> m_inFlight;
    QHash<QString, QList<QPointer<ChatCall>>> m_waiting;
};

} // namespace sf
