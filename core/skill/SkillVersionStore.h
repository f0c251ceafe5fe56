#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QMap>
#include <QString>
#include <variant>

namespace sf {

/// One stored version of a skill: what it was, when, and who made it.
struct SkillVersion
{
    QString id;     ///< "20260304T094126Z-3f9a1c": UTC time plus a random suffix; sorts by time
    QDateTime time; ///< UTC
    QString origin; ///< "user" | "teacher:<model>" | "refine:<n>"
    QString message;
    QString contentHash; ///< "sha256:<hex>" over the sorted (path, content) pairs
};

/// The versions kept in <skill>/.versions/<id>/: a version.json manifest plus a snapshot of every file of
/// the skill (everything except .versions/ itself). Snapshots are written to a temporary folder and
/// renamed into place, so a crash never leaves half a version.
class SkillVersionStore final
{
public:
    explicit SkillVersionStore(const QString &skillDir);

    QList<SkillVersion> versions() const; ///< newest first; unreadable versions are left out
    /// Stores the current content. When it is identical to the newest version, stores nothing and returns
    /// that version. An error string on failure.
    std::variant<SkillVersion, QString> snapshot(const QString &origin, const QString &message);
    /// Before a change the user makes (a save, a rename, a deletion): stores the folder as it is now unless the newest
    /// version already holds it, so the skill as it was found (written by hand, unpacked, copied in) and edits
    /// another program made are never overwritten without a version to go back to. @p change says what is about to
    /// happen ("saving SKILL.md"). The version that holds the current state, or an error string.
    std::variant<SkillVersion, QString> keepBeforeChange(const QString &change);
    QMap<QString, QByteArray> files(const QString &versionId) const; ///< relative path -> content
    /// Snapshots the current state first (origin "user", "before restoring <id>"), then makes the folder
    /// hold exactly the version's files (.versions/ kept). "" or an error.
    QString restore(const QString &versionId);

    /// The hash snapshot() records, for any set of files.
    static QString contentHash(const QMap<QString, QByteArray> &files);
    /// The skill's current files (everything except .versions/), relative path -> content.
    QMap<QString, QByteArray> currentFiles() const;

private:
    QString m_dir;
};

} // namespace sf
