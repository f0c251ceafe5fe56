#include "project/ProjectTreeModel.h"

#include "eval/SkillOverview.h"
#include "project/AppSettings.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <algorithm>

namespace sf {

ProjectTreeModel::ProjectTreeModel(QObject *parent)
    : QAbstractItemModel(parent)
{
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &ProjectTreeModel::reload);
}

void ProjectTreeModel::setProject(const std::optional<Project> &project)
{
    beginResetModel();
    m_project = project;
    m_items = collectItems();
    endResetModel();
    watchFolders();
}

std::array<QList<ProjectItem>, ProjectTreeModel::Kinds.size()> ProjectTreeModel::collectItems() const
{
    decltype(m_items) items;
    for (size_t i = 0; i < Kinds.size(); ++i)
        items[i] = m_project ? m_project->items(Kinds[i]) : QList<ProjectItem>{};
    return items;
}

void ProjectTreeModel::reload()
{
    auto items = collectItems();
    const auto samePaths = [](const QList<ProjectItem> &a, const QList<ProjectItem> &b) {
        return std::equal(a.cbegin(), a.cend(), b.cbegin(), b.cend(), [](const ProjectItem &x, const ProjectItem &y) {
            return x.path == y.path && x.title == y.title;
        });
    };
    bool changed = false;
    for (size_t i = 0; i < Kinds.size() && !changed; ++i)
        changed = !samePaths(items[i], m_items[i]);
    // Saving a skill writes into its folder (versions, recovery); a reset would drop the sidebar's
    // selection for nothing, so the model resets only when the listed items really changed (or a run's name: a new
    // run can make an older one's name say more to tell them apart).
    if (changed) {
        beginResetModel();
        m_items = std::move(items);
        endResetModel();
    }
    watchFolders();
}

void ProjectTreeModel::watchFolders()
{
    if (const QStringList watched = m_watcher.directories(); !watched.isEmpty())
        m_watcher.removePaths(watched);
    if (!m_project)
        return;
    QStringList folders{m_project->rootPath()};
    for (const ProjectItem::Kind kind : Kinds) {
        if (QDir(m_project->pathFor(kind)).exists())
            folders.append(m_project->pathFor(kind));
    }
    // Skill folders are listed only once they hold SKILL.md, so watch each skill folder as well.
    for (const ProjectItem &item : m_items[size_t(ProjectItem::Kind::Skill)])
        folders.append(item.path);
    m_watcher.addPaths(folders);
}

QModelIndex ProjectTreeModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, CategoryId);
    return createIndex(row, column, quintptr(parent.row()));
}

QModelIndex ProjectTreeModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == CategoryId)
        return {};
    return createIndex(int(child.internalId()), 0, CategoryId);
}

int ProjectTreeModel::rowCount(const QModelIndex &parent) const
{
    if (!m_project)
        return 0;
    if (!parent.isValid())
        return int(Kinds.size());
    if (parent.internalId() == CategoryId && parent.column() == 0)
        return int(m_items[size_t(parent.row())].size());
    return 0;
}

int ProjectTreeModel::columnCount(const QModelIndex &) const
{
    return 1;
}

QVariant ProjectTreeModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    const bool isCategory = index.internalId() == CategoryId;
    const size_t kindRow = isCategory ? size_t(index.row()) : size_t(index.internalId());
    const ProjectItem::Kind kind = Kinds[kindRow];

    if (isCategory) {
        switch (role) {
        case Qt::DisplayRole:
            return QStringLiteral("%1 (%2)").arg(categoryTitle(kind)).arg(m_items[kindRow].size());
        case Qt::ToolTipRole:
            // Seen as "(0)" beside nine tasks in the Kernels view, the group says where the bundled ones are.
            if (kind == ProjectItem::Kind::KernelTask)
                return tr("%1\nThis project's own kernel tasks. The bundled ones (RMSNorm, LayerNorm, softmax and "
                          "more) are listed in the Kernels view.")
                    .arg(m_project->pathFor(kind));
            return m_project->pathFor(kind);
        case KindRole: return int(kind);
        case PathRole: return m_project->pathFor(kind);
        case IsCategoryRole: return true;
        default: return {};
        }
    }
    const ProjectItem &item = m_items[kindRow].at(index.row());
    switch (role) {
    case Qt::DisplayRole: return item.title.isEmpty() ? item.name : item.title;
    case Qt::ToolTipRole:
        if (kind == ProjectItem::Kind::Skill)
            return QStringLiteral("%1\n%2").arg(skillSummary(item), item.path);
        if (!item.description.isEmpty())
            return QStringLiteral("%1\n%2").arg(item.description, item.path);
        return item.title.isEmpty() ? item.path : QStringLiteral("%1\n%2").arg(item.name, item.path);
    case KindRole: return int(kind);
    case PathRole: return item.path;
    case IsCategoryRole: return false;
    default: return {};
    }
}

QString ProjectTreeModel::skillSummary(const ProjectItem &item) const
{
    const QString runs = m_project->runsPath();
    const QString key =
        QStringLiteral("%1|%2|%3")
            .arg(item.path)
            .arg(QFileInfo(QDir(item.path).filePath(QStringLiteral("SKILL.md"))).lastModified().toMSecsSinceEpoch())
            .arg(QFileInfo(runs).lastModified().toMSecsSinceEpoch());
    auto cached = m_skillSummaries.constFind(key);
    if (cached == m_skillSummaries.cend())
        cached = m_skillSummaries.insert(
            key, overviewOfSkill(item.path, runs, AppSettings().verdictThresholds()).summaryText());
    return *cached;
}

QModelIndex ProjectTreeModel::indexForPath(const QString &path) const
{
    for (size_t kindRow = 0; kindRow < Kinds.size(); ++kindRow) {
        const QList<ProjectItem> &items = m_items[kindRow];
        for (int row = 0; row < items.size(); ++row) {
            if (items.at(row).path == path)
                return index(row, 0, index(int(kindRow), 0));
        }
    }
    return {};
}

QString ProjectTreeModel::categoryTitle(ProjectItem::Kind kind)
{
    switch (kind) {
    case ProjectItem::Kind::Trace: return tr("Traces");
    case ProjectItem::Kind::Skill: return tr("Skills");
    case ProjectItem::Kind::TestSuite: return tr("Test suites");
    case ProjectItem::Kind::Run: return tr("Runs");
    // The bundled tasks are not project files (the Kernels view lists them too): the group counts the project's own.
    case ProjectItem::Kind::KernelTask: return tr("Project kernel tasks");
    }
    return {};
}

} // namespace sf
