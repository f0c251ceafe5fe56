#include "skill/FileGuard.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFutureWatcher>
#include <QPlainTextEdit>
#include <QtConcurrent/QtConcurrentRun>

namespace sf {

namespace {

QByteArray hashOf(const QByteArray &bytes)
{
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
}

} // namespace

FileGuard::FileGuard(QPlainTextEdit *editor, QObject *parent)
    : QObject(parent)
    , m_editor(editor)
    , m_write(new QFutureWatcher<QString>(this))
    , m_watcher(new QFileSystemWatcher(this))
{
    m_autosave.setInterval(DefaultAutosaveMs);
    connect(&m_autosave, &QTimer::timeout, this, &FileGuard::autosave);
    // An atomic save replaces the file: look a moment later, when the new one is in place.
    m_diskCheck.setSingleShot(true);
    m_diskCheck.setInterval(150);
    connect(&m_diskCheck, &QTimer::timeout, this, &FileGuard::checkDisk);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, [this](const QString &path) {
        if (path == m_file)
            m_diskCheck.start();
    });

    QTextDocument *document = editor->document();
    connect(document, &QTextDocument::contentsChange, this, [this](int, int removed, int added) {
        if (removed || added) // format-only changes (highlighting) are no edit
            m_dirty = true;
    });
    connect(document, &QTextDocument::modificationChanged, this, [this](bool modified) {
        if (modified) {
            m_autosave.start();
            return;
        }
        // Back at the saved text (saved, or undone to it): nothing left to recover.
        m_autosave.stop();
        m_dirty = false;
        if (m_wroteRecovery)
            removeRecovery();
    });
}

FileGuard::~FileGuard()
{
    m_write->disconnect(this);
    m_write->waitForFinished();
}

void FileGuard::open(const QString &file, const QByteArray &bytes)
{
    close();
    m_file = file;
    m_diskHash = hashOf(bytes);
    m_dirty = false;
    watch();
}

void FileGuard::close()
{
    m_autosave.stop();
    m_diskCheck.stop();
    if (!m_watcher->files().isEmpty())
        m_watcher->removePaths(m_watcher->files());
    m_file.clear();
    m_diskHash.clear();
    m_dirty = false;
    m_wroteRecovery = false;
}

void FileGuard::moveTo(const QString &file)
{
    removeRecovery();
    if (!m_watcher->files().isEmpty())
        m_watcher->removePaths(m_watcher->files());
    m_file = file;
    m_dirty = m_editor->document()->isModified();
    watch();
}

void FileGuard::saved(const QByteArray &bytes)
{
    m_diskHash = hashOf(bytes);
    removeRecovery();
    watch();
}

void FileGuard::acknowledgeDisk(const QByteArray &bytes)
{
    m_diskHash = hashOf(bytes);
}

std::optional<RecoveryEntry> FileGuard::pendingRecovery(const QString &diskText)
{
    std::optional<RecoveryEntry> entry = m_store.load(m_file);
    if (!entry)
        return std::nullopt;
    if (entry->text == diskText) {
        m_store.remove(m_file);
        return std::nullopt;
    }
    // The file was saved after the autosave (perhaps by another program): those edits are stale.
    if (entry->savedAt < QFileInfo(m_file).lastModified().toUTC())
        return std::nullopt;
    return entry;
}

void FileGuard::removeRecovery()
{
    if (!m_file.isEmpty())
        m_store.remove(m_file);
    m_wroteRecovery = false;
    ++m_recoveryGeneration; // an autosave still being written is stale
}

void FileGuard::autosave()
{
    if (m_file.isEmpty() || !m_dirty || !m_editor->document()->isModified() || m_write->isRunning())
        return;
    m_dirty = false;
    const RecoveryStore store = m_store;
    const QString file = m_file;
    const QString text = m_editor->toPlainText();
    const quint64 generation = m_recoveryGeneration;
    m_write->disconnect(this);
    connect(m_write, &QFutureWatcher<QString>::finished, this, [this, file, generation] {
        const QString error = m_write->result();
        if (generation != m_recoveryGeneration || file != m_file) {
            // Saved, discarded or closed meanwhile: what was just written must not linger.
            m_store.remove(file);
            return;
        }
        if (!error.isEmpty()) {
            m_dirty = true;
            Q_EMIT autosaveFailed(error);
            return;
        }
        m_wroteRecovery = true;
        Q_EMIT autosaved();
    });
    m_write->setFuture(QtConcurrent::run([store, file, text] { return store.save(file, text); }));
}

void FileGuard::watch()
{
    if (!m_file.isEmpty() && !m_watcher->files().contains(m_file) && QFileInfo::exists(m_file))
        m_watcher->addPath(m_file);
}

void FileGuard::checkDisk()
{
    if (m_file.isEmpty())
        return;
    // A rename into place (an atomic save) ends the old watch: watch the new file.
    watch();
    QFile file(m_file);
    if (!file.open(QIODevice::ReadOnly)) {
        Q_EMIT removedFromDisk();
        Q_EMIT diskChecked();
        return;
    }
    const QByteArray bytes = file.readAll();
    // The same content is the editor's own save, or a touch.
    if (hashOf(bytes) != m_diskHash)
        Q_EMIT changedOnDisk(bytes);
    Q_EMIT diskChecked();
}

} // namespace sf
