#pragma once

#include "llm/ProviderConfig.h"
#include "usage/CostTally.h"
#include "usage/TokenUsage.h"

#include <QDateTime>
#include <QList>
#include <QObject>
#include <QSet>
#include <QString>
#include <QUrl>

class QLocalServer;
class QTcpServer;
class QIODevice;

namespace sf {

class HttpEngine;
class LocalModelServer;
class ProviderRegistry;

namespace detail {
class DoorConnection;
class DoorExchange;
} // namespace detail

/** What the door lets one item spend. */
struct DoorLimits
{
    qint64 maxTotalTokens = 0; // input (cache included) plus output over all the item's requests; 0: no budget
    int maxOutputTokens = 0;   // per request (max_tokens, max_output_tokens); 0: as the CLI asks
    int requestTimeoutMs = 0;  // per upstream request, streaming included; 0: only the provider's own timeouts
};

/** One request that went through the door (or was refused by it). Never holds a key. */
struct DoorRequestRecord
{
    QString method;
    QString path;           // without the query
    int status = 0;         // as the CLI got it; 0 when the CLI got no status (the connection went away)
    QString model;          // the model that answered, as the response names it, else the one asked for
    QString requestedModel; // the model the CLI named, before the door replaced it
    TokenUsage usage;
    qint64 latencyMs = 0; // from the whole request received to the last byte answered
    bool streamed = false;
    QDateTime endedAt; // when it was recorded: a request is priced at the rates in force then
    QString error;     // why it failed or was refused, or the provider's message for a 4xx/5xx; empty when fine

    qint64 tokens() const { return usage.totalInput() + usage.output; }
};

/** What @p records cost, each request priced on its own at the time it ended, as @p model (the door sends every request
 * to the item's model). A request that used no tokens (refused, failed before an answer, a token count, the model
 * list) is not billed and not counted. @p each, when given, gets every record's own cost in order: $0 for one not
 * billed, empty for one no table prices. */
CostTally costOfRequests(const QList<DoorRequestRecord> &records, const QString &model,
                         QList<std::optional<double>> *each = nullptr);

/**
 * An agent CLI's only way out: a small HTTP/1.1 server (on a Unix socket, and optionally on loopback TCP)
 * that forwards every request to one model, the item's `PROVIDER:MODEL`, at the provider's real endpoint
 * with the real key, and returns the response as it arrives (server-sent events streamed through).
 *
 * Forwarded: POST /v1/messages and /v1/messages/count_tokens (Anthropic Messages), POST /v1/responses
 * (OpenAI Responses), GET /v1/models; anything else is answered 404. The CLI's own credentials are replaced
 * by the provider's, `model` by the item's, and output tokens are capped (DoorLimits). Once the recorded
 * tokens reach the budget, requests are refused at once with an error in the wire's own shape that the CLIs
 * do not retry. Each request is recorded with its usage; the key is never logged nor recorded.
 * Everything happens in the door's thread; its signals come from inside a request's handling, so a slot
 * that ends the door uses deleteLater(), not delete.
 */
class ModelDoor final : public QObject
{
    Q_OBJECT

public:
    /** `local` may be null when the embedded model is not offered. */
    ModelDoor(HttpEngine &engine, ProviderRegistry &providers, LocalModelServer *local, const QString &modelName,
              const DoorLimits &limits, QObject *parent = nullptr);
    ~ModelDoor() override;

    /** Why no request could be forwarded (a malformed name, an unknown provider, no key or base URL); empty if none. */
    QString whyUnusable() const { return m_unusable; }

    /** Serves on a Unix socket at the absolute `path` (which must not exist), readable by this user only. */
    bool listenOnSocket(const QString &path);
    /** Serves on 127.0.0.1:`port` (0: a free port), for a CLI run without a sandbox. */
    bool listenOnTcp(quint16 port = 0);
    /** Why the last listen failed. */
    QString errorString() const { return m_errorString; }

    QString socketPath() const;
    quint16 tcpPort() const;
    /** `http://127.0.0.1:PORT` while listening on TCP. */
    QUrl tcpBaseUrl() const;

    QString modelName() const { return m_modelName; }
    const DoorLimits &limits() const { return m_limits; }

    const QList<DoorRequestRecord> &records() const { return m_records; }
    /** The usage of every recorded request, bucket by bucket. */
    TokenUsage totalUsage() const { return m_totalUsage; }
    /** Input (cache included) plus output tokens of every recorded request. */
    qint64 totalTokens() const { return m_totalUsage.totalInput() + m_totalUsage.output; }
    /** Whether the recorded tokens reached DoorLimits::maxTotalTokens, so further requests are refused. */
    bool budgetExhausted() const { return m_budgetExhausted; }
    int requestsInFlight() const;

    /** Stops listening and aborts every request in flight (each is still recorded); the door serves no more. */
    void close();

Q_SIGNALS:
    /** A request ended (answered, refused, failed or aborted); it is in records() already. */
    void requestFinished(const sf::DoorRequestRecord &record);
    /** The budget was reached: emitted once, when the request that reached it is recorded. */
    void budgetReached();

private:
    friend class detail::DoorExchange;
    friend class detail::DoorConnection;

    void accept(QIODevice *socket);
    void record(DoorRequestRecord record);
    void forget(detail::DoorConnection *connection);

    HttpEngine &m_engine;
    LocalModelServer *m_local;
    const QString m_modelName;
    const DoorLimits m_limits;
    ProviderConfig m_provider;
    QString m_modelId; // the part after the provider prefix
    QString m_apiKey;
    QString m_unusable;
    QString m_errorString;
    QLocalServer *m_socketServer = nullptr;
    QTcpServer *m_tcpServer = nullptr;
    QSet<detail::DoorConnection *> m_connections;
    QList<DoorRequestRecord> m_records;
    TokenUsage m_totalUsage;
    bool m_budgetExhausted = false;
    bool m_closed = false;
};

} // namespace sf

Q_DECLARE_METATYPE(sf::DoorRequestRecord)
