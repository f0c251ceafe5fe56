#include "ChatCall.h"

#include "AnthropicMessagesFormat.h"
#include "ChatClient.h"
#include "HttpEngine.h"
#include "HttpReply.h"
#include "LlmLogging.h"
#include "OpenAiChatFormat.h"

using namespace Qt::StringLiterals;

namespace sf {

namespace {

// A non-streaming request to a reasoning model can think for minutes before its first byte.
constexpr int chatFirstByteTimeoutMs = 10 * 60 * 1000;

QString httpErrorText(const HttpResponse &response, const QString &providerMessage)
{
    const QString detail =
        providerMessage.isEmpty() ? QString::fromUtf8(response.body.left(300)).simplified() : providerMessage;
    return detail.isEmpty() ? u"HTTP %1"_s.arg(response.status) : u"HTTP %1: %2"_s.arg(response.status).arg(detail);
}

} // namespace

ChatCall::ChatCall(ChatClient *client, QString modelText, ChatRequest request)
    : QObject(client)
    , m_client(client)
    , m_modelText(std::move(modelText))
    , m_request(std::move(request))
{
}

ChatCall::~ChatCall()
{
    release();
}

void ChatCall::cancel()
{
    if (!m_done) {
        fail(u"Cancelled"_s);
    }
}

void ChatCall::send(const QUrl &baseUrl)
{
    if (m_done || !m_client) {
        return;
    }
    dropLocalConnections(); // a later restart of the local server must not send this request twice
    const bool anthropic = m_provider.format == WireFormat::AnthropicMessages;
    HttpRequest http;
    http.method = "POST";
    http.url = endpointUrl(baseUrl, anthropic ? u"/v1/messages"_s : u"/chat/completions"_s);
    http.headers = providerHeaders(m_provider, m_apiKey);
    http.body = anthropic ? AnthropicMessagesFormat::requestBody(m_request) : OpenAiChatFormat::requestBody(m_request);
    http.firstByteTimeoutMs = chatFirstByteTimeoutMs;
    qCDebug(lcChat).noquote() << "chat" << m_modelText << "->" << http.url.toString(QUrl::RemoveQuery);
    m_reply.reset(m_client->m_engine.send(http));
    connect(m_reply.get(), &HttpReply::finished, this, &ChatCall::onReplyFinished);
}

void ChatCall::onReplyFinished()
{
    const HttpReplyPtr reply = std::move(m_reply);
    const HttpResponse &response = reply->response();
    if (response.kind != HttpError::None) {
        fail(u"Request to provider '%1' failed: %2"_s.arg(m_provider.name, response.error));
        return;
    }
    const bool anthropic = m_provider.format == WireFormat::AnthropicMessages;
    if (response.status >= 400) {
        const QString message = anthropic ? AnthropicMessagesFormat::errorMessage(response.body)
                                          : OpenAiChatFormat::errorMessage(response.body);
        fail(httpErrorText(response, message));
        return;
    }
    Result<ChatResponse> parsed = anthropic ? AnthropicMessagesFormat::parseResponse(response.body)
                                            : OpenAiChatFormat::parseResponse(response.body);
    if (!parsed) {
        fail(u"Unexpected response from provider '%1': %2"_s.arg(m_provider.name, parsed.error));
        return;
    }
    ChatResponse chat = std::move(*parsed.value);
    chat.latencyMs = response.totalMs;
    chat.firstByteMs = response.firstByteMs;
    if (chat.model.isEmpty()) {
        chat.model = m_name.model;
    }
    succeed(std::move(chat));
}

void ChatCall::succeed(ChatResponse response)
{
    m_done = true;
    release();
    qCDebug(lcChat).noquote() << "chat" << m_modelText << "finished in" << response.latencyMs << "ms,"
                              << response.usage.totalInput() << "in /" << response.usage.output << "out";
    Q_EMIT finished(response);
}

void ChatCall::fail(const QString &message)
{
    m_done = true;
    m_reply.reset();
    release();
    qCDebug(lcChat).noquote() << "chat" << m_modelText << "failed:" << message;
    Q_EMIT failed(message);
}

void ChatCall::dropLocalConnections()
{
    for (const QMetaObject::Connection &connection : std::as_const(m_localConnections)) {
        disconnect(connection);
    }
    m_localConnections.clear();
}

void ChatCall::release()
{
    dropLocalConnections();
    if (m_holdsSlot) {
        m_holdsSlot = false;
        if (m_client) {
            m_client->releaseSlot(m_provider.name);
        }
    }
}

} // namespace sf
