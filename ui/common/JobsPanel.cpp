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

/// Draws one job on one line: its title, its detail (and the scheduler's jobs), a progress bar, the time, and a
/// cancel "×" while it runs.
class JobDelegate final : public QStyledItemDelegate
{
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    static constexpr int CancelWidth = 24;
    static constexpr int BarWidth = 110;
    static constexpr int TimeWidth = 130;

    /// A line of text and a little air: three jobs take about as much height as one did when each took two lines.
    static int rowHeight(const QFontMetrics &metrics) { return metrics.height() + 10; }

    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &) const override
    {
        return {option.rect.width(), rowHeight(option.fontMetrics)};
    }

    static QRect cancelRect(const QRect &row)
    {
        return {row.right() - CancelWidth, row.top() + 2, CancelWidth - 4, row.height() - 4};
    }

    void paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const override
    {
        QStyleOptionViewItem opt(option);
        initStyleOption(&opt, index);
        QStyle *style = opt.widget ? opt.widget->style() : QApplication::style();
        opt.text.clear();
        style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, opt.widget);

        const auto state = Job::State(index.data(JobListModel::StateRole).toInt());
        const QRect row = option.rect.adjusted(8, 0, -4, 0);
        const QRect timeRect(row.right() - CancelWidth - TimeWidth, row.top(), TimeWidth, row.height());
        const int barHeight = std::min(14, row.height() - 6);
        const QRect barRect(timeRect.left() - 8 - BarWidth, row.center().y() - barHeight / 2, BarWidth, barHeight);
        const QRect textRect(row.left(), row.top(), std::max(0, barRect.left() - 12 - row.left()), row.height());

        painter->save();
        QFont bold = opt.font;
        bold.setBold(true);
        const QFontMetrics boldMetrics(bold);
        // The title takes what it needs, up to half the text's room; the detail the rest of the line.
        const QString title =
            boldMetrics.elidedText(index.data(Qt::DisplayRole).toString(), Qt::ElideRight, textRect.width() / 2);
        const int titleWidth = boldMetrics.horizontalAdvance(title);
        painter->setPen(opt.palette.color(QPalette::Text));
        painter->setFont(bold);
        painter->drawText(textRect, Qt::AlignLeft | Qt::AlignVCenter, title);
        painter->setFont(opt.font);

        QString detail = index.data(JobListModel::DetailRole).toString();
        // Work sent to a cluster names its scheduler's jobs after the detail: "Slurm 41: 2 running, 1 done".
        const QString scheduler = index.data(JobListModel::SchedulerRole).toString();
        if (!scheduler.isEmpty())
            detail = detail.isEmpty() ? scheduler : detail + QStringLiteral(" · ") + scheduler;
        QColor detailColour = Theme::muted();
        if (state == Job::State::Failed || index.data(JobListModel::SchedulerRefusedRole).toBool())
            detailColour = Theme::failure();
        painter->setPen(detailColour);
        const QRect detailRect = textRect.adjusted(titleWidth + 12, 0, 0, 0);
        painter->drawText(detailRect, Qt::AlignLeft | Qt::AlignVCenter,
                          opt.fontMetrics.elidedText(detail, Qt::ElideMiddle, detailRect.width()));

        QStyleOptionProgressBar bar;
        bar.rect = barRect;
        bar.minimum = 0;
        bar.maximum = 1000;
        const QVariant progress = index.data(JobListModel::ProgressRole);
        // An unknown total shows as an empty running bar rather than a fake percentage.
        bar.progress = progress.isValid() ? int(progress.toDouble() * 1000) : 0;
        bar.textVisible = false; // the bar's length says it; the line has no room for a second figure
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
        painter->drawText(timeRect, Qt::AlignLeft | Qt::AlignVCenter,
                          opt.fontMetrics.elidedText(time, Qt::ElideRight, timeRect.width()));

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
    const int list = rows * JobDelegate::rowHeight(m_view->fontMetrics()) + 2 * m_view->frameWidth();
    return {QWidget::sizeHint().width(),
            margins.top() + std::max(list, m_clear->sizeHint().height()) + margins.bottom()};
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

    m_clear = new QPushButton(tr("Clear finished"), this);
    connect(m_clear, &QPushButton::clicked, model, &JobListModel::clearFinished);

    // The button beside the list, not under it: the panel is as tall as its rows.
    auto *buttons = new QVBoxLayout;
    buttons->addWidget(m_clear);
    buttons->addStretch(1);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addWidget(m_view, 1);
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
