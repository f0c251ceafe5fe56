#pragma once

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <optional>

namespace sf {

/// The JSON object in @p path, or nullopt with *error naming the file and what is wrong with it.
inline std::optional<QJsonObject> readJsonObject(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = QStringLiteral("%1: %2").arg(path, file.errorString());
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        *error = QStringLiteral("%1: not a JSON object: %2").arg(path, parseError.errorString());
        return std::nullopt;
    }
    return document.object();
}

} // namespace sf
