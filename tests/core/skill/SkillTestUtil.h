#pragma once

#include "../../support/TestFiles.h"
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
