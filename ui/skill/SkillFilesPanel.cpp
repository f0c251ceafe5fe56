#include "skill/SkillFilesPanel.h"

#include "common/Confirm.h"
#include "skill/SkillFolder.h"
#include "skill/SkillVersionStore.h"

#include <QApplication>
#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QStyle>
#include <QToolButton>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

namespace sf {

namespace {

constexpr int PathRole = Qt::UserRole + 1;   // relative path of a file
constexpr int FolderRole = Qt::UserRole + 2; // relative path of a folder node

const QStringList &standardFolders()
{
    static const QStringList folders = {QStringLiteral("references"), QStringLiteral("scripts"),
                                        QStringLiteral("assets")};
    return folders;
}

QString tokenText(int tokens)
{
    return QStringLiteral("≈ ") + QLocale().toString(tokens);
}

} // namespace

SkillFilesPanel::SkillFilesPanel(QWidget *parent)
    : QWidget(parent)
    , m_tree(new QTreeWidget(this))
    , m_total(new QLabel(this))
    , m_add(new QToolButton(this))
    , m_rename(new QToolButton(this))
    , m_remove(new QToolButton(this))
    , m_watcher(new QFileSystemWatcher(this))
    , m_confirm([this](const QString &title, const QString &question) { return askToConfirm(this, title, question); })
{
    auto *title = new QLabel(tr("<b>Files</b>"), this);
    m_add->setIcon(style()->standardIcon(QStyle::SP_FileIcon));
    m_add->setToolTip(tr("New file in the skill (references/, scripts/, assets/)"));
    m_add->setAccessibleName(tr("New file"));
    m_rename->setIcon(style()->standardIcon(QStyle::SP_FileDialogDetailedView));
    m_rename->setToolTip(tr("Rename or move the selected file"));
    m_rename->setAccessibleName(tr("Rename file"));
    m_remove->setIcon(style()->standardIcon(QStyle::SP_TrashIcon));
    m_remove->setToolTip(tr("Delete the selected file"));
    m_remove->setAccessibleName(tr("Delete file"));
    for (QToolButton *button : {m_add, m_rename, m_remove})
        button->setAutoRaise(true);

    m_tree->setColumnCount(2);
    m_tree->setHeaderLabels({tr("File"), tr("Tokens")});
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->setUniformRowHeights(true);
    m_tree->setAccessibleName(tr("Skill files"));
    m_tree->setIndentation(14);
    m_tree->setTextElideMode(Qt::ElideMiddle); // "rmsnorm-…rence.md" keeps the extension in view
    m_total->setContentsMargins(6, 2, 6, 4);
    m_total->setToolTip(tr("Estimated without a tokenizer: word pieces of about four characters, one token per "
                           "symbol. Within about 10% of Claude and cl100k counts on English prose."));

    auto *header = new QHBoxLayout;
    header->setContentsMargins(6, 4, 2, 0);
    header->addWidget(title);
    header->addStretch(1);
    header->addWidget(m_add);
    header->addWidget(m_rename);
    header->addWidget(m_remove);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addLayout(header);
    layout->addWidget(m_tree, 1);
    layout->addWidget(m_total);

    m_refreshTimer.setSingleShot(true);
    m_refreshTimer.setInterval(200);
    connect(&m_refreshTimer, &QTimer::timeout, this, &SkillFilesPanel::refresh);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, [this] { m_refreshTimer.start(); });
    connect(m_tree, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem *item) {
        const QString relative = item->data(0, PathRole).toString();
        if (relative.isEmpty())
            return;
        Q_EMIT fileActivated(m_folder.isEmpty() ? m_singleFile : QDir(m_folder).filePath(relative));
    });
    connect(m_tree, &QTreeWidget::itemClicked, m_tree, &QTreeWidget::itemActivated);
    connect(m_tree, &QTreeWidget::currentItemChanged, this, &SkillFilesPanel::updateButtons);
    connect(m_add, &QToolButton::clicked, this, &SkillFilesPanel::chooseNewFile);
    connect(m_rename, &QToolButton::clicked, this, &SkillFilesPanel::chooseRename);
    connect(m_remove, &QToolButton::clicked, this, &SkillFilesPanel::chooseRemove);
    updateButtons();
}

