#include "skill/SkillPackage.h"

#include "skill/SkillFolder.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <cstdio>
#include <zip.h>

namespace sf {

namespace {

QString randomSuffix()
{
    return QStringLiteral("%1").arg(QRandomGenerator::global()->generate() & 0xffffff, 6, 16, QLatin1Char('0'));
}

// The files a package or an installed copy carries, as skill-relative paths in a stable order.
QStringList packagedFiles(const QString &skillDir)
{
    QStringList files;
    const QDir root(skillDir);
    QDirIterator it(skillDir, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString relative = root.relativeFilePath(it.next());
        if (!isExcludedFromPackage(relative))
            files.append(relative);
    }
    files.sort();
    return files;
}

// POSIX permissions as zip's external attributes carry them (the upper 16 bits), so scripts stay executable.
zip_uint32_t unixMode(QFileDevice::Permissions permissions)
{
    zip_uint32_t mode = 0100000; // regular file
    const std::pair<QFileDevice::Permission, zip_uint32_t> bits[] = {
        {QFileDevice::ReadOwner, 0400}, {QFileDevice::WriteOwner, 0200}, {QFileDevice::ExeOwner, 0100},
        {QFileDevice::ReadGroup, 040},  {QFileDevice::WriteGroup, 020},  {QFileDevice::ExeGroup, 010},
        {QFileDevice::ReadOther, 04},   {QFileDevice::WriteOther, 02},   {QFileDevice::ExeOther, 01}};
    for (const auto &[permission, bit] : bits)
        mode |= permissions.testFlag(permission) ? bit : 0;
    return mode;
}

QString zipError(zip_t *archive)
{
    return QString::fromUtf8(zip_strerror(archive));
}

} // namespace

bool isExcludedFromPackage(const QString &relativePath)
{
    const QStringList parts = QDir::fromNativeSeparators(relativePath).split(u'/', Qt::SkipEmptyParts);
    if (parts.isEmpty())
        return true;
    for (const QString &part : parts) {
        if (part == u"__pycache__" || part == u"node_modules")
            return true;
    }
    const QString &fileName = parts.last();
    return fileName == u".DS_Store" || fileName.endsWith(QStringLiteral(".pyc")) || parts.first() == u".versions" ||
           (parts.first() == u"evals" && parts.size() > 1);
}

PackResult packSkill(const QString &skillDir, const QString &outputFile)
{
    PackResult result;
    const auto opened = SkillFolder::open(skillDir);
    if (const LoadError *error = std::get_if<LoadError>(&opened)) {
        result.error = error->toString();
        return result;
    }
    const SkillFolder &folder = std::get<SkillFolder>(opened);
    result.problems = validateSkill(folder.path(), ValidationProfile::AgentSkills);
    if (hasErrors(result.problems)) {
        const auto errors = std::count_if(result.problems.begin(), result.problems.end(),
                                          [](const SkillProblem &p) { return p.isError(); });
        result.error =
            QStringLiteral("%1: not packed: %2 error(s) under the agentskills profile").arg(folder.path()).arg(errors);
        return result;
    }

    const QString target =
        QFileInfo(outputFile.isEmpty()
                      ? QFileInfo(folder.path()).dir().filePath(folder.name() + QStringLiteral(".skill"))
                      : outputFile)
            .absoluteFilePath();
    if (!QDir().mkpath(QFileInfo(target).absolutePath())) {
        result.error = QStringLiteral("%1: cannot create its folder").arg(target);
        return result;
    }
    const QString temporary = target + QStringLiteral(".tmp-") + randomSuffix();
    int zipErrorCode = 0;
    zip_t *archive = zip_open(QFile::encodeName(temporary).constData(), ZIP_CREATE | ZIP_TRUNCATE, &zipErrorCode);
    if (!archive) {
        zip_error_t error;
        zip_error_init_with_code(&error, zipErrorCode);
        result.error =
            QStringLiteral("%1: cannot create: %2").arg(target, QString::fromUtf8(zip_error_strerror(&error)));
        zip_error_fini(&error);
        return result;
    }
    const QDir root(folder.path());
    for (const QString &relative : packagedFiles(folder.path())) {
        const QString entry = folder.name() + u'/' + relative;
        const QString path = root.filePath(relative);
        zip_source_t *source = zip_source_file(archive, QFile::encodeName(path).constData(), 0, -1);
        const zip_int64_t index =
            source ? zip_file_add(archive, entry.toUtf8().constData(), source, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE)
                   : -1;
        if (index < 0) {
            if (source)
                zip_source_free(source);
            result.error = QStringLiteral("%1: cannot add %2: %3").arg(target, relative, zipError(archive));
            zip_discard(archive);
            QFile::remove(temporary);
            return result;
        }
        zip_file_set_external_attributes(archive, zip_uint64_t(index), 0, ZIP_OPSYS_UNIX,
                                         unixMode(QFile::permissions(path)) << 16);
        result.entries.append(entry);
    }
    if (zip_close(archive) != 0) {
        result.error = QStringLiteral("%1: cannot write: %2").arg(target, zipError(archive));
        zip_discard(archive);
        QFile::remove(temporary);
        result.entries.clear();
        return result;
    }
    // rename(2) replaces an older archive in one step.
    if (std::rename(QFile::encodeName(temporary).constData(), QFile::encodeName(target).constData()) != 0) {
        QFile::remove(temporary);
        result.error = QStringLiteral("%1: cannot move the archive into place").arg(target);
        result.entries.clear();
        return result;
    }
    result.archivePath = target;
    return result;
}

QString skillsDir(SkillsLocation location, const QString &projectDir)
{
    const QDir project(projectDir.isEmpty() ? QDir::currentPath() : projectDir);
    switch (location) {
    case SkillsLocation::UserClaude:
        return QDir::home().filePath(QStringLiteral(".claude/skills"));
    case SkillsLocation::ProjectClaude:
        return project.filePath(QStringLiteral(".claude/skills"));
    case SkillsLocation::ProjectAgents:
        return project.filePath(QStringLiteral(".agents/skills"));
    }
    return {};
}

QString installSkill(const QString &skillDir, const QString &skillsDirPath, bool overwrite, QString *installedPath)
{
    const auto opened = SkillFolder::open(skillDir);
    if (const LoadError *error = std::get_if<LoadError>(&opened))
        return error->toString();
    const SkillFolder &folder = std::get<SkillFolder>(opened);
    const QDir skills(QDir::cleanPath(QFileInfo(skillsDirPath).absoluteFilePath()));
    const QString target = skills.filePath(folder.name());
    if (QDir::cleanPath(target) == folder.path() || skills.absolutePath().startsWith(folder.path() + u'/'))
        return QStringLiteral("%1: cannot install a skill into itself").arg(target);
    if (QFileInfo::exists(target) && !overwrite)
        return QStringLiteral("%1 already exists; confirm overwriting it (--force) to replace it").arg(target);
    if (!skills.mkpath(QStringLiteral(".")))
        return QStringLiteral("%1: cannot create the folder").arg(skills.path());

    // Copy beside the target under a hidden name, then rename: the target is never half written.
    const QString staging = skills.filePath(u'.' + folder.name() + QStringLiteral(".installing-") + randomSuffix());
    const QDir source(folder.path());
    for (const QString &relative : packagedFiles(folder.path())) {
        const QString to = QDir(staging).filePath(relative);
        if (!QDir().mkpath(QFileInfo(to).absolutePath()) || !QFile::copy(source.filePath(relative), to)) {
            QDir(staging).removeRecursively();
            return QStringLiteral("%1: cannot copy %2").arg(target, relative);
        }
    }
    QString previous;
    if (QFileInfo::exists(target)) {
        previous = skills.filePath(u'.' + folder.name() + QStringLiteral(".replaced-") + randomSuffix());
        if (!QDir().rename(target, previous)) {
            QDir(staging).removeRecursively();
            return QStringLiteral("%1: cannot move the existing copy aside").arg(target);
        }
    }
    if (!QDir().rename(staging, target)) {
        if (!previous.isEmpty())
            QDir().rename(previous, target);
        QDir(staging).removeRecursively();
        return QStringLiteral("%1: cannot move the new copy into place").arg(target);
    }
    if (!previous.isEmpty())
        QDir(previous).removeRecursively();
    if (installedPath)
        *installedPath = target;
    return {};
}

} // namespace sf
