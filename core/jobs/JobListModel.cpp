#include "jobs/JobListModel.h"

namespace sf {

JobListModel::JobListModel(QObject *parent)
    : QAbstractListModel(parent)
{
}

Job *JobListModel::add(Job *job)
{
    beginInsertRows({}, 0, 0);
    job->setParent(this);
    m_jobs.prepend(job);
    endInsertRows();
    connect(job, &Job::changed, this, [this, job] { onJobChanged(job); });
    connect(job, &Job::ended, this, [this] { Q_EMIT activeCountChanged(activeCount()); });
    Q_EMIT activeCountChanged(activeCount());
    return job;
}

int JobListModel::activeCount() const
{
    return int(std::count_if(m_jobs.cbegin(), m_jobs.cend(), [](const Job *job) { return job->isActive(); }));
}

void JobListModel::clearFinished()
{
    for (int row = int(m_jobs.size()) - 1; row >= 0; --row) {
        if (m_jobs.at(row)->isActive())
            continue;
        beginRemoveRows({}, row, row);
        Job *job = m_jobs.takeAt(row);
        endRemoveRows();
        job->deleteLater();
    }
}

Job *JobListModel::jobAt(int row) const
{
    return row >= 0 && row < m_jobs.size() ? m_jobs.at(row) : nullptr;
}

int JobListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_jobs.size());
}

QVariant JobListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Job *job = m_jobs.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return job->title();
    case Qt::ToolTipRole:
        return toolTip(*job);
    case JobRole:
        return QVariant::fromValue(const_cast<Job *>(job));
    case StateRole:
        return int(job->state());
    case ProgressRole:
        return job->progress() ? QVariant(*job->progress()) : QVariant();
    case DetailRole:
        return job->detail();
    case EtaMsRole:
        return job->etaMs() ? QVariant(*job->etaMs()) : QVariant();
    case ElapsedMsRole:
        return job->elapsedMs();
    case SchedulerRole:
        return job->schedulerSummary();
    case SchedulerRefusedRole:
        return !job->schedulerRefusal().isEmpty();
    default:
        return {};
    }
}

QString JobListModel::toolTip(const Job &job)
{
    QString text = job.detail().isEmpty() ? job.title() : job.title() + u'\n' + job.detail();
    if (!job.schedulerRefusal().isEmpty())
        text += u'\n' + job.schedulerRefusal();
    // Every job id with its state, up to a screenful; the row itself shows the counts.
    constexpr int MaxListed = 30;
    const QList<SchedulerJob> jobs = job.schedulerJobs();
    for (qsizetype i = 0; i < std::min<qsizetype>(jobs.size(), MaxListed); ++i)
        text += QStringLiteral("\n%1 %2: %3").arg(job.scheduler(), jobs[i].id, jobs[i].state);
    if (jobs.size() > MaxListed)
        text += u'\n' + tr("… and %1 more").arg(jobs.size() - MaxListed);
    return text;
}

QString JobListModel::formatDuration(qint64 ms)
{
    const qint64 seconds = (ms + 500) / 1000;
    if (seconds < 60)
        return tr("%1 s").arg(seconds);
    return QStringLiteral("%1:%2").arg(seconds / 60).arg(seconds % 60, 2, 10, QLatin1Char('0'));
}

void JobListModel::onJobChanged(Job *job)
{
    const int row = int(m_jobs.indexOf(job));
    if (row >= 0)
        Q_EMIT dataChanged(index(row), index(row));
}

} // namespace sf
