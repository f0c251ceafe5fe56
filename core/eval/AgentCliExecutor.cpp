#include "AgentCliExecutor.h"

#include "llm/ChatClient.h"

#include <QTimer>

namespace sf {

AgentCliExecutor::AgentCliExecutor(ChatClient &chat, DoorServices services, AgentSetup setup, AgentCliBinary binary,
                                   QString runDir, QObject *parent)
    : Executor(parent)
    , m_chat(chat)
    , m_services(services)
    , m_setup(std::move(setup))
    , m_binary(std::move(binary))
    , m_runDir(std::move(runDir))
{
    // Judge calls go through the chat client; the CLIs' own requests go through their doors.
    m_chat.addRequestedConcurrency(m_setup.config.concurrency);
}

AgentCliExecutor::~AgentCliExecutor()
{
    cancelAll();
    m_chat.removeRequestedConcurrency(m_setup.config.concurrency);
}

void AgentCliExecutor::start(const WorkItem &item)
{
    auto *session = new CliStudentSession(m_chat, m_services, m_setup, m_binary, item, m_runDir, this);
    const QString key = item.key.toString();
    m_sessions.insert(key, session);
    connect(session, &CliStudentSession::finished, this,
            [this, key, session](const ItemResult &result, const QJsonObject &transcript) {
                m_sessions.remove(key);
                session->deleteLater();
                Q_EMIT itemFinished(result, transcript);
            });
    // From the event loop, so that even an item that fails at once reports after start() returned.
    QTimer::singleShot(0, session, &CliStudentSession::start);
}

void AgentCliExecutor::cancelAll()
{
    const QList<CliStudentSession *> sessions = m_sessions.values();
    m_sessions.clear();
    for (CliStudentSession *session : sessions) {
        session->disconnect(this);
        delete session; // kills its CLI's whole process tree
    }
}

} // namespace sf
