#pragma once

#include "project/Project.h"

#include <QWidget>

class QTreeView;

namespace sf {

class ProjectTreeModel;

/// The project tree on the left: traces, skills, test suites, runs and kernel tasks, with icons.
class ProjectSidebar final : public QWidget
{
    Q_OBJECT

public:
    explicit ProjectSidebar(ProjectTreeModel *model, QWidget *parent = nullptr);

    /// Selects the item at @p path (if listed) and reports it through itemActivated().
    bool selectPath(const QString &path);
    /// Selects the first item of @p kind, if any.
    bool selectFirst(ProjectItem::Kind kind);
    QTreeView *treeView() const { return m_tree; }

Q_SIGNALS:
    void itemActivated(sf::ProjectItem::Kind kind, const QString &path);

private:
    void onCurrentChanged(const QModelIndex &current);

    ProjectTreeModel *m_model;
    QTreeView *m_tree;
};

} // namespace sf
