#pragma once

#include "AgentSession.h"
#include "CliStudentSession.h"
#include "Executor.h"

#include <QHash>

namespace sf {

class ChatClient;

/// Runs items in this process with a real agent CLI as the student (the run's harness): one CliStudentSession
/// per item, each CLI in its own sandbox, at most the runner's concurrency at once.
class AgentCliExecutor final : public Executor
{
    Q_OBJECT

public:
    AgentCliExecutor(ChatClient &chat, DoorServices services, AgentSetup setup, AgentCliBinary binary, QString runDir,
                     QObject *parent = nullptr);
    ~AgentCliExecutor() override;

    void start(const WorkItem &item) override;
    void cancelAll() override;

private:
    ChatClient &m_chat;
    DoorServices m_services;
    AgentSetup m_setup;
    AgentCliBinary m_binary;
    QString m_runDir;
    QHash<QString, CliStudentSession *> m_sessions;
};

} // namespace sf
