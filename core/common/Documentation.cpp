#include "Documentation.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace sf::documentation {

QStringList candidates(const QString &applicationDir)
{
    QStringList places{QDir::cleanPath(QDir(applicationDir).filePath(InstalledFolder + QStringLiteral("/README.md")))};
#ifdef SKILLFORGE_SOURCE_README
    // A build tree that was never installed: the sources it was built from.
    places.append(QStringLiteral(SKILLFORGE_SOURCE_README));
#endif
    return places;
}

QString readme(const QString &applicationDir)
{
    for (const QString &place : candidates(applicationDir)) {
        if (QFileInfo(place).isFile())
            return place;
    }
    return {};
}

QString readme()
{
    return readme(QCoreApplication::applicationDirPath());
}

} // namespace sf::documentation
