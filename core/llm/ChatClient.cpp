#include "ChatClient.h"

#include "ChatCall.h"
#include "LocalModelServer.h"
#include "ProviderRegistry.h"

using namespace Qt::StringLiterals;

namespace sf {

ChatClient::ChatClient(HttpEngine &engine, ProviderRegistry &providers, LocalModelServer *local, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_providers(providers)
    , m_local(local)
{
    m_clock.start();
}

ChatClient::~ChatClient() = default;

ChatCall *ChatClient::chat(const QString &modelName, const ChatRequest &request)
{
    auto *call = new ChatCall(this, modelName, request);
    // Even errors found at once are reported later, so callers can connect after chat() returns.
    QMetaObject::invokeMethod(
        this,
        [this, guard = QPointer<ChatCall>(call)] {
            if (guard && !guard->isDone()) {
                start(guard);
            }
        },
        Qt::QueuedConnection);
    return call;
}

void ChatClient::start(ChatCall *call)
{
    const Result<ModelName> name = ModelName::parse(call->m_modelText);
    if (!name) {
        call->fail(name.error);
        return;
    }
    const ProviderConfig *provider = m_providers.find(name.value->provider);
    if (!provider) {
        call->fail(u"Unknown provider '%1' in model '%2'; known providers: %3"_s.arg(
            name.value->provider, call->m_modelText, m_providers.names().join(", "_L1)));
        return;
    }
    call->m_name = *name.value;
    call->m_provider = *provider;
    call->m_request.model = name.value->model;
    const bool local = provider->name == "local"_L1;
    if (!local && provider->baseUrl.isEmpty()) {
        call->fail(missingBaseUrlMessage(*provider));
        return;
    }
    call->m_apiKey = m_providers.apiKey(*provider);
    if (provider->apiKeyRequired && call->m_apiKey.isEmpty()) {
        call->fail(m_providers.missingKeyMessage(*provider));
        return;
    }
    if (provider->maxConcurrent > 0 && m_inFlight.value(provider->name) >= provider->maxConcurrent) {
        m_waiting[provider->name].append(call);
        return;
    }
    dispatch(call);
}

void ChatClient::dispatch(ChatCall *call)
{
    ++m_inFlight[call->m_provider.name];
    call->m_holdsSlot = true;
    if (call->m_provider.name == "local"_L1) {
        waitForLocalServer(call);
    } else {
        call->send(call->m_provider.baseUrl);
    }
}

void ChatClient::waitForLocalServer(ChatCall *call)
{
    if (!m_local) {
        call->fail(u"The local model is not available in this session"_s);
        return;
    }
    m_local->ensureStarted();
    switch (m_local->state()) {
    case LocalModelServer::State::Ready:
        call->send(m_local->baseUrl());
        return;
    case LocalModelServer::State::Failed:
    case LocalModelServer::State::Stopped:
        call->fail(u"The local model server failed: %1"_s.arg(m_local->errorString()));
        return;
    case LocalModelServer::State::Starting:
        break;
    }
    call->m_localConnections = {
        connect(m_local, &LocalModelServer::ready, call, [call](const QUrl &baseUrl) { call->send(baseUrl); }),
        connect(m_local, &LocalModelServer::failed, call,
                [call](const QString &message) { call->fail(u"The local model server failed: %1"_s.arg(message)); }),
    };
}

qint64 ChatClient::reserveRequest(const ProviderConfig &provider)
{
    if (provider.requestsPerMinute <= 0) {
        return 0;
    }
    constexpr qint64 window = 60 * 1000;
    QList<qint64> &starts = m_recentStarts[provider.name];
    const qint64 now = m_clock.elapsed();
    while (!starts.isEmpty() && starts.first() <= now - window) {
        starts.removeFirst();
    }
    if (starts.size() < provider.requestsPerMinute) {
        starts.append(now);
        return 0;
    }
    return starts.first() + window - now;
}

void ChatClient::releaseSlot(const QString &provider)
{
    int &inFlight = m_inFlight[provider];
    inFlight = std::max(0, inFlight - 1);
    QList<QPointer<ChatCall>> &waiting = m_waiting[provider];
    while (!waiting.isEmpty()) {
        const QPointer<ChatCall> next = waiting.takeFirst();
        if (next && !next->isDone()) {
            dispatch(next);
            return;
        }
    }
}

} // namespace sf
