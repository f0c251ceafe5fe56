#include "ChatCall.h"

#include "AnthropicMessagesFormat.h"
#include "ChatClient.h"
#include "ChatStreamDecoder.h"
#include "ContextFit.h"
#include "HttpEngine.h"
#include "HttpReply.h"
#include "JsonBody_p.h"
#include "LlmLogging.h"
#include "OpenAiChatFormat.h"
#include "RetryPolicy.h"
#include "usage/Pricing.h"

#include <QRandomGenerator>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

QString httpErrorText(const HttpResponse &response, const QString &providerMessage)
{
    const QString detail =
        providerMessage.isEmpty() ? QString::fromUtf8(response.body.left(300)).simplified() : providerMessage;
    return detail.isEmpty() ? u"HTTP %1"_s.arg(response.status) : u"HTTP %1: %2"_s.arg(response.status).arg(detail);
}

// Anthropic may answer "overloaded" with a status other than 529 (in streams, always with 200).
bool saysOverloaded(const QByteArray &body)
{
    const Result<QJsonObject> object = detail::parseJsonObject(body);
    return object && object.value->value("error"_L1).toObject().value("type"_L1).toString() == "overloaded_error"_L1;
}

} // namespace

ChatCall::ChatCall(ChatClient *client, QString modelText, ChatRequest request)
    : QObject(client)
    , m_client(client)
    , m_modelText(std::move(modelText))
    , m_request(std::move(request))
{
    m_waitTimer.setSingleShot(true);
    connect(&m_waitTimer, &QTimer::timeout, this, &ChatCall::retry);
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
    m_baseUrl = baseUrl;
    startAttempt();
}

void ChatCall::retry()
{
    if (m_done || !m_client) {
        return;
    }
    if (m_provider.name == "local"_L1) {
        m_client->waitForLocalServer(this, false); // then send(), to the server's address now
        return;
    }
    startAttempt();
}

void ChatCall::startAttempt()
{
    if (m_done || !m_client) {
        return;
    }
    const qint64 rateWait = m_client->reserveRequest(m_provider);
    if (rateWait > 0) {
        // Over the provider's requests-per-minute budget: wait, and count the wait to this attempt.
        m_nextWaitMs += rateWait;
        m_waitTimer.start(int(rateWait));
        return;
    }
    const bool anthropic = m_provider.format == WireFormat::AnthropicMessages;
    HttpRequest http;
    http.method = "POST";
    http.url = endpointUrl(m_baseUrl, anthropic ? u"/v1/messages"_s : u"/chat/completions"_s);
    http.headers = providerHeaders(m_provider, m_apiKey);
    if (m_request.stream) {
        for (auto &[name, value] : http.headers) {
            if (name.compare("Accept", Qt::CaseInsensitive) == 0) {
                value = "text/event-stream";
            }
        }
    }
    using OpenAiChatFormat::TokenLimitField;
    http.body = anthropic ? AnthropicMessagesFormat::requestBody(m_request)
                          : OpenAiChatFormat::requestBody(m_request, m_provider.maxCompletionTokens
                                                                         ? TokenLimitField::MaxCompletionTokens
                                                                         : TokenLimitField::MaxTokens);
    http.connectTimeoutMs = m_provider.connectTimeoutMs;
    http.firstByteTimeoutMs = m_provider.firstByteTimeoutMs;
    http.idleTimeoutMs = m_provider.idleTimeoutMs;
    qCDebug(lcChat).noquote() << "chat" << m_modelText << "attempt" << m_attempts.size() + 1 << "->"
                              << http.url.toString(QUrl::RemoveQuery);
    m_decoder = m_request.stream ? std::make_unique<ChatStreamDecoder>(m_provider.format) : nullptr;
    m_attemptClock.start();
    m_reply.reset(m_client->m_engine.send(http));
    connect(m_reply.get(), &HttpReply::finished, this, &ChatCall::onReplyFinished);
    if (m_decoder) {
        connect(m_reply.get(), &HttpReply::dataReceived, this, &ChatCall::onData);
    }
}

void ChatCall::onData(const QByteArray &chunk)
{
    if (!m_reply || m_reply->status() < 200 || m_reply->status() >= 300) {
        return; // an error body; onReplyFinished reads it whole
    }
    const QList<ChatDelta> deltas = m_decoder->feed(chunk);
    const QPointer<ChatCall> guard(this);
    for (const ChatDelta &delta : deltas) {
        switch (delta.kind) {
        case ChatDelta::Kind::Text:
            Q_EMIT textDelta(delta.text);
            break;
        case ChatDelta::Kind::Thinking:
            Q_EMIT thinkingDelta(delta.text);
            break;
        case ChatDelta::Kind::ToolCall:
            if (m_request.replySchema && m_request.tools.isEmpty()) {
                // The reply tool's input is the reply (see ReplySchema): it streams as text.
                Q_EMIT textDelta(QString::fromUtf8(delta.argumentsFragment));
                break;
            }
            Q_EMIT toolCallDelta(delta.toolIndex, delta.toolId, delta.toolName, delta.argumentsFragment);
            break;
        }
        if (!guard || m_done) {
            return; // a receiver cancelled or deleted the call
        }
    }
    if (m_decoder->hasError()) {
        const int status = m_reply->status();
        m_reply.reset(); // stops the transfer: nothing after a framing error can be trusted
        attemptFailed(status, u"Provider '%1' sent a broken stream: %2"_s.arg(m_provider.name, m_decoder->error()),
                      m_decoder->errorIsRetryable());
    }
}

