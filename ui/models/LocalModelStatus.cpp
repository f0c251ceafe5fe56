#include "models/LocalModelStatus.h"

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
{
    setAutoRaise(true);
    setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(this);
    menu->addAction(m_start);
    menu->addAction(m_stop);
    setMenu(menu);

    connect(m_start, &QAction::triggered, this, [this] { m_server.ensureStarted(); });
    connect(m_stop, &QAction::triggered, this, [this] { m_server.stop(); });
    connect(&m_server, &LocalModelServer::stateChanged, this, &LocalModelStatus::onStateChanged);
    connect(&m_server, &LocalModelServer::restarted, this, [this](int count) {
        setToolTip(tr("The local model server stopped unexpectedly and was restarted (%n time(s)).", nullptr, count));
    });
    onStateChanged(m_server.state());
}

void LocalModelStatus::onStateChanged(LocalModelServer::State state)
{
    const bool installed = LocalRuntime::isInstalled();
    m_start->setEnabled(installed && (state == LocalModelServer::State::Stopped || state == LocalModelServer::State::Failed));
    m_stop->setEnabled(state == LocalModelServer::State::Starting || state == LocalModelServer::State::Ready);
    switch (state) {
    case LocalModelServer::State::Stopped:
        setText(installed ? tr("Local model: stopped") : tr("Local model: not installed"));
        setToolTip(installed ? tr("Starts on first use, or from this menu.") : LocalRuntime::missingReason());
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
