#pragma once

#include <QObject>
#include <QTimer>
#include <functional>

template <typename T> class QFutureWatcher;

namespace sf {

/**
 * Runs background work after its input settles: requests within the debounce interval collapse into one
 * run, at most one run is in flight, and requests that arrive during a run lead to exactly one more run
 * after it. The work runs on the global thread pool; its result is applied on the UI thread.
 *
 * prepare() is called on the UI thread when a run starts: it snapshots the input (the editor's text) and
 * returns the work. The work returns what to do on the UI thread with the result. cancel() drops a pending
 * request and makes the result of the run in flight be ignored (the input it read is stale).
 */
class DebouncedTask final : public QObject
{
    Q_OBJECT

public:
    using Apply = std::function<void()>;
    using Work = std::function<Apply()>;
    using Prepare = std::function<Work()>;

    DebouncedTask(int intervalMs, Prepare prepare, QObject *parent = nullptr);
    /// Waits for the run in flight (its result is dropped).
    ~DebouncedTask() override;

    void setInterval(int intervalMs) { m_timer.setInterval(intervalMs); }
    int interval() const { return m_timer.interval(); }

    /// Asks for a run once the input has been quiet for the interval.
    void request();
    /// Asks for a run now (or right after the one in flight).
    void runNow();
    void cancel();

    bool isRunning() const { return m_running; }
    /// True while a run is in flight or asked for.
    bool isBusy() const { return m_running || m_again || m_timer.isActive(); }
    int runCount() const { return m_runs; }

Q_SIGNALS:
    /// A run finished and its result was applied.
    void finished();

private:
    void start();
    void onFinished();

    Prepare m_prepare;
    QTimer m_timer;
    QFutureWatcher<Apply> *m_watcher;
    bool m_running = false;
    bool m_again = false;
    quint64 m_generation = 0;
    quint64 m_runGeneration = 0;
    int m_runs = 0;
};

} // namespace sf
