#pragma once

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
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

} // namespace sf::test
