#include "skill/DebouncedTask.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace sf {

DebouncedTask::DebouncedTask(int intervalMs, Prepare prepare, QObject *parent)
    : QObject(parent)
    , m_prepare(std::move(prepare))
    , m_watcher(new QFutureWatcher<Apply>(this))
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &DebouncedTask::start);
    connect(m_watcher, &QFutureWatcher<Apply>::finished, this, &DebouncedTask::onFinished);
}

DebouncedTask::~DebouncedTask()
{
    m_watcher->disconnect(this);
    m_watcher->waitForFinished();
}

void DebouncedTask::request()
{
    m_timer.start();
}

void DebouncedTask::runNow()
{
    m_timer.stop();
    start();
}

void DebouncedTask::cancel()
{
    m_timer.stop();
    m_again = false;
    ++m_generation;
}

void DebouncedTask::start()
{
    if (m_running) {
        m_again = true;
        return;
    }
    Work work = m_prepare();
    if (!work)
        return;
    m_running = true;
    m_runGeneration = m_generation;
    m_watcher->setFuture(QtConcurrent::run(std::move(work)));
}

void DebouncedTask::onFinished()
{
    m_running = false;
    if (m_runGeneration == m_generation) {
        const Apply apply = m_watcher->future().result();
        if (apply)
            apply();
        ++m_runs;
        Q_EMIT finished();
    }
    if (m_again) {
        m_again = false;
        start();
    }
}

} // namespace sf
