#include "trace/SessionBrowserDialog.h"

#include "common/Plural.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace sf {

namespace {
constexpr int PathRole = Qt::UserRole + 1;
constexpr int SortRole = Qt::UserRole + 2;
} // namespace

SessionBrowserDialog::SessionBrowserDialog(const QString &claudeProjects, const QString &codexSessions, QWidget *parent)
    : QDialog(parent)
    , m_model(new QStandardItemModel(0, 5, this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTreeView(this))
    , m_status(new QLabel(tr("Looking for sessions…"), this))
{
    setWindowTitle(tr("Agent sessions on this computer"));
    resize(900, 520);
    m_model->setHorizontalHeaderLabels({tr("Title"), tr("Date"), tr("Size"), tr("Project"), tr("Agent")});
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SortRole);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(1, Qt::DescendingOrder);
    m_view->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_view->header()->setStretchLastSection(false);

    auto *filter = new QLineEdit(this);
    filter->setPlaceholderText(tr("Filter by title or project"));
    filter->setClearButtonEnabled(true);
    connect(filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    QPushButton *open = buttons->button(QDialogButtonBox::Open);
    open->setEnabled(false);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_view, &QTreeView::doubleClicked, this, &QDialog::accept);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [open](const QModelIndex &current) { open->setEnabled(current.isValid()); });

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("Sessions from %1 and %2").arg(claudeProjects, codexSessions), this));
    layout->addWidget(filter);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_status);
    layout->addWidget(buttons);

    connect(&m_watcher, &QFutureWatcher<QList<AgentSessionFile>>::finished, this, [this] { fill(m_watcher.result()); });
    m_watcher.setFuture(QtConcurrent::run(
        [claudeProjects, codexSessions] { return listAgentSessions(claudeProjects, codexSessions); }));
}

void SessionBrowserDialog::fill(const QList<AgentSessionFile> &sessions)
{
    const QLocale locale;
    for (const AgentSessionFile &session : sessions) {
        QList<QStandardItem *> row;
        auto *title = new QStandardItem(session.title.isEmpty() ? tr("(untitled)") : session.title);
        title->setData(session.path, PathRole);
        title->setData(session.title, SortRole);
        title->setToolTip(session.path);
        auto *date = new QStandardItem(locale.toString(session.modified, QLocale::ShortFormat));
        date->setData(session.modified, SortRole);
        auto *size = new QStandardItem(locale.formattedDataSize(session.bytes));
        size->setData(session.bytes, SortRole);
        auto *project = new QStandardItem(session.project);
        project->setData(session.project, SortRole);
        auto *agent = new QStandardItem(session.agent);
        agent->setData(session.agent, SortRole);
        row << title << date << size << project << agent;
        for (QStandardItem *item : row)
            item->setEditable(false);
        m_model->appendRow(row);
    }
    m_status->setText(sessions.isEmpty() ? tr("No sessions found.")
                                         : plural(sessions.size(), tr("1 session"), tr("%n sessions")));
}

QString SessionBrowserDialog::selectedPath() const
{
    const QModelIndex current = m_view->currentIndex();
    return current.isValid() ? current.siblingAtColumn(0).data(PathRole).toString() : QString();
}

int SessionBrowserDialog::sessionCount() const
{
    return m_model->rowCount();
}

} // namespace sf
