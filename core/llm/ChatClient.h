#pragma once

#include "ChatTypes.h"
#include "ProviderConfig.h"
#include "RetryPolicy.h"

#include <QElapsedTimer>
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
 * provider's `maxConcurrent` wait their turn here rather than piling onto the provider, and attempts
 * beyond its `requestsPerMinute` wait for the minute to move on. Failed attempts are retried
 * following retryPolicy().
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

    /**
     * Why a call of `modelName` would fail before reaching the model (a malformed name, an unknown
     * provider, a missing key or base URL, the local model not installed); empty when it can be tried.
     */
    QString whyUnavailable(const QString &modelName) const;
    /**
     * Whether the user has set up `modelName`'s provider, rather than it merely having defaults: its key is
     * set, its base URL comes from the environment, or the user added the provider. The local model counts
     * once installed. A default such as Ollama's 127.0.0.1:11434 says nothing about a server being there.
     */
    bool isSetUp(const QString &modelName) const;

    /**
     * A run that wants `concurrency` requests in flight: while it holds this, providers whose limit is
     * Skillforge's default let that many through (the user's number wins), and a limit the user set for a
     * provider still holds, as do the embedded server's slots. Each add is paired with a remove.
     */
    void addRequestedConcurrency(int concurrency);
    void removeRequestedConcurrency(int concurrency);

    /** How many requests to `provider` a run asking for `requested` gets at once, and why, in words. */
    struct ConcurrencyLimit
    {
        int limit = 0; ///< 0: as many as the run asks for
        QString reason;
    };
    ConcurrencyLimit concurrencyFor(const QString &provider, int requested) const;

    /** What the client reaches providers with, for callers that speak a provider's wire format themselves. */
    HttpEngine &engine() const { return m_engine; }
    ProviderRegistry &providers() const { return m_providers; }
    LocalModelServer *localServer() const;

    const RetryPolicy &retryPolicy() const { return m_retryPolicy; }
    void setRetryPolicy(const RetryPolicy &policy) { m_retryPolicy = policy; }

private:
    friend class ChatCall;

    void start(ChatCall *call);
    void dispatch(ChatCall *call);
    /// Sends @p call to the embedded server once it is ready, at the address it has now. @p mayStart: start it when
    /// it is stopped or has failed (a new request); a retry never does, so a server that cannot stay up ends its
    /// requests instead of being started again and again.
    void waitForLocalServer(ChatCall *call, bool mayStart);
    void releaseSlot(const QString &provider);
    /// The most requests to `provider` in flight at once now; 0 for no limit.
    int inFlightLimit(const ProviderConfig &provider) const;
    /** 0 when an attempt may start now (and counts it), else how long until the rate limit allows one. */
    qint64 reserveRequest(const ProviderConfig &provider);

    HttpEngine &m_engine;
    ProviderRegistry &m_providers;
    QPointer<LocalModelServer> m_local;
    QHash<QString, int> m_inFlight;
    QList<int> m_requestedConcurrency; ///< of the runs under way
    QHash<QString, QList<QPointer<ChatCall>>> m_waiting;
    QHash<QString, QList<qint64>> m_recentStarts; // per provider, within the last minute
    QElapsedTimer m_clock;
    RetryPolicy m_retryPolicy;
};

} // namespace sf
