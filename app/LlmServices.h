#pragma once

#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/KeychainKeyStore.h"
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
    /** Keys stored in the OS keychain; the environment is the fallback. */
    KeychainKeyStore &keys() { return *m_keys; }

    /**
     * Reads the stored keys, waiting at most `timeoutMs` (a system without a keychain answers
     * at once with an error, and the environment is used). The command line calls this before any
     * request; the GUI lets it finish in the background.
     */
    void loadKeys(int timeoutMs);

private:
    KeychainKeyStore *m_keys; // owned by m_providers
    HttpEngine m_engine;
    ProviderRegistry m_providers;
    LocalModelServer m_localServer;
    ChatClient m_chat;
    ModelLister m_lister;
};

} // namespace sf