void SkillFilesPanel::setFolder(const QString &dir)
{
    m_folder = dir.isEmpty() ? QString() : QDir::cleanPath(QFileInfo(dir).absoluteFilePath());
    m_singleFile.clear();
    m_liveTokens.clear();
    refresh();
}

void SkillFilesPanel::setSingleFile(const QString &file)
{
    m_folder.clear();
    m_singleFile = QFileInfo(file).absoluteFilePath();
    m_liveTokens.clear();
    refresh();
}

void SkillFilesPanel::watchFolders()
{
    const QStringList watched = m_watcher->directories();
    if (!watched.isEmpty())
        m_watcher->removePaths(watched);
    if (m_folder.isEmpty())
        return;
    QStringList dirs = {m_folder};
    for (const QString &sub : standardFolders()) {
        const QString path = QDir(m_folder).filePath(sub);
        if (QFileInfo(path).isDir())
            dirs.append(path);
    }
    m_watcher->addPaths(dirs);
}

QTreeWidgetItem *SkillFilesPanel::folderItem(const QString &folder)
{
    if (folder.isEmpty())
        return m_tree->invisibleRootItem();
    const qsizetype slash = folder.lastIndexOf(u'/');
    QTreeWidgetItem *parent = folderItem(slash < 0 ? QString() : folder.left(slash));
    for (int i = 0; i < parent->childCount(); ++i) {
        if (parent->child(i)->data(0, FolderRole).toString() == folder)
            return parent->child(i);
    }
    auto *item = new QTreeWidgetItem(parent, {folder.mid(slash + 1) + u'/'});
    item->setData(0, FolderRole, folder);
    item->setIcon(0, style()->standardIcon(QStyle::SP_DirIcon));
    item->setExpanded(true);
    return item;
}

void SkillFilesPanel::refresh()
{
    const QString selected = selectedRelativePath();
    const QSignalBlocker block(m_tree);
    m_tree->clear();
    m_tokens.clear();
    if (!m_singleFile.isEmpty()) {
        auto *item = new QTreeWidgetItem(m_tree, {QFileInfo(m_singleFile).fileName()});
        item->setData(0, PathRole, QFileInfo(m_singleFile).fileName());
        item->setIcon(0, style()->standardIcon(QStyle::SP_FileIcon));
        m_tree->setCurrentItem(item);
        updateTotal();
        updateButtons();
        return;
    }
    if (m_folder.isEmpty()) {
        updateTotal();
        updateButtons();
        return;
    }
    auto opened = SkillFolder::open(m_folder);
    QList<SkillFile> files;
    if (auto *folder = std::get_if<SkillFolder>(&opened))
        files = folder->files();
    // The standard folders first (in their order), so that SKILL.md stays on top and empty ones are shown.
    for (const SkillFile &file : std::as_const(files)) {
        if (!file.relativePath.contains(u'/')) {
            auto *item = new QTreeWidgetItem(m_tree, {file.relativePath});
            item->setData(0, PathRole, file.relativePath);
        }
    }
    for (const QString &sub : standardFolders())
        folderItem(sub);
    for (const SkillFile &file : std::as_const(files)) {
        m_tokens.insert(file.relativePath, file.tokens);
        QTreeWidgetItem *item = nullptr;
        if (file.relativePath.contains(u'/')) {
            const qsizetype slash = file.relativePath.lastIndexOf(u'/');
            item = new QTreeWidgetItem(folderItem(file.relativePath.left(slash)), {file.relativePath.mid(slash + 1)});
            item->setData(0, PathRole, file.relativePath);
        } else {
            for (int i = 0; i < m_tree->topLevelItemCount() && !item; ++i) {
                if (m_tree->topLevelItem(i)->data(0, PathRole).toString() == file.relativePath)
                    item = m_tree->topLevelItem(i);
            }
        }
        if (!item)
            continue;
        item->setIcon(0, style()->standardIcon(QStyle::SP_FileIcon));
        item->setToolTip(0, QStringLiteral("%1 — %2 bytes").arg(file.relativePath, QLocale().toString(file.bytes)));
        const int tokens = m_liveTokens.value(file.relativePath, file.tokens);
        item->setText(1, file.isText ? tokenText(tokens) : tr("binary"));
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
    }
    m_tree->expandAll();
    if (!m_current.isEmpty())
        setCurrentFile(m_current);
    else if (!selected.isEmpty())
        setCurrentFile(QDir(m_folder).filePath(selected));
    updateTotal();
    updateButtons();
    watchFolders();
}

