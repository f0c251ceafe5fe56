#include "jobs/Job.h"

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
