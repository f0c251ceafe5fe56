#include "common/JobsPanel.h"

#include "common/Theme.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"

#include <QApplication>
#include <QHBoxLayout>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QStyledItemDelegate>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

namespace sf {

namespace {

/// Draws one job: title and detail, a progress bar, the time, and a cancel "×" while it runs.
class JobDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    static constexpr int RowHeight = 46;
    static constexpr int CancelWidth = 28;

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const override
    {
        return {option.rect.width(), RowHeight};
    }

    static QRect cancelRect(const QRect &row)
    {
        return {row.right() - CancelWidth, row.top() + 8, CancelWidth - 6, 22};
    }

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QStyleOptionViewItem opt(option);
        initStyleOption(&opt, index);
        QStyle *style = opt.widget ? opt.widget->style() : QApplication::style();
        opt.text.clear();
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);

        const auto state = Job::State(index.data(JobListModel::StateRole).toInt());
        const QRect row = option.rect.adjusted(8, 4, -8, -4);
        const int timeWidth = 140;
        const QRect textRect(row.left(), row.top(), row.width() / 2, row.height() / 2);
        const QRect detailRect(row.left(), row.center().y(), row.width() - timeWidth - CancelWidth, row.height() / 2);
        const QRect barRect(row.left() + row.width() / 2 + 8, row.top() + 6,
                            row.width() / 2 - timeWidth - CancelWidth - 16, 14);
        const QRect timeRect(barRect.right() + 8, row.top(), timeWidth, row.height() / 2);

        painter->save();
        painter->setPen(opt.palette.color(QPalette::Text));
        QFont bold = opt.font;
        bold.setBold(true);
        painter->setFont(bold);
        painter->drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter, index.data(Qt::DisplayRole).toString());
        painter->setFont(opt.font);

        QColor detailColour = Theme::muted();
        if (state == Job::State::Failed)
            detailColour = Theme::failure();
        painter->setPen(detailColour);
        const QString detail = index.data(JobListModel::DetailRole).toString();
        // Work sent to a cluster names its scheduler's jobs under the bar: "Slurm 41: 2 running, 1 done".
        const QString scheduler = index.data(JobListModel::SchedulerRole).toString();
        QRect ownDetailRect = detailRect;
        if (!scheduler.isEmpty())
            ownDetailRect.setRight(barRect.left() - 8);
        painter->drawText(ownDetailRect, Qt::AlignLeft | Qt::AlignVCenter,
                          opt.fontMetrics.elidedText(detail, Qt::ElideMiddle, ownDetailRect.width()));
        if (!scheduler.isEmpty()) {
            const QRect schedulerRect(barRect.left(), row.center().y(), row.right() - CancelWidth - barRect.left(),
                                      row.height() / 2);
            painter->setPen(index.data(JobListModel::SchedulerRefusedRole).toBool()
                                ? Theme::failure()
                                : opt.palette.color(QPalette::Text));
            painter->drawText(schedulerRect, Qt::AlignLeft | Qt::AlignVCenter,
                              opt.fontMetrics.elidedText(scheduler, Qt::ElideRight, schedulerRect.width()));
        }

        QStyleOptionProgressBar bar;
        bar.rect = barRect;
        bar.minimum = 0;
        bar.maximum = 1000;
        const QVariant progress = index.data(JobListModel::ProgressRole);
        // An unknown total shows as an empty running bar rather than a fake percentage.
        bar.progress = progress.isValid() ? int(progress.toDouble() * 1000) : 0;
        bar.textVisible = progress.isValid();
        bar.text = progress.isValid() ? QStringLiteral("%1%").arg(int(progress.toDouble() * 100)) : QString();
        bar.state = QStyle::State_Enabled | QStyle::State_Horizontal;
        bar.palette = opt.palette;
        style->drawControl(QStyle::CE_ProgressBar, &bar, painter, opt.widget);

        QString time;
        switch (state) {
        case Job::State::Running: {
            time = JobListModel::formatDuration(index.data(JobListModel::ElapsedMsRole).toLongLong());
            const QVariant eta = index.data(JobListModel::EtaMsRole);
            if (eta.isValid())
                time += QObject::tr(", %1 left").arg(JobListModel::formatDuration(eta.toLongLong()));
            break;
        }
        case Job::State::Finished:
            time = QObject::tr("done in %1")
                       .arg(JobListModel::formatDuration(index.data(JobListModel::ElapsedMsRole).toLongLong()));
            break;
        case Job::State::Failed:
            time = QObject::tr("failed");
            break;
        case Job::State::Cancelled:
            time = QObject::tr("cancelled");
            break;
        }
        painter->setPen(opt.palette.color(QPalette::Text));
        painter->drawText(timeRect, Qt::AlignLeft | Qt::AlignVCenter, time);

        const auto *job = qobject_cast<const Job *>(index.data(JobListModel::JobRole).value<QObject *>());
        if (state == Job::State::Running && job && job->isCancellable())
            painter->drawText(cancelRect(option.rect), Qt::AlignCenter, QStringLiteral("✕"));
        painter->restore();
    }

    bool editorEvent(QEvent *event, QAbstractItemModel *, const QStyleOptionViewItem &option,
                     const QModelIndex &index) override
    {
        if (event->type() != QEvent::MouseButtonRelease)
            return false;
        const auto *mouse = static_cast<QMouseEvent *>(event);
        if (!cancelRect(option.rect).contains(mouse->position().toPoint()))
            return false;
        if (auto *job = qobject_cast<Job *>(index.data(JobListModel::JobRole).value<QObject *>()))
            job->requestCancel();
        return true;
    }
};

} // namespace

QSize JobsPanel::sizeHint() const
{
    const int rows = std::clamp(m_model->rowCount(), 1, MaxRowsShown);
    const QMargins margins = layout()->contentsMargins();
    const int buttons = layout()->itemAt(1)->sizeHint().height();
    return {QWidget::sizeHint().width(), margins.top() + rows * JobDelegate::RowHeight + 2 * m_view->frameWidth() +
                                             layout()->spacing() + buttons + margins.bottom()};
}

JobsPanel::JobsPanel(JobListModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_view(new QTreeView(this))
{
    m_view->setModel(model);
    m_view->setHeaderHidden(true);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setItemDelegate(new JobDelegate(m_view));
    m_view->setSelectionMode(QAbstractItemView::NoSelection);
    m_view->setAccessibleName(tr("Jobs"));

    auto *clear = new QPushButton(tr("Clear finished"), this);
    connect(clear, &QPushButton::clicked, model, &JobListModel::clearFinished);

    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(clear);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_view);
    layout->addLayout(buttons);

    // The newest job is the first row: keep it in sight when it arrives and when it fails.
    connect(model, &QAbstractItemModel::rowsInserted, m_view, [this] { m_view->scrollToTop(); });
    connect(model, &QAbstractItemModel::dataChanged, m_view, [this](const QModelIndex &first) {
        const Job *job = m_model->jobAt(first.row());
        if (job && job->state() == Job::State::Failed)
            m_view->scrollTo(first);
    });

    // Elapsed time and the estimate move on their own; repaint running rows once a second.
    auto *tick = new QTimer(this);
    connect(tick, &QTimer::timeout, m_view->viewport(), [this] {
        if (m_model->activeCount() > 0)
            m_view->viewport()->update();
    });
    tick->start(1000);
}

} // namespace sf