void SkillFilesPanel::setCurrentFile(const QString &absolutePath)
{
    m_current = absolutePath;
    const QString relative =
        m_folder.isEmpty() ? QFileInfo(absolutePath).fileName() : QDir(m_folder).relativeFilePath(absolutePath);
    const QSignalBlocker block(m_tree);
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        if ((*it)->data(0, PathRole).toString() == relative) {
            m_tree->setCurrentItem(*it);
            break;
        }
    }
    updateButtons();
}

void SkillFilesPanel::setLiveTokens(const QString &relativePath, int tokens)
{
    if (m_liveTokens.value(relativePath, -1) == tokens)
        return;
    m_liveTokens.insert(relativePath, tokens);
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        if ((*it)->data(0, PathRole).toString() == relativePath)
            (*it)->setText(1, tokenText(tokens));
    }
    updateTotal();
}

int SkillFilesPanel::tokensOf(const QString &relativePath) const
{
    return m_liveTokens.value(relativePath, m_tokens.value(relativePath));
}

int SkillFilesPanel::totalTokens() const
{
    int total = 0;
    for (auto it = m_tokens.cbegin(); it != m_tokens.cend(); ++it)
        total += m_liveTokens.value(it.key(), it.value());
    return total;
}

QStringList SkillFilesPanel::files() const
{
    QStringList out;
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        const QString relative = (*it)->data(0, PathRole).toString();
        if (!relative.isEmpty())
            out.append(relative);
    }
    return out;
}

void SkillFilesPanel::updateTotal()
{
    if (m_folder.isEmpty()) {
        m_total->clear();
        m_total->setVisible(false);
        return;
    }
    m_total->setVisible(true);
    m_total->setText(tr("Skill total %1 tokens").arg(tokenText(totalTokens())));
}

void SkillFilesPanel::updateButtons()
{
    const bool inFolder = !m_folder.isEmpty();
    const QString selected = selectedRelativePath();
    const bool isSkillMd = selected.compare(QStringLiteral("SKILL.md"), Qt::CaseInsensitive) == 0;
    m_add->setEnabled(inFolder);
    m_rename->setEnabled(inFolder && !selected.isEmpty() && !isSkillMd);
    m_remove->setEnabled(inFolder && !selected.isEmpty() && !isSkillMd);
}

QString SkillFilesPanel::selectedRelativePath() const
{
    const QTreeWidgetItem *item = m_tree->currentItem();
    return item ? item->data(0, PathRole).toString() : QString();
}

QString SkillFilesPanel::selectedFolder() const
{
    const QTreeWidgetItem *item = m_tree->currentItem();
    if (!item)
        return QStringLiteral("references");
    const QString folder = item->data(0, FolderRole).toString();
    if (!folder.isEmpty())
        return folder;
    const QString path = item->data(0, PathRole).toString();
    const qsizetype slash = path.lastIndexOf(u'/');
    return slash < 0 ? QStringLiteral("references") : path.left(slash);
}

QString SkillFilesPanel::addFile(const QString &relativePath, const QByteArray &content)
{
    auto opened = SkillFolder::open(m_folder);
    if (auto *error = std::get_if<LoadError>(&opened))
        return error->toString();
    if (const QString kept = keepBeforeChange(tr("adding %1").arg(relativePath)); !kept.isEmpty())
        return kept;
    const QString error = std::get<SkillFolder>(opened).addFile(relativePath, content);
    if (!error.isEmpty())
        return error;
    refresh();
    const QString path = QDir(m_folder).filePath(SkillFolder::cleanRelativePath(relativePath));
    const QString stored = storeVersion(tr("Added %1").arg(relativePath));
    Q_EMIT fileAdded(path);
    return stored;
}

