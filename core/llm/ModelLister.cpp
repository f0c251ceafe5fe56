#include "ModelLister.h"

#include "HttpEngine.h"
#include "HttpReply.h"
#include "JsonBody_p.h"
#include "OpenAiChatFormat.h"
#include "ProviderRegistry.h"

#include <QJsonArray>
#include <QPointer>

using namespace Qt::StringLiterals;

namespace sf {

ModelListCall::ModelListCall(QObject *parent)
    : QObject(parent)
{
}

ModelListCall::~ModelListCall() = default;

void ModelListCall::cancel()
{
    complete(Result<QStringList>::failure(u"Cancelled"_s));
}

void ModelListCall::complete(const Result<QStringList> &result)
{
    if (m_done) {
        return;
    }
    m_done = true;
    m_reply.reset();
    if (result) {
        Q_EMIT finished(*result.value);
    } else {
        Q_EMIT failed(result.error);
    }
}

ModelLister::ModelLister(HttpEngine &engine, ProviderRegistry &providers, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_providers(providers)
{
}

ModelListCall *ModelLister::list(const QString &providerName)
{
    auto *call = new ModelListCall(this);
    const ProviderConfig *provider = m_providers.find(providerName);
    Result<QStringList> early;
    if (!provider) {
        early.error =
            u"Unknown provider '%1'; known providers: %2"_s.arg(providerName, m_providers.names().join(", "_L1));
    } else if (provider->baseUrl.isEmpty()) {
        early.error = missingBaseUrlMessage(*provider);
    } else if (provider->apiKeyRequired && m_providers.apiKey(*provider).isEmpty()) {
        early.error = m_providers.missingKeyMessage(*provider);
    }
    if (!early.error.isEmpty()) {
        // Reported later, like every other outcome, so callers can connect after list() returns.
        QMetaObject::invokeMethod(
            call, [call, early] { call->complete(early); }, Qt::QueuedConnection);
        return call;
    }
    send(call, *provider);
    return call;
}

void ModelLister::send(ModelListCall *call, const ProviderConfig &provider)
{
    const bool ollama = provider.listStyle == ModelListStyle::OllamaTags;
    HttpRequest request;
    if (ollama) {
        // Ollama's native API sits at the host root, beside the OpenAI-compatible /v1.
        QUrl host = provider.baseUrl;
        host.setPath(host.path().endsWith("/v1"_L1) ? host.path().chopped(3) : host.path());
        request.url = endpointUrl(host, u"/api/tags"_s);
    } else {
        const QString path = provider.format == WireFormat::AnthropicMessages ? u"/v1/models"_s : u"/models"_s;
        request.url = endpointUrl(provider.baseUrl, path);
    }
    request.headers = providerHeaders(provider, m_providers.apiKey(provider));
    request.connectTimeoutMs = provider.connectTimeoutMs;
    request.firstByteTimeoutMs = 30000;
    call->m_reply.reset(m_engine.send(request));
    connect(call->m_reply.get(), &HttpReply::finished, call, [call, ollama] {
        const HttpResponse &response = call->m_reply->response();
        call->m_latencyMs = response.totalMs;
        if (response.kind != HttpError::None) {
            call->complete(Result<QStringList>::failure(response.error));
        } else if (response.status >= 400) {
            const QString message = detail::providerErrorMessage(response.body);
            call->complete(Result<QStringList>::failure(message.isEmpty()
                                                            ? u"HTTP %1"_s.arg(response.status)
                                                            : u"HTTP %1: %2"_s.arg(response.status).arg(message)));
        } else {
            call->complete(ollama ? parseOllamaTags(response.body) : OpenAiChatFormat::parseModelList(response.body));
        }
    });
}

Result<QStringList> ModelLister::parseOllamaTags(const QByteArray &body)
{
    const Result<QJsonObject> parsed = detail::parseJsonObject(body);
    if (!parsed) {
        return Result<QStringList>::failure(parsed.error);
    }
    if (!parsed.value->value("models"_L1).isArray()) {
        return Result<QStringList>::failure(u"The tag list has no 'models' array"_s);
    }
    QStringList names;
    const QJsonArray models = parsed.value->value("models"_L1).toArray();
    for (const QJsonValue &model : models) {
        const QString name = model.toObject().value("name"_L1).toString();
        if (!name.isEmpty()) {
            names.append(name);
        }
    }
    return Result<QStringList>::success(names);
}

} // namespace sf
