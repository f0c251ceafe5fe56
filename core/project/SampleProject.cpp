#include "project/SampleProject.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace sf {

namespace {
const QString ResourceRoot = QStringLiteral(":/sample-project");

QString copyTree(const QString &from, const QString &to)
{
    QDirIterator it(from, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString source = it.next();
        const QString target = to + source.mid(from.size());
        if (!QDir().mkpath(QFileInfo(target).absolutePath()))
            return QStringLiteral("cannot create %1").arg(QFileInfo(target).absolutePath());
        if (!QFile::copy(source, target))
            return QStringLiteral("cannot write %1").arg(target);
        // Files from resources are read-only; the user's copy must be editable.
        QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    }
    return {};
}
} // namespace

QString SampleProject::defaultInstallPath()
{
    return QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/sample-project");
}

QString SampleProject::ensureInstalled(const QString &folder)
{
    if (QFileInfo::exists(folder + QStringLiteral("/skillforge.json")))
        return {};
    if (!QFileInfo(ResourceRoot).isDir())
        return QStringLiteral("this build has no bundled sample project");
    if (QFileInfo::exists(folder))
        return QStringLiteral("%1 exists but is not a Skillforge project; move it away to restore the sample").arg(folder);

    const QString staging = folder + QStringLiteral(".partial");
    QDir(staging).removeRecursively();
    if (QString error = copyTree(ResourceRoot, staging); !error.isEmpty()) {
        QDir(staging).removeRecursively();
        return error;
    }
    if (!QDir().rename(staging, folder)) {
        QDir(staging).removeRecursively();
        return QStringLiteral("cannot move the sample project into %1").arg(folder);
    }
    return {};
}

} // namespace sf
