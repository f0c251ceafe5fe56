#include "SlurmJobFeed.h"

#include "SlurmJobRunner.h"
#include "jobs/Job.h"

#include <QMetaObject>
#include <algorithm>

namespace sf {

namespace {

// "41_10" after "41_9", and array 100 after array 99: ids in the order Slurm gave them out.
bool submittedBefore(const SchedulerJob &a, const SchedulerJob &b)
{
    const auto number = [](const QString &id, int part) { return id.section(u'_', part, part).toLongLong(); };
    return std::pair(number(a.id, 0), number(a.id, 1)) < std::pair(number(b.id, 0), number(b.id, 1));
}

} // namespace

void followSlurmJobs(Job *job, const std::shared_ptr<JobRunner> &runner)
{
    const auto slurm = std::dynamic_pointer_cast<SlurmJobRunner>(runner);
    if (!job || !slurm)
        return;
    // The listener posts to the job; the job removes it as it goes (the removal waits out a call in progress, and
    // the events already posted die with the job), so no call reaches a job that is gone.
    slurm->setActivityListener([job](const SlurmActivity &activity) {
        QList<SchedulerJob> jobs;
        for (const auto &[id, state] : activity.states)
            jobs.append({id, state});
        std::sort(jobs.begin(), jobs.end(), submittedBefore);
        QMetaObject::invokeMethod(
            job,
            [job, jobs, refusal = activity.refusal] { job->setSchedulerJobs(QStringLiteral("Slurm"), jobs, refusal); },
            Qt::QueuedConnection);
    });
    const std::weak_ptr<SlurmJobRunner> weak = slurm;
    QObject::connect(job, &QObject::destroyed, job, [weak] {
        if (const auto alive = weak.lock())
            alive->setActivityListener({});
    });
    // scancel takes milliseconds; it runs first so that no verifier is left waiting on a job once the work that
    // asked for it is cancelled.
    QObject::connect(job, &Job::cancelRequested, job, [weak] {
        if (const auto alive = weak.lock())
            alive->cancelAll();
    });
}

} // namespace sf
