#pragma once

#include <QDateTime>
#include <QString>
#include <optional>

namespace sf {

/// Unsaved edits of one file, as the last autosave left them.
struct RecoveryEntry
{
    QString path;      ///< the edited file, absolute
    QDateTime savedAt; ///< when the autosave ran (UTC)
    QString text;      ///< the editor's text at that time
};

/**
 * Where the editor autosaves unsaved edits so that a crash loses at most a few seconds of typing: one
 * JSON file per edited file in <AppDataLocation>/recovery/, named by a hash of the file's absolute path,
 * written atomically. Saving or discarding the edits removes it.
 */
class RecoveryStore final
{
public:
    /// @p dir defaults to <AppDataLocation>/recovery.
    explicit RecoveryStore(const QString &dir = {});

    static QString defaultDir();
    QString dir() const { return m_dir; }
    QString recoveryFileFor(const QString &path) const;

    /// "" or an error message.
    QString save(const QString &path, const QString &text) const;
    std::optional<RecoveryEntry> load(const QString &path) const;
    void remove(const QString &path) const;

private:
    QString m_dir;
};

} // namespace sf
