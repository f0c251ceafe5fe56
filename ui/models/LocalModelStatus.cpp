#include "models/LocalModelStatus.h"

#include "common/Plural.h"
#include "jobs/JobListModel.h"
#include "llm/LocalRuntime.h"

#include <QFileInfo>
#include <QMenu>

namespace sf {

LocalModelStatus::LocalModelStatus(LocalModelServer &server, JobListModel &jobs, QWidget *parent)
    : QToolButton(parent)
    , m_server(server)
    , m_jobs(jobs)
    , m_start(new QAction(tr("Start Local Model"), this))
    , m_stop(new QAction(tr("Stop Local Model"), this))
    , m_install(new QAction(tr("Install Local Model…"), this))
{
    setAutoRaise(true);
    setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(this);
    menu->addAction(m_install);
    menu->addAction(m_start);
    menu->addAction(m_stop);
    setMenu(menu);
    m_install->setToolTip(tr("Downloads %1 (about 1.1 GB) and builds the llama.cpp server into %2; the first "
                             "time takes about 10 minutes on two cores.")
                              .arg(LocalRuntime::displayName(), LocalRuntime::cacheDir()));

    connect(m_install, &QAction::triggered, this, &LocalModelStatus::install);
    connect(&m_installer, &LocalModelInstaller::progress, this, [this](int percent, const QString &step) {
        if (m_installJob) {
            m_installJob->setProgress(percent / 100.0);
            m_installJob->setDetail(step);
        }
    });
    connect(&m_installer, &LocalModelInstaller::finished, this, [this] {
        if (m_installJob)
            m_installJob->finish(tr("Installed %1").arg(LocalRuntime::displayName()));
        onStateChanged(m_server.state());
    });
    connect(&m_installer, &LocalModelInstaller::failed, this, [this](const QString &message) {
        if (m_installJob)
            m_installJob->fail(message);
        onStateChanged(m_server.state());
    });
    connect(&m_installer, &LocalModelInstaller::cancelled, this, [this] {
        if (m_installJob)
            m_installJob->markCancelled();
        onStateChanged(m_server.state());
    });

    connect(m_start, &QAction::triggered, this, [this] { m_server.ensureStarted(); });
    connect(m_stop, &QAction::triggered, this, [this] { m_server.stop(); });
    connect(&m_server, &LocalModelServer::stateChanged, this, &LocalModelStatus::onStateChanged);
    connect(&m_server, &LocalModelServer::restarted, this, [this](int count) {
        setToolTip(plural(count, tr("The local model server stopped unexpectedly and was restarted (once)."), tr("The local model server stopped unexpectedly and was restarted (%n times).")));
    });
    onStateChanged(m_server.state());
}

void LocalModelStatus::install()
{
    if (m_installer.isRunning())
        return;
    m_installJob = m_jobs.add(new Job(tr("Installing the local model")));
    m_installJob->setDetail(LocalRuntime::displayName());
    connect(m_installJob, &Job::cancelRequested, &m_installer, &LocalModelInstaller::cancel);
    m_installer.start();
    onStateChanged(m_server.state());
}

void LocalModelStatus::onStateChanged(LocalModelServer::State state)
{
    const bool installed = LocalRuntime::isInstalled();
    m_install->setVisible(!installed);
    m_install->setEnabled(!installed && !m_installer.isRunning());
    m_start->setEnabled(installed &&
                        (state == LocalModelServer::State::Stopped || state == LocalModelServer::State::Failed));
    m_stop->setEnabled(state == LocalModelServer::State::Starting || state == LocalModelServer::State::Ready);
    switch (state) {
    case LocalModelServer::State::Stopped:
        if (installed) {
            setText(tr("Local model: stopped"));
            setToolTip(tr("%1 starts on first use, or from this menu.").arg(LocalRuntime::displayName()));
        } else {
            setText(m_installer.isRunning() ? tr("Local model: installing…") : tr("Local model: not installed"));
            setToolTip(tr("%1. Install it from this menu.").arg(LocalRuntime::missingReason()));
        }
        if (m_startJob)
            m_startJob->markCancelled();
        break;
    case LocalModelServer::State::Starting:
        setText(tr("Local model: starting…"));
        trackStartInJobs();
        break;
    case LocalModelServer::State::Ready:
        setText(tr("Local model: ready"));
        setToolTip(m_server.baseUrl().toString());
        if (m_startJob)
            m_startJob->finish(tr("Serving at %1").arg(m_server.baseUrl().toString()));
        break;
    case LocalModelServer::State::Failed:
        setText(tr("Local model: failed"));
        setToolTip(m_server.errorString());
        if (m_startJob)
            m_startJob->fail(m_server.errorString());
        break;
    }
}

void LocalModelStatus::trackStartInJobs()
{
    if (m_startJob && m_startJob->isActive())
        return;
    m_startJob = m_jobs.add(new Job(tr("Starting the local model")));
    m_startJob->setDetail(QFileInfo(LocalRuntime::modelPath()).fileName());
    connect(m_startJob, &Job::cancelRequested, this, [this] { m_server.stop(); });
}

} // namespace sf
