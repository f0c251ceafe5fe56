#pragma once

#include "jobs/Job.h"

#include <QAbstractListModel>
#include <QList>
#include <QPointer>

namespace sf {

/**
 * All jobs of this session, newest first, for the Jobs panel. The model owns the jobs added to it.
 * Finished jobs stay listed (with their outcome) until clearFinished().
 */
class JobListModel final : public QAbstractListModel
{
    Q_OBJECT

public:
    enum Roles
    {
        JobRole = Qt::UserRole + 1, ///< Job* (QObject*)
        StateRole,                  ///< Job::State as int
        ProgressRole,               ///< double 0..1, or invalid while indeterminate
        DetailRole,                 ///< QString
        EtaMsRole,                  ///< qint64, or invalid
        ElapsedMsRole,              ///< qint64
        SchedulerRole,              ///< QString: Job::schedulerSummary(), "" for work done here
        SchedulerRefusedRole,       ///< bool: the scheduler refused a submission of this job's work
    };

    explicit JobListModel(QObject *parent = nullptr);

    /// Takes ownership of @p job and lists it at the top.
    Job *add(Job *job);
    int activeCount() const;
    void clearFinished();
    Job *jobAt(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

    /// "1:05" or "42 s", the way durations read in the panel.
    static QString formatDuration(qint64 ms);

Q_SIGNALS:
    void activeCountChanged(int count);

private:
    void onJobChanged(Job *job);
    static QString toolTip(const Job &job);

    QList<Job *> m_jobs;
};

} // namespace sf
