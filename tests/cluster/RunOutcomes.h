#pragma once

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QString>

namespace sf::test {

/// Each item's outcome as a run's results.jsonl records it, by "model/arm/case/repeat": what must not depend on
/// where the verifiers ran (timings and the answers' usage do).
inline QMap<QString, QJsonObject> runOutcomes(const QString &runDir)
{
    QFile file(QDir(runDir).filePath(QStringLiteral("results.jsonl")));
    QMap<QString, QJsonObject> items;
    if (!file.open(QIODevice::ReadOnly))
        return items;
    for (const QByteArray &line : file.readAll().split('\n')) {
        const QJsonObject o = QJsonDocument::fromJson(line).object();
        if (o.isEmpty())
            continue;
        const QString key =
            QStringLiteral("%1/%2/%3/%4")
                .arg(o.value(QStringLiteral("model")).toString(), o.value(QStringLiteral("arm")).toString(),
                     o.value(QStringLiteral("case")).toString())
                .arg(o.value(QStringLiteral("repeat")).toInt());
        items.insert(key, QJsonObject{{QStringLiteral("passed"), o.value(QStringLiteral("passed"))},
                                      {QStringLiteral("error"), o.value(QStringLiteral("error"))},
                                      {QStringLiteral("verifiers"), o.value(QStringLiteral("verifiers"))}});
    }
    return items;
}

} // namespace sf::test
