#pragma once

#include "common/Result.h"

#include <QByteArray>
#include <QJsonObject>

namespace sf::detail {

/** The body as a JSON object, or an error quoting the start of whatever came instead. */
Result<QJsonObject> parseJsonObject(const QByteArray &body);

/**
 * The provider's message from an error body. Providers disagree on the shape: OpenAI and Anthropic
 * send {"error":{"message":...}}, some routers {"error":"..."}, FastAPI servers {"detail":"..."}.
 */
QString providerErrorMessage(const QJsonObject &object);
QString providerErrorMessage(const QByteArray &body);

/**
 * A tool's JSON Schema text as an object; an empty or unparsable schema becomes the schema of a
 * tool without parameters, since providers reject a tool with no schema at all.
 */
QJsonObject schemaObject(const QByteArray &schema);

/** Tool-call arguments as an object (Anthropic wants the object, not its text); `{}` when empty. */
QJsonObject argumentsObject(const QByteArray &arguments);

} // namespace sf::detail
