#pragma once

#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/LocalModelServer.h"
#include "llm/ModelLister.h"
#include "llm/ProviderRegistry.h"

namespace sf {

/// The model-calling services one process shares: the HTTP engine, the providers, the local model
/// server (started only when a local model is used) and the clients over them. Made once in main()
/// for the GUI, or per command on the command line.
class LlmServices final
{
public:
    LlmServices();
    ~LlmServices();

    HttpEngine &engine() { return m_engine; }
    ProviderRegistry &providers() { return m_providers; }
    LocalModelServer &localServer() { return m_localServer; }
    ChatClient &chat() { return m_chat; }
    ModelLister &lister() { return m_lister; }

private:
    HttpEngine m_engine;
    ProviderRegistry m_providers;
    LocalModelServer m_localServer;
    ChatClient m_chat;
    ModelLister m_lister;
};

} // namespace sf
