#pragma once

#include "llm/LocalModelServer.h"

#include <QPointer>
#include <QToolButton>

namespace sf {

class Job;
class JobListModel;

/// The status-bar button for the embedded local model server: shows its state, starts and stops it,
/// and turns each start into a job in the Jobs panel (cancel stops the server).
class LocalModelStatus final : public QToolButton
{
    Q_OBJECT

public:
    LocalModelStatus(LocalModelServer &server, JobListModel &jobs, QWidget *parent = nullptr);

    QAction *startAction() const { return m_start; }
    QAction *stopAction() const { return m_stop; }

private:
    void onStateChanged(LocalModelServer::State state);
    void trackStartInJobs();

    LocalModelServer &m_server;
    JobListModel &m_jobs;
    QPointer<Job> m_startJob;
    QAction *m_start;
    QAction *m_stop;
};

} // namespace sf
