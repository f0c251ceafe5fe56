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
    case Qt::DisplayRole: return job->title();
    case Qt::ToolTipRole: return job->detail().isEmpty() ? job->title() : job->title() + u'\n' + job->detail();
    case JobRole: return QVariant::fromValue(const_cast<Job *>(job));
    case StateRole: return int(job->state());
    case ProgressRole: return job->progress() ? QVariant(*job->progress()) : QVariant();
    case DetailRole: return job->detail();
    case EtaMsRole: return job->etaMs() ? QVariant(*job->etaMs()) : QVariant();
    case ElapsedMsRole: return job->elapsedMs();
    default: return {};
    }
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
