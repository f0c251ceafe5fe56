#include "trace/TraceLoader.h"

#include "common/Plural.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"
#include "trace/TraceImport.h"

#include <QFileInfo>
#include <QThread>

namespace sf {

TraceLoader::TraceLoader(QObject *parent)
    : QObject(parent)
{
}

TraceLoader::~TraceLoader()
{
    stopWorker();
}

void TraceLoader::stopWorker()
{
    if (m_cancel)
        m_cancel->store(true);
    if (m_thread) {
        m_thread->wait();
        delete m_thread;
        m_thread = nullptr;
    }
}

void TraceLoader::cancel()
{
    if (m_cancel)
        m_cancel->store(true);
}

Job *TraceLoader::load(const QString &path, const QString &format, JobListModel *jobs)
{
    stopWorker();
    if (m_job && m_job->isActive())
        m_job->markCancelled();
    const quint64 generation = ++m_generation;
    auto cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_cancel = cancelFlag;

    auto *job = new Job(tr("Import trace %1").arg(QFileInfo(path).fileName()), this);
    if (jobs)
        jobs->add(job);
    m_job = job;
    connect(job, &Job::cancelRequested, this, [cancelFlag] { cancelFlag->store(true); });

    QPointer<TraceLoader> self(this);
    QPointer<Job> trackedJob(job);
    m_thread = QThread::create([self, trackedJob, path, format, cancelFlag, generation] {
        TraceImportOptions options;
        options.format = format;
        options.progress = [&](qint64 done, qint64 total) {
            if (total > 0 && trackedJob) {
                const double fraction = double(done) / double(total);
                QMetaObject::invokeMethod(
                    trackedJob,
                    [trackedJob, fraction] {
                        if (trackedJob)
                            trackedJob->setProgress(fraction);
                    },
                    Qt::QueuedConnection);
            }
            return !cancelFlag->load();
        };
        Result<Trace> result = importTrace(path, options);
        std::shared_ptr<const Trace> trace = result ? std::make_shared<const Trace>(std::move(*result.value)) : nullptr;
        const QString error = result.error;
        const bool wasCancelled = cancelFlag->load();
        QMetaObject::invokeMethod(
            self,
            [self, trackedJob, path, trace, error, wasCancelled, generation] {
                if (!self || generation != self->m_generation)
                    return;
                if (self->m_thread) {
                    self->m_thread->wait();
                    delete self->m_thread;
                    self->m_thread = nullptr;
                }
                if (wasCancelled) {
                    if (trackedJob)
                        trackedJob->markCancelled();
                    Q_EMIT self->cancelled(path);
                } else if (trace) {
                    if (trackedJob)
                        trackedJob->finish(
                            plural(trace->stepCount(), tr("1 step"), tr("%n steps")));
                    Q_EMIT self->loaded(path, trace);
                } else {
                    if (trackedJob)
                        trackedJob->fail(error);
                    Q_EMIT self->failed(path, error);
                }
            },
            Qt::QueuedConnection);
    });
    m_thread->start();
    return job;
}

} // namespace sf
