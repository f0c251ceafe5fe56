#include "skill/SkillVersionStore.h"

#include "common/AtomicFile.h"

#include <QCryptographicHash>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QtEndian>
#include <algorithm>
#include <optional>

namespace sf {

namespace {

const QString kVersionsFolder = QStringLiteral(".versions");
const QString kManifest = QStringLiteral("version.json");
// The snapshot sits in its own folder so that a skill file named version.json cannot clash with the manifest.
const QString kFilesFolder = QStringLiteral("files");

QMap<QString, QByteArray> readTree(const QString &folder, bool skipVersions)
{
    QMap<QString, QByteArray> files;
    // Absolute, so that each file's path is taken relative to the folder itself: from a relative folder ("gen/x"),
    // the iterator's paths would keep that prefix ("gen/x/SKILL.md") and the snapshot would nest it.
    const QString root = QFileInfo(folder).absoluteFilePath();
    const QDir dir(root);
    QDirIterator it(root, QDir::Files | QDir::Hidden | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString relative = dir.relativeFilePath(path);
        if (skipVersions && (relative == kVersionsFolder || relative.startsWith(kVersionsFolder + u'/')))
            continue;
        QFile file(path);
        if (file.open(QIODevice::ReadOnly))
            files.insert(relative, file.readAll());
    }
    return files;
}

bool isPlainId(const QString &id)
{
    return !id.isEmpty() && !id.startsWith(u'.') && !id.contains(u'/') && !id.contains(u'\\');
}

std::optional<SkillVersion> readManifest(const QString &folder)
{
    QFile file(QDir(folder).filePath(kManifest));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject object = QJsonDocument::fromJson(file.readAll()).object();
    SkillVersion version;
    version.id = QFileInfo(folder).fileName();
    version.time = QDateTime::fromString(object.value(QStringLiteral("time")).toString(), Qt::ISODateWithMs);
    version.origin = object.value(QStringLiteral("origin")).toString();
    version.message = object.value(QStringLiteral("message")).toString();
    version.contentHash = object.value(QStringLiteral("content_hash")).toString();
    if (!version.time.isValid() || version.contentHash.isEmpty())
        return std::nullopt;
    return version;
}

} // namespace

SkillVersionStore::SkillVersionStore(const QString &skillDir)
    : m_dir(skillDir)
{
}

QString SkillVersionStore::contentHash(const QMap<QString, QByteArray> &files)
{
    // Length-prefixed fields: no two different sets of files can produce the same byte stream.
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (auto it = files.begin(); it != files.end(); ++it) {
        const QByteArray path = it.key().toUtf8();
        for (const QByteArray *part : {&path, &it.value()}) {
            const quint64 size = qToLittleEndian(quint64(part->size()));
            hash.addData(QByteArrayView(reinterpret_cast<const char *>(&size), sizeof size));
            hash.addData(*part);
        }
    }
    return QStringLiteral("sha256:") + QString::fromLatin1(hash.result().toHex());
}

QMap<QString, QByteArray> SkillVersionStore::currentFiles() const
{
    return readTree(m_dir, true);
}

QList<SkillVersion> SkillVersionStore::versions() const
{
    QList<SkillVersion> versions;
    const QDir root(QDir(m_dir).filePath(kVersionsFolder));
    for (const QString &id : root.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        if (const auto version = readManifest(root.filePath(id)))
            versions.append(*version);
    }
    std::sort(versions.begin(), versions.end(), [](const SkillVersion &a, const SkillVersion &b) {
        return a.time != b.time ? a.time > b.time : a.id > b.id;
    });
    return versions;
}

std::variant<SkillVersion, QString> SkillVersionStore::snapshot(const QString &origin, const QString &message)
{
    const QMap<QString, QByteArray> files = currentFiles();
    const QString hash = contentHash(files);
    const QList<SkillVersion> existing = versions();
    if (!existing.isEmpty() && existing.first().contentHash == hash)
        return existing.first();

    // Strictly after the newest version, so "newest first" holds even within one millisecond.
    QDateTime time = QDateTime::currentDateTimeUtc();
    if (!existing.isEmpty() && time <= existing.first().time)
        time = existing.first().time.addMSecs(1);
    QDir root(QDir(m_dir).filePath(kVersionsFolder));
    if (!root.mkpath(QStringLiteral(".")))
        return QStringLiteral("%1: cannot create the folder").arg(root.path());
    QString id;
    do {
        id = time.toString(QStringLiteral("yyyyMMdd'T'HHmmsszzz'Z'-")) +
             QStringLiteral("%1").arg(QRandomGenerator::global()->generate() & 0xffffff, 6, 16, QLatin1Char('0'));
    } while (root.exists(id) || root.exists(u'.' + id));

    // Written under a hidden name, renamed when complete: a crash leaves no half version behind.
    const QString staging = root.filePath(u'.' + id);
    SkillVersion version{id, time, origin, message, hash};
    auto fail = [&](const QString &error) {
        QDir(staging).removeRecursively();
        return std::variant<SkillVersion, QString>(error);
    };
    for (auto it = files.begin(); it != files.end(); ++it) {
        const QString copy = QDir(staging).filePath(kFilesFolder + u'/' + it.key());
        const QString error = writeFileAtomically(copy, it.value());
        if (!error.isEmpty())
            return fail(error);
        // The copy keeps the file's permissions, so a restored script is still executable.
        QFile::setPermissions(copy, QFile::permissions(QDir(m_dir).filePath(it.key())));
    }
    const QJsonObject manifest{{QStringLiteral("id"), id},
                               {QStringLiteral("time"), time.toString(Qt::ISODateWithMs)},
                               {QStringLiteral("origin"), origin},
                               {QStringLiteral("message"), message},
                               {QStringLiteral("content_hash"), hash},
                               {QStringLiteral("files"), int(files.size())}};
    const QString error =
        writeFileAtomically(QDir(staging).filePath(kManifest), QJsonDocument(manifest).toJson(QJsonDocument::Indented));
    if (!error.isEmpty())
        return fail(error);
    if (!root.rename(u'.' + id, id))
        return fail(QStringLiteral("%1: cannot rename the new version into place").arg(root.filePath(id)));
    return version;
}

std::variant<SkillVersion, QString> SkillVersionStore::keepBeforeChange(const QString &change)
{
    const bool first = versions().isEmpty();
    return snapshot(QStringLiteral("user"), first ? QStringLiteral("As found, before %1").arg(change)
                                                  : QStringLiteral("Changed outside Skillforge, kept before %1").arg(change));
}

QMap<QString, QByteArray> SkillVersionStore::files(const QString &versionId) const
{
    if (!isPlainId(versionId))
        return {};
    const QString folder = QDir(m_dir).filePath(kVersionsFolder + u'/' + versionId + u'/' + kFilesFolder);
    return QFileInfo(folder).isDir() ? readTree(folder, false) : QMap<QString, QByteArray>();
}

QString SkillVersionStore::restore(const QString &versionId)
{
    const QString folder = QDir(m_dir).filePath(kVersionsFolder + u'/' + versionId);
    if (!isPlainId(versionId) || !readManifest(folder))
        return QStringLiteral("%1: no such version").arg(versionId);
    const QMap<QString, QByteArray> wanted = files(versionId);
    const auto before = snapshot(QStringLiteral("user"), QStringLiteral("before restoring %1").arg(versionId));
    if (const QString *error = std::get_if<QString>(&before))
        return *error;

    // Each file is replaced atomically; files the version did not have are removed afterwards, so a failure
    // part way leaves every file whole and the pre-restore snapshot to go back to.
    const QDir dir(m_dir);
    for (auto it = wanted.begin(); it != wanted.end(); ++it) {
        const QString error = writeFileAtomically(dir.filePath(it.key()), it.value());
        if (!error.isEmpty())
            return error;
        QFile::setPermissions(dir.filePath(it.key()),
                              QFile::permissions(folder + u'/' + kFilesFolder + u'/' + it.key()));
    }
    const QMap<QString, QByteArray> current = currentFiles();
    for (auto it = current.begin(); it != current.end(); ++it) {
        if (wanted.contains(it.key()))
            continue;
        if (!QFile::remove(dir.filePath(it.key())))
            return QStringLiteral("%1: cannot remove").arg(dir.filePath(it.key()));
        const QString parent = QFileInfo(it.key()).path();
        if (parent != u".")
            dir.rmpath(parent);
    }
    return {};
}

} // namespace sf
