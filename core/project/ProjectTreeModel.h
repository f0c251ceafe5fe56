#pragma once

#include "project/Project.h"

#include <QAbstractItemModel>
#include <QFileSystemWatcher>
#include <QHash>
#include <array>
#include <optional>

namespace sf {

/**
 * The project's contents as a two-level tree for the sidebar: one row per kind (Traces, Skills,
 * Test suites, Runs, Kernel tasks) with the items below. Watches the folders and refreshes itself
 * when files appear or vanish, so a run written by the command line shows up at once.
 */
class ProjectTreeModel final : public QAbstractItemModel
{
    Q_OBJECT

public:
    enum Roles {
        KindRole = Qt::UserRole + 1, ///< ProjectItem::Kind as int
        PathRole,                    ///< absolute path; empty for the kind rows
        IsCategoryRole,              ///< true for the kind rows
    };

    explicit ProjectTreeModel(QObject *parent = nullptr);

    void setProject(const std::optional<Project> &project);
    /// Rescans the project folder (the watcher calls it); resets the model only when items changed.
    void reload();

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    /// The index of the item at @p path, or an invalid index.
    QModelIndex indexForPath(const QString &path) const;

    static QString categoryTitle(ProjectItem::Kind kind);

private:
    static constexpr std::array Kinds = {ProjectItem::Kind::Trace, ProjectItem::Kind::Skill,
                                         ProjectItem::Kind::TestSuite, ProjectItem::Kind::Run,
                                         ProjectItem::Kind::KernelTask};
    static_assert(Kinds[size_t(ProjectItem::Kind::Skill)] == ProjectItem::Kind::Skill, "rows follow the enum order");
    static constexpr quintptr CategoryId = quintptr(-1);

    void watchFolders();
    std::array<QList<ProjectItem>, Kinds.size()> collectItems() const;
    /// A skill's overview (description, tokens, tests, last verdict) for its tooltip, kept until the skill or the
    /// runs change.
    QString skillSummary(const ProjectItem &item) const;

    std::optional<Project> m_project;
    std::array<QList<ProjectItem>, Kinds.size()> m_items;
    QFileSystemWatcher m_watcher;
    mutable QHash<QString, QString> m_skillSummaries; ///< by path and the times SKILL.md and runs/ last changed
};

} // namespace sf
