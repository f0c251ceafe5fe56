#pragma once

#include "common/AtomicFile.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QString>
#include <QTest>

namespace sf::test {

/// A fixture skill folder from tests/fixtures/skills/ (open read-only; copyTree() it to change it).
inline QString fixture(const QString &name)
{
    return QFINDTESTDATA("../../fixtures/skills/") + name;
}

/// Copies the folder @p from into @p to (created), so that a test can change a fixture.
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

/// Writes @p text (UTF-8) to @p dir/@p relativePath, creating folders.
inline bool writeText(const QString &dir, const QString &relativePath, const QString &text)
{
    return sf::writeFileAtomically(QDir(dir).filePath(relativePath), text.toUtf8()).isEmpty();
}

inline QByteArray readBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace sf::test
