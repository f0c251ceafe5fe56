#pragma once

#include "Result.h"

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

} // namespace sf::detail
