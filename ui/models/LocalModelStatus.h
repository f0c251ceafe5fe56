#pragma once

#include "llm/LocalModelInstaller.h"
#include "llm/LocalModelServer.h"

#include <QPointer>
#include <QToolButton>

namespace sf {

class Job;
class JobListModel;

/// The status-bar button for the embedded local model server: shows its state, starts and stops it,
/// and turns each start into a job in the Jobs panel (cancel stops the server). Where the model is not
/// installed it offers to install it: the installer runs as a job with progress and cancel.
class LocalModelStatus final : public QToolButton
{
    Q_OBJECT

public:
    LocalModelStatus(LocalModelServer &server, JobListModel &jobs, QWidget *parent = nullptr);

    QAction *startAction() const { return m_start; }
    QAction *stopAction() const { return m_stop; }
    /// "Install Local Model…": enabled while the model is not installed and no install runs.
    QAction *installAction() const { return m_install; }

    /// Installs the local model runtime as a job in the Jobs panel; does nothing while one runs.
    void install();

private:
    void onStateChanged(LocalModelServer::State state);
    void trackStartInJobs();

    LocalModelServer &m_server;
    JobListModel &m_jobs;
    QPointer<Job> m_startJob;
    QPointer<Job> m_installJob;
    LocalModelInstaller m_installer;
    QAction *m_start;
    QAction *m_stop;
    QAction *m_install;
};

} // namespace sf
