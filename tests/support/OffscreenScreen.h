#pragma once

#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSize>
#include <QString>

namespace sf::test {

/// Makes the offscreen platform (the widget tests' platform) show one screen of @p size instead of its default
/// 800×800, through the configuration file it reads, written to @p configPath. Call before the QApplication is made.
/// Tests of the main window use the smallest screen Skillforge supports, 1280×800: a geometry restored from a larger
/// one is brought back onto it.
inline bool useOffscreenScreen(const QSize &size, const QString &configPath)
{
    const QJsonObject screen{{QStringLiteral("name"), QStringLiteral("test")},
                             {QStringLiteral("x"), 0},
                             {QStringLiteral("y"), 0},
                             {QStringLiteral("width"), size.width()},
                             {QStringLiteral("height"), size.height()},
                             {QStringLiteral("logicalDpi"), 96},
                             {QStringLiteral("logicalBaseDpi"), 96},
                             {QStringLiteral("dpr"), 1}};
    QFile config(configPath);
    if (!config.open(QIODevice::WriteOnly) ||
        config.write(QJsonDocument(QJsonObject{{QStringLiteral("screens"), QJsonArray{screen}}}).toJson()) <= 0)
        return false;
    config.close();
    qputenv("QT_QPA_PLATFORM", "offscreen:configfile=" + QFile::encodeName(configPath));
    return true;
}

} // namespace sf::test
