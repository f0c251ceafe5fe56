#include "LocalExecutor.h"

#include "llm/ChatClient.h"

namespace sf {

LocalExecutor::LocalExecutor(ChatClient &chat, AgentSetup setup, QObject *parent)
    : Executor(parent)
    , m_chat(chat)
    , m_setup(std::move(setup))
{
    // The concurrency the run asks for is what it gets, not a built-in provider's default limit (8).
    m_chat.addRequestedConcurrency(m_setup.config.concurrency);
}

LocalExecutor::~LocalExecutor()
{
    cancelAll();
    m_chat.removeRequestedConcurrency(m_setup.config.concurrency);
}

void LocalExecutor::start(const WorkItem &item)
{
    auto *session = new AgentSession(m_chat, m_setup, item, this);
    const QString key = item.key.toString();
    m_sessions.insert(key, session);
    connect(session, &AgentSession::finished, this,
            [this, key, session](const ItemResult &result, const QJsonObject &t) {
                m_sessions.remove(key);
                session->deleteLater();
                Q_EMIT itemFinished(result, t);
            });
    // Started from the event loop, so that even an item that fails at once reports after start() returned.
    session->startSoon();
}

void LocalExecutor::cancelAll()
{
    const QList<AgentSession *> sessions = m_sessions.values();
    m_sessions.clear();
    for (AgentSession *session : sessions) {
        session->disconnect(this);
        delete session;
    }
}

} // namespace sf
