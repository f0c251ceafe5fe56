#pragma once

#include <QHash>
#include <QTimer>
#include <QWidget>
#include <functional>

class QFileSystemWatcher;
class QLabel;
class QToolButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace sf {

/**
 * The files of a skill folder: SKILL.md, then references/, scripts/ and assets/ (shown even when empty, so
 * there is somewhere to add the first file) and any other files, each with its token estimate, and the
 * skill's total. Adds, renames and deletes files through SkillFolder (atomic, never outside the folder);
 * deleting asks first. Follows changes made on disk by other programs.
 */
class SkillFilesPanel final : public QWidget
{
    Q_OBJECT

public:
    /// Asks the user a yes/no question; replaceable so that tests need no modal dialog.
    using Confirm = std::function<bool(const QString &title, const QString &question)>;

    explicit SkillFilesPanel(QWidget *parent = nullptr);

    /// Lists the skill folder @p dir (absolute); an empty string clears the panel.
    void setFolder(const QString &dir);
    /// Lists one file that is not part of a skill folder (a test suite).
    void setSingleFile(const QString &file);
    QString folder() const { return m_folder; }
    void refresh();

    /// Marks @p absolutePath as the file open in the editor.
    void setCurrentFile(const QString &absolutePath);
    /// The token estimate of a file's unsaved text in the editor, shown instead of the saved one.
    void setLiveTokens(const QString &relativePath, int tokens);
    int totalTokens() const;
    int tokensOf(const QString &relativePath) const;
    QStringList files() const; ///< relative paths, as listed

    void setConfirm(Confirm confirm) { m_confirm = std::move(confirm); }

    /// Each returns "" or an error message, and updates the list. Each keeps a version of the skill before and after
    /// the change, so it can be taken back in Versions….
    QString addFile(const QString &relativePath, const QByteArray &content = {});
    QString renameFile(const QString &from, const QString &to);
    /// Asks first (through the confirm function); "" also when the user said no.
    QString removeFile(const QString &relativePath);

    QTreeWidget *tree() const { return m_tree; }

Q_SIGNALS:
    void fileActivated(const QString &absolutePath);
    void fileAdded(const QString &absolutePath);
    void fileRenamed(const QString &fromAbsolutePath, const QString &toAbsolutePath);
    void fileRemoved(const QString &absolutePath);

private:
    QTreeWidgetItem *folderItem(const QString &folder);
    QString selectedRelativePath() const;
    QString selectedFolder() const;
    void chooseNewFile();
    void chooseRename();
    void chooseRemove();
    void showError(const QString &error);
    /// Stores the skill as it is before a rename or deletion: "" or why nothing may change.
    QString keepBeforeChange(const QString &change) const;
    /// Stores the skill after a change made here, so the next change does not take it for someone else's.
    QString storeVersion(const QString &message) const;
    void updateTotal();
    void updateButtons();
    void watchFolders();

    QString m_folder;
    QString m_singleFile;
    QString m_current;
    QHash<QString, int> m_tokens;     ///< relative path -> tokens on disk
    QHash<QString, int> m_liveTokens; ///< relative path -> tokens of the editor's text
    QTreeWidget *m_tree;
    QLabel *m_total;
    QToolButton *m_add;
    QToolButton *m_rename;
    QToolButton *m_remove;
    QFileSystemWatcher *m_watcher;
    QTimer m_refreshTimer;
    Confirm m_confirm;
};

} // namespace sf
