#include "common/ProjectSidebar.h"

#include "project/ProjectTreeModel.h"

#include <QFileInfo>
#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QIcon>
#include <QMenu>
#include <QTreeView>
#include <QVBoxLayout>

namespace sf {

namespace {

QIcon iconFor(ProjectItem::Kind kind)
{
    switch (kind) {
    case ProjectItem::Kind::Trace: return QIcon(QStringLiteral(":/icons/trace.svg"));
    case ProjectItem::Kind::Skill: return QIcon(QStringLiteral(":/icons/skill.svg"));
    case ProjectItem::Kind::TestSuite: return QIcon(QStringLiteral(":/icons/tests.svg"));
    case ProjectItem::Kind::Run: return QIcon(QStringLiteral(":/icons/runs.svg"));
    case ProjectItem::Kind::KernelTask: return QIcon(QStringLiteral(":/icons/kernels.svg"));
    }
    return {};
}

/// Adds the icons: core's model has no Gui types, so the view's side supplies them.
class IconProxy final : public QIdentityProxyModel
{
public:
    using QIdentityProxyModel::QIdentityProxyModel;

    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role == Qt::DecorationRole)
            return iconFor(ProjectItem::Kind(index.data(ProjectTreeModel::KindRole).toInt()));
        if (role == Qt::FontRole && index.data(ProjectTreeModel::IsCategoryRole).toBool()) {
            QFont font;
            font.setBold(true);
            return font;
        }
        return QIdentityProxyModel::data(index, role);
    }
};

} // namespace

ProjectSidebar::ProjectSidebar(ProjectTreeModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_tree(new QTreeView(this))
{
    auto *proxy = new IconProxy(this);
    proxy->setSourceModel(model);
    m_tree->setModel(proxy);
    m_tree->setHeaderHidden(true);
    m_tree->setUniformRowHeights(true);
    // Long names keep both ends: a run's name ends in what tells it from the others, a file's in its extension.
    m_tree->setTextElideMode(Qt::ElideMiddle);
    m_tree->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_tree->setAccessibleName(tr("Project contents"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tree);

    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex &current) { onCurrentChanged(current); });
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_tree, &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        if (QMenu *menu = contextMenuFor(m_tree->indexAt(at), this)) {
            menu->setAttribute(Qt::WA_DeleteOnClose);
            menu->popup(m_tree->viewport()->mapToGlobal(at));
        }
    });
    // A reset (project opened, files changed on disk) collapses the tree; show every kind again.
    connect(model, &QAbstractItemModel::modelReset, m_tree, &QTreeView::expandAll);
}

bool ProjectSidebar::selectPath(const QString &path)
{
    auto *proxy = static_cast<QIdentityProxyModel *>(m_tree->model());
    const QModelIndex index = proxy->mapFromSource(m_model->indexForPath(path));
    if (!index.isValid())
        return false;
    m_tree->setCurrentIndex(index);
    return true;
}

bool ProjectSidebar::selectFirst(ProjectItem::Kind kind)
{
    QAbstractItemModel *proxy = m_tree->model();
    for (int row = 0; row < proxy->rowCount(); ++row) {
        const QModelIndex category = proxy->index(row, 0);
        if (ProjectItem::Kind(category.data(ProjectTreeModel::KindRole).toInt()) == kind && proxy->rowCount(category) > 0) {
            m_tree->setCurrentIndex(proxy->index(0, 0, category));
            return true;
        }
    }
    return false;
}

QMenu *ProjectSidebar::contextMenuFor(const QModelIndex &index, QWidget *parent)
{
    if (!index.isValid() || index.data(ProjectTreeModel::IsCategoryRole).toBool())
        return nullptr;
    const auto kind = ProjectItem::Kind(index.data(ProjectTreeModel::KindRole).toInt());
    const QString path = index.data(ProjectTreeModel::PathRole).toString();
    auto *menu = new QMenu(parent);
    menu->addAction(tr("Open"), this, [this, index, kind, path] {
        if (m_tree->currentIndex() == index)
            Q_EMIT itemActivated(kind, path); // selected already: open it again
        else
            m_tree->setCurrentIndex(index);
    });
    const QFileInfo info(path);
    menu->addAction(tr("Reveal in File Manager"), this, [this, info] {
        Q_EMIT revealRequested(info.isDir() ? info.absoluteFilePath() : info.absolutePath());
    });
    if (kind == ProjectItem::Kind::Run) {
        menu->addSeparator();
        menu->addAction(tr("Compare"), this, [this, path] { Q_EMIT compareRequested(path); });
    }
    return menu;
}

void ProjectSidebar::onCurrentChanged(const QModelIndex &current)
{
    if (!current.isValid() || current.data(ProjectTreeModel::IsCategoryRole).toBool())
        return;
    Q_EMIT itemActivated(ProjectItem::Kind(current.data(ProjectTreeModel::KindRole).toInt()),
                         current.data(ProjectTreeModel::PathRole).toString());
}

} // namespace sf
