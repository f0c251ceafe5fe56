#include "skill/SkillFolder.h"

#include "common/AtomicFile.h"
#include "common/TokenEstimate.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QStringDecoder>
#include <algorithm>

namespace sf {

namespace {

const QString kSkillMd = QStringLiteral("SKILL.md");
const QString kLowercaseSkillMd = QStringLiteral("skill.md");

// Text when it has no NUL byte and decodes as UTF-8: what a model could be given to read.
bool looksLikeText(const QByteArray &content)
{
    if (content.contains('\0'))
        return false;
    QStringDecoder decoder(QStringDecoder::Utf8);
    [[maybe_unused]] const QString decoded = decoder(content);
    return !decoder.hasError();
}

} // namespace

std::variant<SkillFolder, LoadError> SkillFolder::open(const QString &dir)
{
    const QFileInfo info(dir);
    if (!info.isDir())
        return LoadError{dir, 0, 0, QStringLiteral("not a folder")};
    const QStringList names = QDir(dir).entryList(QDir::Files);
    if (!names.contains(kSkillMd) && !names.contains(kLowercaseSkillMd))
        return LoadError{dir, 0, 0, QStringLiteral("not a skill folder: it has no SKILL.md")};
    return SkillFolder(QDir::cleanPath(info.absoluteFilePath()));
}

QString SkillFolder::name() const
{
    return QFileInfo(m_path).fileName();
}

QString SkillFolder::skillMdFileName() const
{
    // entryList, not QFileInfo::exists: on a case-insensitive file system "SKILL.md" would find skill.md.
    return QDir(m_path).entryList(QDir::Files).contains(kSkillMd) ? kSkillMd : kLowercaseSkillMd;
}

QString SkillFolder::skillMdPath() const
{
    return QDir(m_path).filePath(skillMdFileName());
}

QList<SkillFile> SkillFolder::files() const
{
    QList<SkillFile> files;
    const QDir root(m_path);
    QDirIterator it(m_path, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = root.relativeFilePath(path);
        if (cleanRelativePath(relative).isEmpty())
            continue; // hidden, or inside a hidden folder such as .versions/
        SkillFile file;
        file.relativePath = relative;
        QFile f(path);
        file.bytes = f.size();
        if (f.open(QIODevice::ReadOnly)) {
            const QByteArray content = f.readAll();
            file.isText = looksLikeText(content);
            file.tokens = file.isText ? estimateTokens(QString::fromUtf8(content)) : 0;
        } else {
            file.isText = false;
        }
        files.append(file);
    }
    const QString skillMd = skillMdFileName();
    std::sort(files.begin(), files.end(), [&](const SkillFile &a, const SkillFile &b) {
        const bool aFirst = a.relativePath == skillMd, bFirst = b.relativePath == skillMd;
        return aFirst != bFirst ? aFirst : a.relativePath < b.relativePath;
    });
    return files;
}

int SkillFolder::totalTokens() const
{
    int total = 0;
    for (const SkillFile &file : files())
        total += file.tokens;
    return total;
}

QString SkillFolder::cleanRelativePath(const QString &relativePath)
{
    const QString path = QDir::fromNativeSeparators(relativePath);
    if (path.isEmpty() || QDir::isAbsolutePath(path) || path.startsWith(u'/'))
        return {};
    const QString clean = QDir::cleanPath(path);
    if (clean == u"." || clean == u".." || clean.startsWith(QStringLiteral("../")))
        return {};
    const QStringList parts = clean.split(u'/');
    if (std::any_of(parts.begin(), parts.end(), [](const QString &part) { return part.startsWith(u'.'); }))
        return {};
    return clean;
}

QString SkillFolder::addFile(const QString &relativePath, const QByteArray &content)
{
    const QString clean = cleanRelativePath(relativePath);
    if (clean.isEmpty())
        return QStringLiteral("%1: not a path inside the skill folder").arg(relativePath);
    const QString target = QDir(m_path).filePath(clean);
    if (QFileInfo::exists(target))
        return QStringLiteral("%1: already exists").arg(clean);
    return writeFileAtomically(target, content);
}

QString SkillFolder::renameFile(const QString &from, const QString &to)
{
    const QString cleanFrom = cleanRelativePath(from), cleanTo = cleanRelativePath(to);
    if (cleanFrom.isEmpty())
        return QStringLiteral("%1: not a path inside the skill folder").arg(from);
    if (cleanTo.isEmpty())
        return QStringLiteral("%1: not a path inside the skill folder").arg(to);
    const QDir root(m_path);
    if (!QFileInfo(root.filePath(cleanFrom)).isFile())
        return QStringLiteral("%1: no such file").arg(cleanFrom);
    if (QFileInfo::exists(root.filePath(cleanTo)))
        return QStringLiteral("%1: already exists").arg(cleanTo);
    if (!root.mkpath(QFileInfo(cleanTo).path()))
        return QStringLiteral("%1: cannot create its folder").arg(cleanTo);
    if (!QFile::rename(root.filePath(cleanFrom), root.filePath(cleanTo)))
        return QStringLiteral("%1: cannot rename to %2").arg(cleanFrom, cleanTo);
    const QString oldFolder = QFileInfo(cleanFrom).path();
    if (oldFolder != u".")
        root.rmpath(oldFolder); // only removes folders the rename left empty
    return {};
}

QString SkillFolder::removeFile(const QString &relativePath)
{
    const QString clean = cleanRelativePath(relativePath);
    if (clean.isEmpty())
        return QStringLiteral("%1: not a path inside the skill folder").arg(relativePath);
    if (clean == skillMdFileName())
        return QStringLiteral("%1: a skill cannot lose its SKILL.md").arg(clean);
    const QDir root(m_path);
    if (!QFileInfo(root.filePath(clean)).isFile())
        return QStringLiteral("%1: no such file").arg(clean);
    if (!QFile::remove(root.filePath(clean)))
        return QStringLiteral("%1: cannot remove").arg(clean);
    const QString folder = QFileInfo(clean).path();
    if (folder != u".")
        root.rmpath(folder);
    return {};
}

} // namespace sf
