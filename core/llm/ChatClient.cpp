#include "ChatClient.h"

#include "ChatCall.h"
#include "ContextFit.h"
#include "LocalModelServer.h"
#include "ProviderRegistry.h"

#include <algorithm>

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

LocalModelServer *ChatClient::localServer() const
{
    return m_local.data();
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

QString ChatClient::whyUnavailable(const QString &modelName) const
{
    const Result<ModelName> name = ModelName::parse(modelName);
    if (!name) {
        return name.error;
    }
    const ProviderConfig *provider = m_providers.find(name.value->provider);
    if (!provider) {
        return u"Unknown provider '%1' in model '%2'; known providers: %3"_s.arg(name.value->provider, modelName,
                                                                                 m_providers.names().join(", "_L1));
    }
    if (provider->name == "local"_L1) {
        return m_local ? m_local->whyNotStartable() : u"The local model is not available in this session"_s;
    }
    if (provider->baseUrl.isEmpty()) {
        return missingBaseUrlMessage(*provider);
    }
    if (provider->apiKeyRequired && m_providers.apiKey(*provider).isEmpty()) {
        return m_providers.missingKeyMessage(*provider);
    }
    return {};
}

bool ChatClient::isSetUp(const QString &modelName) const
{
    if (!whyUnavailable(modelName).isEmpty()) {
        return false;
    }
    const ProviderConfig *provider = m_providers.find(ModelName::parse(modelName).value->provider);
    if (provider->name == "local"_L1 || provider->apiKeyRequired) {
        return true;
    }
    if (!provider->baseUrlEnv.isEmpty() &&
        !qEnvironmentVariable(provider->baseUrlEnv.toLocal8Bit().constData()).isEmpty()) {
        return true;
    }
    const QList<ProviderConfig> builtins = ProviderRegistry::builtinsFromEnvironment();
    return std::none_of(builtins.cbegin(), builtins.cend(),
                        [provider](const ProviderConfig &builtin) { return builtin.name == provider->name; });
}

void ChatClient::start(ChatCall *call)
{
    if (const QString why = whyUnavailable(call->m_modelText); !why.isEmpty()) {
        call->fail(why);
        return;
    }
    const ModelName name = *ModelName::parse(call->m_modelText).value;
    const ProviderConfig *provider = m_providers.find(name.provider);
    call->m_name = name;
    call->m_provider = *provider;
    call->m_request.model = name.model;
    call->m_apiKey = m_providers.apiKey(*provider);
    if (provider->name == "local"_L1) {
        // The embedded server's window is known before it starts: a request that cannot fit is refused
        // here with its size, not by the server with a bare HTTP 400 (or a 500 halfway through the reply).
        const QString overflow =
            ContextFit::fitToContext(call->m_request, m_local->requestContextTokens(), call->m_modelText);
        if (!overflow.isEmpty()) {
            call->m_exceededContext = true;
            call->fail(overflow);
            return;
        }
    }
    if (const int limit = inFlightLimit(*provider); limit > 0 && m_inFlight.value(provider->name) >= limit) {
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
        waitForLocalServer(call, true);
    } else {
        call->send(call->m_provider.baseUrl);
    }
}

void ChatClient::waitForLocalServer(ChatCall *call, bool mayStart)
{
    if (!m_local) {
        call->fail(u"The local model is not available in this session"_s);
        return;
    }
    if (mayStart) {
        m_local->ensureStarted();
    }
    switch (m_local->state()) {
    case LocalModelServer::State::Ready:
        call->send(m_local->baseUrl());
        return;
    case LocalModelServer::State::Failed:
        call->fail(u"The local model server failed: %1"_s.arg(m_local->errorString()));
        return;
    case LocalModelServer::State::Stopped:
        call->fail(u"The local model server was stopped"_s);
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

void ChatClient::addRequestedConcurrency(int concurrency)
{
    m_requestedConcurrency.append(concurrency);
}

void ChatClient::removeRequestedConcurrency(int concurrency)
{
    // Calls already sent finish; the next ones are held to the lower limit.
    m_requestedConcurrency.removeOne(concurrency);
}

int ChatClient::inFlightLimit(const ProviderConfig &provider) const
{
    const int requested = m_requestedConcurrency.isEmpty()
                              ? 0
                              : *std::max_element(m_requestedConcurrency.cbegin(), m_requestedConcurrency.cend());
    return concurrencyFor(provider.name, requested).limit;
}

ChatClient::ConcurrencyLimit ChatClient::concurrencyFor(const QString &providerName, int requested) const
{
    const ProviderConfig *provider = m_providers.find(providerName);
    if (!provider)
        return {requested, u"the run's concurrency"_s};
    if (provider->name == "local"_L1) {
        // The embedded server answers as many requests at once as it has slots; more would only queue there.
        if (requested <= 0 || requested > provider->maxConcurrent)
            return {provider->maxConcurrent, u"the embedded server's %1 slots"_s.arg(provider->maxConcurrent)};
        return {requested, u"the run's concurrency"_s};
    }
    if (provider->limitsSetByUser && provider->maxConcurrent > 0 &&
        (requested <= 0 || provider->maxConcurrent < requested))
        return {provider->maxConcurrent, u"your limit for %1 (Tools, Providers and Keys)"_s.arg(provider->name)};
    if (requested > 0)
        return {requested, u"the run's concurrency"_s};
    return {provider->maxConcurrent, u"the default for %1"_s.arg(provider->name)};
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
