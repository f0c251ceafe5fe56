#pragma once

#include "project/Project.h"

#include <QWidget>

class QMenu;
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
    /// The context menu of the item at @p index (none for a category): Open, Reveal in File Manager, and Compare for
    /// a run. The caller owns it.
    QMenu *contextMenuFor(const QModelIndex &index, QWidget *parent = nullptr);

Q_SIGNALS:
    void itemActivated(sf::ProjectItem::Kind kind, const QString &path);
    /// The folder to show in the file manager (an item's own folder, or the one a file lies in).
    void revealRequested(const QString &folder);
    /// Compare the run in @p runDir (the Compare view, on it).
    void compareRequested(const QString &runDir);

private:
    void onCurrentChanged(const QModelIndex &current);

    ProjectTreeModel *m_model;
    QTreeView *m_tree;
};

} // namespace sf
