#include "runs/RunsView.h"

#include "common/EmptyState.h"
#include "project/Project.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QHeaderView>
#include <QLocale>
#include <QStackedWidget>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sf {

namespace {

// results.jsonl holds one line per finished item, so its line count is the number of items done.
qint64 countResultLines(const QString &runFolder)
{
    QFile file(runFolder + QStringLiteral("/results.jsonl"));
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    qint64 lines = 0;
    while (!file.atEnd()) {
        if (!file.readLine().trimmed().isEmpty())
            ++lines;
    }
    return lines;
}

} // namespace

RunsView::RunsView(QWidget *parent)
    : ViewPage(parent)
    , m_stack(new QStackedWidget(this))
    , m_empty(new EmptyState(this))
    , m_table(new QTreeWidget(this))
{
    m_empty->setText(tr("No runs yet"),
                     tr("An evaluation run tries every student model on the test suite, without and with the "
                        "skill, and stores its results in the project's runs/ folder."));
    m_table->setHeaderLabels({tr("Run"), tr("Last written"), tr("Finished items")});
    m_table->setRootIsDecorated(false);
    m_table->setUniformRowHeights(true);
    m_table->setSortingEnabled(true);
    m_table->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_stack->addWidget(m_empty);
    m_stack->addWidget(m_table);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
}

void RunsView::setProject(const Project *project)
{
    m_project = project;
    reload();
}

void RunsView::openPath(const QString &path)
{
    reload();
    for (int row = 0; row < m_table->topLevelItemCount(); ++row) {
        if (m_table->topLevelItem(row)->data(0, Qt::UserRole).toString() == path)
            m_table->setCurrentItem(m_table->topLevelItem(row));
    }
}

int RunsView::runCount() const
{
    return m_table->topLevelItemCount();
}

void RunsView::reload()
{
    m_table->clear();
    const QList<ProjectItem> runs = m_project ? m_project->items(ProjectItem::Kind::Run) : QList<ProjectItem>{};
    const QLocale locale;
    for (const ProjectItem &run : runs) {
        auto *item = new QTreeWidgetItem(m_table);
        const QDateTime written = QFileInfo(run.path + QStringLiteral("/run.json")).lastModified();
        item->setText(0, run.name);
        item->setText(1, locale.toString(written, QLocale::ShortFormat));
        item->setData(1, Qt::UserRole + 1, written);
        item->setText(2, locale.toString(countResultLines(run.path)));
        item->setData(0, Qt::UserRole, run.path);
    }
    m_table->sortByColumn(0, Qt::DescendingOrder);
    m_stack->setCurrentWidget(runs.isEmpty() ? static_cast<QWidget *>(m_empty) : m_table);
}

} // namespace sf
