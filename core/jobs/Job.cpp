#include "jobs/Job.h"

#include <QMap>
#include <QStringList>
#include <algorithm>

namespace sf {

Job::Job(const QString &title, QObject *parent)
    : QObject(parent)
    , m_title(title)
{
    m_clock.start();
}

qint64 Job::elapsedMs() const
{
    return m_endedAfterMs >= 0 ? m_endedAfterMs : m_clock.elapsed();
}

std::optional<qint64> Job::etaMs() const
{
    if (!isActive() || !m_progress || *m_progress <= 0.01)
        return std::nullopt;
    const double elapsed = double(m_clock.elapsed());
    return qint64(elapsed / *m_progress * (1.0 - *m_progress));
}

void Job::setCancellable(bool cancellable)
{
    m_cancellable = cancellable;
    Q_EMIT changed();
}

void Job::setDetail(const QString &detail)
{
    m_detail = detail;
    Q_EMIT changed();
}

void Job::setProgress(std::optional<double> fraction)
{
    if (fraction)
        fraction = std::clamp(*fraction, 0.0, 1.0);
    m_progress = fraction;
    Q_EMIT changed();
}

void Job::setSchedulerJobs(const QString &scheduler, const QList<SchedulerJob> &jobs, const QString &refusal)
{
    if (scheduler == m_scheduler && jobs == m_schedulerJobs && refusal == m_schedulerRefusal)
        return;
    m_scheduler = scheduler;
    m_schedulerJobs = jobs;
    m_schedulerRefusal = refusal;
    Q_EMIT changed();
}

namespace {

// The order states are counted in: what is still to come first, then how jobs ended.
const QStringList kStateOrder = {QStringLiteral("pending"), QStringLiteral("running"), QStringLiteral("done"),
                                 QStringLiteral("failed"),  QStringLiteral("timeout"), QStringLiteral("cancelled")};

QString countsByState(const QList<SchedulerJob> &jobs)
{
    QMap<QString, int> counts;
    for (const SchedulerJob &job : jobs)
        ++counts[job.state];
    QStringList parts;
    for (const QString &state : kStateOrder) {
        if (counts.contains(state))
            parts << QStringLiteral("%1 %2").arg(counts.take(state)).arg(state);
    }
    for (auto it = counts.cbegin(); it != counts.cend(); ++it) // a state word this list does not know yet
        parts << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
    return parts.join(QStringLiteral(", "));
}

} // namespace

QString Job::schedulerSummary() const
{
    QStringList parts;
    // Jobs of one array ("41_0", "41_1"...) are counted together: an evaluation may send hundreds.
    QList<QString> arrays;
    QMap<QString, QList<SchedulerJob>> byArray;
    for (const SchedulerJob &job : m_schedulerJobs) {
        const QString array = job.id.section(u'_', 0, 0);
        if (!byArray.contains(array))
            arrays << array;
        byArray[array] << job;
    }
    if (arrays.size() > 2) {
        parts << QStringLiteral("%1 %2–%3 (%4 job arrays): %5")
                     .arg(m_scheduler, arrays.first(), arrays.last())
                     .arg(arrays.size())
                     .arg(countsByState(m_schedulerJobs));
    } else {
        for (const QString &array : std::as_const(arrays)) {
            const QList<SchedulerJob> &jobs = byArray[array];
            parts << (jobs.size() == 1
                          ? QStringLiteral("%1 %2 %3").arg(m_scheduler, jobs.first().id, jobs.first().state)
                          : QStringLiteral("%1 %2: %3").arg(m_scheduler, array, countsByState(jobs)));
        }
    }
    if (!m_schedulerRefusal.isEmpty())
        parts << m_schedulerRefusal; // the runner's words already name the scheduler and what to change
    return parts.join(QStringLiteral("; "));
}

void Job::finish(const QString &detail)
{
    m_progress = 1.0;
    end(State::Finished, detail.isEmpty() ? m_detail : detail);
}

void Job::fail(const QString &reason)
{
    end(State::Failed, reason);
}

void Job::requestCancel()
{
    if (isActive() && m_cancellable)
        Q_EMIT cancelRequested();
}

void Job::markCancelled()
{
    end(State::Cancelled, tr("Cancelled"));
}

void Job::end(State state, const QString &detail)
{
    if (!isActive())
        return;
    m_state = state;
    m_detail = detail;
    m_endedAfterMs = m_clock.elapsed();
    Q_EMIT changed();
    Q_EMIT ended(state);
}

} // namespace sf
