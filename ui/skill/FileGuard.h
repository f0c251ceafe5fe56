#pragma once

#include "skill/RecoveryStore.h"

#include <QByteArray>
#include <QObject>
#include <QTimer>
#include <optional>

class QFileSystemWatcher;
template <typename T> class QFutureWatcher;
class QPlainTextEdit;

namespace sf {

/**
 * Keeps the file open in an editor safe: while the text has unsaved edits it autosaves them to a recovery
 * file every few seconds (RecoveryStore; the write, with its fsync, runs off the UI thread), and it watches
 * the file on disk, telling changes made by other
 * programs apart from the editor's own saves by content hash. It decides nothing for the user: the view
 * offers recovery and reload.
 */
class FileGuard final : public QObject
{
    Q_OBJECT

public:
    static constexpr int DefaultAutosaveMs = 5000;

    explicit FileGuard(QPlainTextEdit *editor, QObject *parent = nullptr);
    /// Waits for an autosave in flight.
    ~FileGuard() override;

    /// The editor now shows @p file, loaded from @p bytes.
    void open(const QString &file, const QByteArray &bytes);
    void close();
    /// The file moved (renamed in the files panel); unsaved edits go with it.
    void moveTo(const QString &file);
    /// The editor's text was written to the file (or the user chose to keep it over the disk's): @p bytes is
    /// what the file holds now, and no recovery is needed.
    void saved(const QByteArray &bytes);
    /// The user took note of the disk's current content (reloaded it, or chose to keep their edits).
    void acknowledgeDisk(const QByteArray &bytes);

    /// A recovery of unsaved edits worth offering for the open file: newer than the file and different from
    /// @p diskText. A recovery identical to the file is removed.
    std::optional<RecoveryEntry> pendingRecovery(const QString &diskText);
    void removeRecovery();

    void setAutosaveInterval(int ms) { m_autosave.setInterval(ms); }
    const RecoveryStore &store() const { return m_store; }
    QString file() const { return m_file; }

Q_SIGNALS:
    void autosaved();
    void autosaveFailed(const QString &error);
    /// Another program changed the file: @p bytes is its new content.
    void changedOnDisk(const QByteArray &bytes);
    void removedFromDisk();
    /// A report from the watcher was looked at (whatever it turned out to be).
    void diskChecked();

private:
    void autosave();
    void checkDisk();
    void watch();

    QPlainTextEdit *m_editor;
    RecoveryStore m_store;
    QString m_file;
    QByteArray m_diskHash; ///< of what the file held when the editor last read or wrote it
    bool m_dirty = false;  ///< edited since the last autosave
    bool m_wroteRecovery = false;
    quint64 m_recoveryGeneration = 0; ///< bumped when the recovery file is removed
    QFutureWatcher<QString> *m_write;
    QTimer m_autosave;
    QTimer m_diskCheck;
    QFileSystemWatcher *m_watcher;
};

} // namespace sf
