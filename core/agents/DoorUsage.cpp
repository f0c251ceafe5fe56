#include "DoorUsage.h"

#include "llm/AnthropicMessagesFormat.h"

#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

QJsonObject objectOf(const QByteArray &json)
{
    return QJsonDocument::fromJson(json).object();
}

QString errorMessageOf(const QJsonObject &object)
{
    const QJsonValue error = object.value("error"_L1);
    if (error.isObject()) {
        return error.toObject().value("message"_L1).toString();
    }
    return object.value("message"_L1).toString();
}

} // namespace

TokenUsage parseResponsesUsage(const QJsonObject &usage)
{
    const qint64 input = usage.value("input_tokens"_L1).toInteger();
    const QJsonObject details = usage.value("input_tokens_details"_L1).toObject();
    TokenUsage result;
    result.cacheRead = std::min(details.value("cached_tokens"_L1).toInteger(), input);
    // OpenAI bills cache writes of its newer models (GPT-5.6, GPT-6.x) at their own rate; input_tokens holds them.
    result.cacheWrite5m = std::min(details.value("cache_write_tokens"_L1).toInteger(), input - result.cacheRead);
    result.uncachedInput = input - result.cacheRead - result.cacheWrite5m;
    result.output = usage.value("output_tokens"_L1).toInteger();
    result.reasoning = usage.value("output_tokens_details"_L1).toObject().value("reasoning_tokens"_L1).toInteger();
    return result;
}

DoorUsageMeter::DoorUsageMeter(DoorWire wire)
    : m_wire(wire)
{
}

void DoorUsageMeter::feed(const QByteArray &bytes)
{
    if (m_shape == Shape::Unknown) {
        const QByteArray start = bytes.trimmed();
        if (start.isEmpty()) {
            m_json += bytes;
            return;
        }
        m_shape = start.startsWith('{') ? Shape::Json : Shape::Events;
        if (m_shape == Shape::Events) {
            m_json.clear();
        }
    }
    if (m_shape == Shape::Json) {
        m_json += bytes;
        return;
    }
    const QList<SseEvent> events = m_events.feed(bytes);
    for (const SseEvent &event : events) {
        onEvent(event);
    }
}

DoorUsageReading DoorUsageMeter::finish()
{
    if (m_shape == Shape::Json) {
        const QJsonObject object = objectOf(m_json);
        const QJsonValue usage = object.value("usage"_L1);
        m_reading.model = object.value("model"_L1).toString();
        if (usage.isObject()) {
            m_reading.found = true;
            m_reading.usage = m_wire == DoorWire::AnthropicMessages
                                  ? AnthropicMessagesFormat::parseUsage(usage.toObject())
                                  : parseResponsesUsage(usage.toObject());
        }
    } else if (m_wire == DoorWire::AnthropicMessages && !m_messagesUsage.isEmpty()) {
        m_reading.found = true;
        m_reading.usage = AnthropicMessagesFormat::parseUsage(m_messagesUsage);
    }
    if (m_events.hasError() && m_reading.streamError.isEmpty()) {
        m_reading.streamError = m_events.error();
    }
    return m_reading;
}

void DoorUsageMeter::onEvent(const SseEvent &event)
{
    const QJsonObject object = objectOf(event.data);
    const QString type = object.value("type"_L1).toString();
    if (type == "error"_L1) {
        m_reading.streamError = errorMessageOf(object);
        return;
    }
    if (m_wire == DoorWire::OpenAiResponses) {
        const QJsonObject response = object.value("response"_L1).toObject();
        if (const QString model = response.value("model"_L1).toString(); !model.isEmpty()) {
            m_reading.model = model;
        }
        if (type == "response.completed"_L1 || type == "response.incomplete"_L1 || type == "response.failed"_L1) {
            readResponsesFinal(response);
        }
        return;
    }
    if (type == "message_start"_L1) {
        const QJsonObject message = object.value("message"_L1).toObject();
        m_reading.model = message.value("model"_L1).toString();
        m_messagesUsage = message.value("usage"_L1).toObject();
    } else if (type == "message_delta"_L1) {
        // Cumulative: each field replaces the earlier value rather than adding to it.
        const QJsonObject usage = object.value("usage"_L1).toObject();
        for (auto it = usage.begin(); it != usage.end(); ++it) {
            if (!it.value().isNull()) {
                m_messagesUsage.insert(it.key(), it.value());
            }
        }
    }
}

void DoorUsageMeter::readResponsesFinal(const QJsonObject &response)
{
    const QJsonValue usage = response.value("usage"_L1);
    if (usage.isObject()) {
        m_reading.found = true;
        m_reading.usage = parseResponsesUsage(usage.toObject());
    }
    if (const QString message = response.value("error"_L1).toObject().value("message"_L1).toString();
        !message.isEmpty()) {
        m_reading.streamError = message;
    }
}

} // namespace sf
