#pragma once

#include "trace/Trace.h"

#include <QObject>
#include <QPointer>
#include <atomic>
#include <memory>

class QThread;

namespace sf {

class Job;
class JobListModel;

/**
 * Imports a trace on a worker thread, reporting progress and honouring cancel through a Job (shown in
 * the Jobs panel when a JobListModel is given). A newer load() cancels the one in flight; only the
 * latest load's outcome is signalled.
 */
class TraceLoader final : public QObject
{
    Q_OBJECT

public:
    explicit TraceLoader(QObject *parent = nullptr);
    ~TraceLoader() override;

    /// Starts importing @p path; returns the job that tracks it.
    Job *load(const QString &path, const QString &format = {}, JobListModel *jobs = nullptr);
    void cancel();
    bool isRunning() const { return m_thread != nullptr; }

Q_SIGNALS:
    void loaded(const QString &path, std::shared_ptr<const sf::Trace> trace);
    void failed(const QString &path, const QString &error);
    void cancelled(const QString &path);

private:
    void stopWorker();

    QThread *m_thread = nullptr;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    QPointer<Job> m_job;
    quint64 m_generation = 0;
};

} // namespace sf
