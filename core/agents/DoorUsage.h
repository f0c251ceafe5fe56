#pragma once

#include "DoorWire.h"
#include "llm/SseParser.h"
#include "usage/TokenUsage.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

namespace sf {

/** What a response said it used. */
struct DoorUsageReading
{
    TokenUsage usage;
    QString model;       // the model that answered, as the response names it (empty when it does not)
    bool found = false;  // whether the response reported usage at all
    QString streamError; // an error event inside a stream that started well (e.g. Anthropic's overloaded_error)
};

/**
 * Reads token usage out of a model response as its bytes stream through the door, whether the response is
 * one JSON object or server-sent events (told apart by its first byte).
 * Anthropic Messages: `usage` of the message; streamed, `message_start.message.usage` and then each
 * `message_delta.usage`, whose fields are cumulative, so the latest value of each field wins.
 * OpenAI Responses: `usage` of the response; streamed, `response.usage` of the final event
 * (`response.completed`, or `response.incomplete` / `response.failed`).
 */
class DoorUsageMeter final
{
public:
    explicit DoorUsageMeter(DoorWire wire);

    void feed(const QByteArray &bytes);
    DoorUsageReading finish();

private:
    void onEvent(const SseEvent &event);
    void readResponsesFinal(const QJsonObject &response);

    DoorWire m_wire;
    enum class Shape
    {
        Unknown,
        Json,
        Events,
    } m_shape = Shape::Unknown;
    QByteArray m_json;
    SseParser m_events;
    QJsonObject m_messagesUsage; // Anthropic: the latest value of each usage field
    DoorUsageReading m_reading;
};

/** Usage of an OpenAI Responses reply in separate buckets: `input_tokens` includes the cached ones, split out. */
TokenUsage parseResponsesUsage(const QJsonObject &usage);

} // namespace sf
