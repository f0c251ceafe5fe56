#pragma once

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QString>

namespace sf::test {

/// Copies the folder @p from into @p to (created), hidden files included, so that a test can change
/// a fixture or the bundled sample without touching the original.
inline bool copyTree(const QString &from, const QString &to)
{
    const QDir source(from);
    QDirIterator it(from, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString relative = source.relativeFilePath(it.next());
        const QString target = QDir(to).filePath(relative);
        if (!QDir().mkpath(QFileInfo(target).absolutePath()) || !QFile::copy(source.filePath(relative), target))
            return false;
    }
    return QDir().mkpath(to);
}

/// Marks the fake llama-server in @p cacheDir/bin as built by the installer's current recipe (BUILD_RECIPE in
/// scripts/setup-local-model, read from the copy compiled into the app), so the installer keeps it instead of building
/// the server again. Tests that link the core library only.
inline bool stampFakeLlamaServer(const QString &cacheDir)
{
    QFile script(QStringLiteral(":/local-model/setup-local-model"));
    if (!script.open(QIODevice::ReadOnly))
        return false;
    const QRegularExpressionMatch recipe =
        QRegularExpression(QStringLiteral("\nBUILD_RECIPE=\"([^\"]+)\"")).match(QString::fromUtf8(script.readAll()));
    QFile stamp(QDir(cacheDir).filePath(QStringLiteral("bin/llama-server.recipe")));
    return recipe.hasMatch() && stamp.open(QIODevice::WriteOnly) && stamp.write(recipe.captured(1).toUtf8() + '\n') > 0;
}

} // namespace sf::test