QString SkillFilesPanel::keepBeforeChange(const QString &change) const
{
    const auto kept = SkillVersionStore(m_folder).keepBeforeChange(change);
    if (const auto *error = std::get_if<QString>(&kept))
        return tr("Nothing was changed: the skill as it is could not be kept as a version first (%1)").arg(*error);
    return {};
}

QString SkillFilesPanel::storeVersion(const QString &message) const
{
    const auto stored = SkillVersionStore(m_folder).snapshot(QStringLiteral("user"), message);
    if (const auto *error = std::get_if<QString>(&stored))
        return tr("Done, but no version was stored: %1").arg(*error);
    return {};
}

QString SkillFilesPanel::renameFile(const QString &from, const QString &to)
{
    auto opened = SkillFolder::open(m_folder);
    if (auto *error = std::get_if<LoadError>(&opened))
        return error->toString();
    if (const QString kept = keepBeforeChange(tr("renaming %1").arg(from)); !kept.isEmpty())
        return kept;
    const QString error = std::get<SkillFolder>(opened).renameFile(from, to);
    if (!error.isEmpty())
        return error;
    const QString fromPath = QDir(m_folder).filePath(SkillFolder::cleanRelativePath(from));
    const QString toPath = QDir(m_folder).filePath(SkillFolder::cleanRelativePath(to));
    if (m_current == fromPath)
        m_current = toPath;
    m_liveTokens.remove(from);
    refresh();
    const QString stored = storeVersion(tr("Renamed %1 to %2").arg(from, to));
    Q_EMIT fileRenamed(fromPath, toPath);
    return stored;
}

QString SkillFilesPanel::removeFile(const QString &relativePath)
{
    if (!m_confirm(tr("Delete File"), tr("Delete %1 from the skill? The skill as it is now stays in its version "
                                         "history (Versions…).")
                                          .arg(relativePath)))
        return {};
    auto opened = SkillFolder::open(m_folder);
    if (auto *error = std::get_if<LoadError>(&opened))
        return error->toString();
    if (const QString kept = keepBeforeChange(tr("deleting %1").arg(relativePath)); !kept.isEmpty())
        return kept;
    const QString error = std::get<SkillFolder>(opened).removeFile(relativePath);
    if (!error.isEmpty())
        return error;
    const QString path = QDir(m_folder).filePath(SkillFolder::cleanRelativePath(relativePath));
    m_liveTokens.remove(relativePath);
    if (m_current == path)
        m_current.clear();
    refresh();
    const QString stored = storeVersion(tr("Deleted %1").arg(relativePath));
    Q_EMIT fileRemoved(path);
    return stored;
}

void SkillFilesPanel::chooseNewFile()
{
    bool ok = false;
    const QString suggestion = selectedFolder() + QStringLiteral("/new-file.md");
    const QString relative =
        QInputDialog::getText(this, tr("New File"), tr("Path inside the skill (for example references/api.md):"),
                              QLineEdit::Normal, suggestion, &ok)
            .trimmed();
    if (!ok || relative.isEmpty())
        return;
    QByteArray content;
    if (relative.endsWith(QStringLiteral(".md"), Qt::CaseInsensitive))
        content = "# " + QFileInfo(relative).completeBaseName().toUtf8() + "\n\n";
    const QString error = addFile(relative, content);
    if (!error.isEmpty()) {
        showError(error);
        return;
    }
    Q_EMIT fileActivated(QDir(m_folder).filePath(SkillFolder::cleanRelativePath(relative)));
}

void SkillFilesPanel::chooseRename()
{
    const QString from = selectedRelativePath();
    if (from.isEmpty())
        return;
    bool ok = false;
    const QString to =
        QInputDialog::getText(this, tr("Rename File"), tr("New path inside the skill:"), QLineEdit::Normal, from, &ok)
            .trimmed();
    if (!ok || to.isEmpty() || to == from)
        return;
    showError(renameFile(from, to));
}

void SkillFilesPanel::chooseRemove()
{
    const QString relative = selectedRelativePath();
    if (!relative.isEmpty())
        showError(removeFile(relative));
}

void SkillFilesPanel::showError(const QString &error)
{
    if (!error.isEmpty())
        QMessageBox::warning(this, tr("Skill Files"), error);
}

} // namespace sf
