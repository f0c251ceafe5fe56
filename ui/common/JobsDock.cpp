#include "common/JobsDock.h"

#include "common/JobsPanel.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"

#include <QAction>
#include <QMainWindow>
#include <QTimer>
#include <QToolButton>
#include <algorithm>

namespace sf {

JobsDock::JobsDock(JobListModel *model, QMainWindow *window)
    : QDockWidget(tr("Jobs"), window)
    , m_model(model)
    , m_window(window)
    , m_panel(new JobsPanel(model, this))
    , m_statusButton(new QToolButton(window))
{
    setObjectName(QStringLiteral("jobsDock"));
    setWidget(m_panel);
    m_statusButton->setObjectName(QStringLiteral("jobsStatusButton"));
    m_statusButton->setAutoRaise(true);
    m_statusButton->setToolTip(tr("Show the Jobs panel"));
    m_statusButton->hide();
    connect(m_statusButton, &QToolButton::clicked, this, [this] {
        m_closedByUser = false;
        appear();
    });
    // The View menu's entry is the user's own choice either way.
    connect(toggleViewAction(), &QAction::triggered, this, [this](bool shown) { m_closedByUser = !shown; });
    connect(this, &QDockWidget::visibilityChanged, this, &JobsDock::updateStatusButton);

    connect(model, &QAbstractItemModel::rowsInserted, this, [this] {
        updateStatusButton();
        if (m_closedByUser)
            return;
        if (isVisible()) {
            appear(); // grows to show the new row whole
            return;
        }
        QTimer::singleShot(ShowAfterMs, this, [this] {
            if (!m_closedByUser && m_model && m_model->activeCount() > 0)
                appear();
        });
    });
    connect(model, &QAbstractItemModel::rowsRemoved, this, [this] {
        if (m_model->rowCount() == 0) {
            m_failuresShown.clear();
            hide();
        }
        updateStatusButton();
    });
    connect(model, &QAbstractItemModel::dataChanged, this,
            [this](const QModelIndex &first, const QModelIndex &last) { onJobsChanged(first.row(), last.row()); });
}

void JobsDock::closeEvent(QCloseEvent *event)
{
    m_closedByUser = true;
    QDockWidget::closeEvent(event);
}

void JobsDock::appear()
{
    const bool wasHidden = isHidden();
    show();
    raise();
    // After the layout has placed the dock (a hidden one has no height of its own yet); never shrunk.
    QTimer::singleShot(0, this, [this, wasHidden] {
        const int wanted = m_panel->sizeHint().height();
        const int titleBar = std::max(0, height() - m_panel->height()); // the dock's size counts its title bar
        if (wasHidden || m_panel->height() < wanted)
            m_window->resizeDocks({this}, {wanted + titleBar}, Qt::Vertical);
    });
}

void JobsDock::onJobsChanged(int firstRow, int lastRow)
{
    updateStatusButton();
    for (int row = firstRow; row <= lastRow; ++row) {
        const Job *job = m_model->jobAt(row);
        if (!job || job->state() != Job::State::Failed || m_failuresShown.contains(job))
            continue;
        // A failure is worth the room even when the user put the panel away: it says why.
        m_failuresShown.insert(job);
        appear(); // the panel scrolls to the failed row itself
    }
}

void JobsDock::updateStatusButton()
{
    if (!m_model)
        return;
    const int jobs = m_model->rowCount(), running = m_model->activeCount();
    m_statusButton->setText(running > 0 ? tr("Jobs: %n running", nullptr, running)
                                        : tr("Jobs: %n listed", nullptr, jobs));
    m_statusButton->setVisible(jobs > 0 && isHidden());
}

} // namespace sf
