#pragma once

#include "HttpReply.h"
#include "common/Result.h"

#include <QObject>
#include <QStringList>

namespace sf {

class HttpEngine;
class ProviderRegistry;
struct ProviderConfig;

/** One model listing in flight; emits finished() or failed() once, after list() returned. */
class ModelListCall final : public QObject
{
    Q_OBJECT

public:
    explicit ModelListCall(QObject *parent = nullptr);
    ~ModelListCall() override;

    void cancel();
    /** How long the provider took to answer (0 until it did); the "latency" of a connection test. */
    qint64 latencyMs() const { return m_latencyMs; }

Q_SIGNALS:
    void finished(const QStringList &modelIds);
    void failed(const QString &message);

private:
    friend class ModelLister;
    void complete(const Result<QStringList> &result);

    HttpReplyPtr m_reply;
    qint64 m_latencyMs = 0;
    bool m_done = false;
};

/**
 * Lists the models a provider serves: `GET <base>/models` for OpenAI-compatible and Anthropic
 * providers (`data[].id`), `GET <host>/api/tags` for Ollama (`models[].name`).
 */
class ModelLister final : public QObject
{
    Q_OBJECT

public:
    ModelLister(HttpEngine &engine, ProviderRegistry &providers, QObject *parent = nullptr);

    /** The call is owned by the caller (parented to the lister until then). */
    [[nodiscard]] ModelListCall *list(const QString &providerName);

    static Result<QStringList> parseOllamaTags(const QByteArray &body);

private:
    void send(ModelListCall *call, const ProviderConfig &provider);

    HttpEngine &m_engine;
    ProviderRegistry &m_providers;
};

} // namespace sf
