#pragma once

#include "AgentSession.h"
#include "Executor.h"

#include <QHash>

namespace sf {

class ChatClient;

/// Runs items in this process: one AgentSession per item, model calls through the shared ChatClient (which
/// keeps each provider within its concurrency limit).
class LocalExecutor final : public Executor
{
    Q_OBJECT

public:
    LocalExecutor(ChatClient &chat, AgentSetup setup, QObject *parent = nullptr);
    ~LocalExecutor() override;

    void start(const WorkItem &item) override;
    void cancelAll() override;

private:
    ChatClient &m_chat;
    AgentSetup m_setup;
    QHash<QString, AgentSession *> m_sessions;
};

} // namespace sf
