#include "skill/RecoveryStore.h"

#include "common/AtomicFile.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>

namespace sf {

namespace {
constexpr int FormatVersion = 1;
}

RecoveryStore::RecoveryStore(const QString &dir)
    : m_dir(dir.isEmpty() ? defaultDir() : dir)
{
}

QString RecoveryStore::defaultDir()
{
    return QDir(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation)).filePath(QStringLiteral("recovery"));
}

QString RecoveryStore::recoveryFileFor(const QString &path) const
{
    const QByteArray key = QFileInfo(path).absoluteFilePath().toUtf8();
    const QString hash = QString::fromLatin1(QCryptographicHash::hash(key, QCryptographicHash::Sha1).toHex());
    return QDir(m_dir).filePath(hash + QStringLiteral(".json"));
}

QString RecoveryStore::save(const QString &path, const QString &text) const
{
    QJsonObject object;
    object.insert(QStringLiteral("version"), FormatVersion);
    object.insert(QStringLiteral("path"), QFileInfo(path).absoluteFilePath());
    object.insert(QStringLiteral("savedAt"), QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs));
    object.insert(QStringLiteral("text"), text);
    return writeFileAtomically(recoveryFileFor(path), QJsonDocument(object).toJson(QJsonDocument::Compact));
}

std::optional<RecoveryEntry> RecoveryStore::load(const QString &path) const
{
    QFile file(recoveryFileFor(path));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonObject object = QJsonDocument::fromJson(file.readAll()).object();
    RecoveryEntry entry;
    entry.path = object.value(QStringLiteral("path")).toString();
    entry.savedAt = QDateTime::fromString(object.value(QStringLiteral("savedAt")).toString(), Qt::ISODateWithMs);
    entry.text = object.value(QStringLiteral("text")).toString();
    // A hash collision or a damaged file is not a recovery of this file.
    if (entry.path != QFileInfo(path).absoluteFilePath() || !entry.savedAt.isValid() ||
        !object.contains(QStringLiteral("text")))
        return std::nullopt;
    return entry;
}

void RecoveryStore::remove(const QString &path) const
{
    QFile::remove(recoveryFileFor(path));
}

} // namespace sf
