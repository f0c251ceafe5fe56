#pragma once

#include "common/LoadError.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <variant>

namespace sf {

/// One file of a skill folder.
struct SkillFile
{
    QString relativePath; ///< with '/' separators, e.g. "references/api.md"
    qint64 bytes = 0;
    int tokens = 0;     ///< estimateTokens() of its text; 0 for binary files
    bool isText = true; ///< valid UTF-8 without NUL bytes
};

/// A skill folder on disk: SKILL.md plus references/, scripts/, assets/ and any other files. Writes are
/// atomic and never leave the folder.
class SkillFolder final
{
public:
    /// Opens @p dir; fails (naming the folder) when it does not exist or holds neither SKILL.md nor skill.md.
    static std::variant<SkillFolder, LoadError> open(const QString &dir);

    QString path() const { return m_path; } ///< absolute, clean
    QString name() const;                   ///< the folder name
    /// "SKILL.md", or "skill.md" when only the lowercase spelling exists (accepted with a warning).
    QString skillMdFileName() const;
    QString skillMdPath() const;

    QList<SkillFile> files() const; ///< excluding .versions/ and hidden files; SKILL.md first, then by path
    int totalTokens() const;

    /// Each returns "" on success or a message. They refuse absolute paths, paths that escape the folder
    /// and paths into hidden folders (.versions/); addFile and renameFile refuse to overwrite.
    QString addFile(const QString &relativePath, const QByteArray &content);
    QString renameFile(const QString &from, const QString &to);
    QString removeFile(const QString &relativePath);

    /// The clean relative form of @p relativePath, or "" when it is absolute, escapes the folder or is hidden.
    static QString cleanRelativePath(const QString &relativePath);

private:
    explicit SkillFolder(const QString &path)
        : m_path(path)
    {
    }
    QString m_path;
};

} // namespace sf
