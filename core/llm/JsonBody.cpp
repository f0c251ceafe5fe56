#include "JsonBody_p.h"

#include <QJsonDocument>
#include <QJsonParseError>

using namespace Qt::StringLiterals;

namespace sf::detail {

Result<QJsonObject> parseJsonObject(const QByteArray &body)
{
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        const QString start = QString::fromUtf8(body.left(200)).simplified();
        return Result<QJsonObject>::failure(u"The response is not a JSON object: %1"_s.arg(start));
    }
    return Result<QJsonObject>::success(document.object());
}

QString providerErrorMessage(const QJsonObject &object)
{
    const QJsonValue error = object.value("error"_L1);
    if (error.isObject()) {
        return error.toObject().value("message"_L1).toString();
    }
    if (error.isString()) {
        return error.toString();
    }
    if (object.value("detail"_L1).isString()) {
        return object.value("detail"_L1).toString();
    }
    return object.value("message"_L1).toString();
}

QString providerErrorMessage(const QByteArray &body)
{
    const Result<QJsonObject> object = parseJsonObject(body);
    return object ? providerErrorMessage(*object.value) : QString();
}

QJsonObject schemaObject(const QByteArray &schema)
{
    const QJsonDocument document = QJsonDocument::fromJson(schema);
    if (document.isObject()) {
        return document.object();
    }
    return QJsonObject{{"type"_L1, "object"_L1}, {"properties"_L1, QJsonObject()}};
}

QJsonObject argumentsObject(const QByteArray &arguments)
{
    return QJsonDocument::fromJson(arguments).object();
}

} // namespace sf::detail