void ChatCall::onReplyFinished()
{
    const HttpReplyPtr reply = std::move(m_reply);
    const HttpResponse &response = reply->response();
    if (response.kind == HttpError::Cancelled) {
        fail(u"Cancelled"_s);
        return;
    }
    if (response.kind != HttpError::None) {
        // Connection failures, timeouts (including a stalled stream) and resets are worth another try.
        attemptFailed(0, u"Request to provider '%1' failed: %2"_s.arg(m_provider.name, response.error), true);
        return;
    }
    const bool anthropic = m_provider.format == WireFormat::AnthropicMessages;
    if (response.status >= 400) {
        const QString message = anthropic ? AnthropicMessagesFormat::errorMessage(response.body)
                                          : OpenAiChatFormat::errorMessage(response.body);
        const bool retryable = isRetryableStatus(response.status) || saysOverloaded(response.body);
        attemptFailed(response.status, httpErrorText(response, message), retryable, retryAfterMs(response));
        return;
    }
    Result<ChatResponse> parsed;
    if (m_decoder) {
        parsed = m_decoder->finish();
        if (!parsed) {
            attemptFailed(response.status,
                          u"Provider '%1' sent a broken stream: %2"_s.arg(m_provider.name, parsed.error),
                          m_decoder->errorIsRetryable());
            return;
        }
    } else {
        parsed = anthropic ? AnthropicMessagesFormat::parseResponse(response.body)
                           : OpenAiChatFormat::parseResponse(response.body);
        if (!parsed) {
            attemptFailed(response.status,
                          u"Unexpected response from provider '%1': %2"_s.arg(m_provider.name, parsed.error),
                          saysOverloaded(response.body));
            return;
        }
    }
    ChatResponse chat = std::move(*parsed.value);
    chat.latencyMs = response.totalMs;
    chat.firstByteMs = response.firstByteMs;
    if (chat.model.isEmpty()) {
        chat.model = m_name.model;
    }
    m_attempts.append(ChatAttempt{response.status, m_nextWaitMs, response.totalMs, {}});
    succeed(std::move(chat));
}

void ChatCall::attemptFailed(int status, const QString &message, bool retryable, std::optional<qint64> retryAfter)
{
    m_attempts.append(ChatAttempt{status, m_nextWaitMs, m_attemptClock.elapsed(), message});
    m_decoder.reset();
    if (ContextFit::saysContextExceeded(message)) {
        // The same request overflows the same window every time; trying again only costs time.
        m_exceededContext = true;
        retryable = false;
    }
    const RetryPolicy policy = m_client ? m_client->retryPolicy() : RetryPolicy();
    const int attempt = int(m_attempts.size());
    if (!retryable || attempt >= policy.maxAttempts) {
        fail(attempt == 1 ? message
                          : u"Provider '%1' gave up after %2 attempts; the last: %3"_s.arg(m_provider.name)
                                .arg(attempt)
                                .arg(message));
        return;
    }
    const qint64 wait = retryAfter ? std::min<qint64>(*retryAfter, policy.maxRetryAfterMs)
                                   : backoffMs(policy, attempt, QRandomGenerator::global()->generateDouble());
    qCDebug(lcChat).noquote() << "chat" << m_modelText << "attempt" << attempt << "failed, retrying in" << wait
                              << "ms:" << message;
    m_nextWaitMs = wait;
    m_waitTimer.start(int(wait));
    Q_EMIT retrying(attempt, wait, message);
}

void ChatCall::succeed(ChatResponse response)
{
    m_done = true;
    release();
    response.attempts = m_attempts;
    if (m_request.replySchema) {
        // Anthropic answers a ReplySchema with a call of the reply tool; its input is the reply.
        for (qsizetype i = 0; i < response.toolCalls.size(); ++i) {
            if (response.toolCalls[i].name == m_request.replySchema->name) {
                response.text = QString::fromUtf8(response.toolCalls.takeAt(i).arguments);
                break;
            }
        }
    }
    response.costUsd = Pricing::costFor(m_modelText, response.usage);
    qCDebug(lcChat).noquote() << "chat" << m_modelText << "finished in" << response.latencyMs << "ms,"
                              << response.usage.totalInput() << "in /" << response.usage.output << "out";
    Q_EMIT finished(response);
}

void ChatCall::fail(const QString &message)
{
    m_done = true;
    m_reply.reset();
    m_decoder.reset();
    m_waitTimer.stop();
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
