#pragma once

#include <QElapsedTimer>
#include <QList>
#include <QObject>
#include <QString>
#include <optional>

namespace sf {

/// A job of a cluster scheduler that a piece of work runs as: its id ("41_3" for a task of array 41) and its state
/// word (pending, running, done, failed, timeout, cancelled).
struct SchedulerJob
{
    QString id;
    QString state;

    bool operator==(const SchedulerJob &) const = default;
};

/**
 * One piece of long work as the Jobs panel shows it: a title, progress, a state and a cancel request.
 * The object doing the work owns the logic; it reports through setProgress()/finish()/fail() and
 * listens to cancelRequested(). Lives in the UI thread; workers report through queued signals.
 */
class Job final : public QObject
{
    Q_OBJECT

public:
    enum class State
    {
        Running,
        Finished,
        Failed,
        Cancelled
    };
    Q_ENUM(State)

    explicit Job(const QString &title, QObject *parent = nullptr);

    QString title() const { return m_title; }
    QString detail() const { return m_detail; }
    State state() const { return m_state; }
    bool isActive() const { return m_state == State::Running; }
    /// 0..1, or no value while the total is unknown (an indeterminate bar).
    std::optional<double> progress() const { return m_progress; }
    qint64 elapsedMs() const;
    /// Estimated time left from the progress rate so far; none until there is a rate to go by.
    std::optional<qint64> etaMs() const;
    bool isCancellable() const { return m_cancellable; }

    /// The scheduler ("Slurm") the work's heavy parts went to, its jobs in the order of their ids, and the last
    /// submission it refused ("" when none was); empty for work done here.
    QString scheduler() const { return m_scheduler; }
    QList<SchedulerJob> schedulerJobs() const { return m_schedulerJobs; }
    QString schedulerRefusal() const { return m_schedulerRefusal; }
    /// One line for the panel: "Slurm 41: 2 running, 1 done" (arrays counted by state, a single job by name),
    /// then the refusal as the runner worded it; "" for work done here.
    QString schedulerSummary() const;

    void setCancellable(bool cancellable);
    void setDetail(const QString &detail);
    void setProgress(std::optional<double> fraction);
    void setSchedulerJobs(const QString &scheduler, const QList<SchedulerJob> &jobs, const QString &refusal = {});
    void finish(const QString &detail = {});
    void fail(const QString &reason);
    /// Asks the worker to stop; the job ends as Cancelled once the worker confirms with markCancelled().
    void requestCancel();
    void markCancelled();

Q_SIGNALS:
    void changed();
    void cancelRequested();
    void ended(sf::Job::State state);

private:
    void end(State state, const QString &detail);

    QString m_title;
    QString m_detail;
    State m_state = State::Running;
    std::optional<double> m_progress;
    QElapsedTimer m_clock;
    qint64 m_endedAfterMs = -1;
    bool m_cancellable = true;
    QString m_scheduler;
    QList<SchedulerJob> m_schedulerJobs;
    QString m_schedulerRefusal;
};

} // namespace sf
