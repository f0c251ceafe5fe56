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
    /// How the keys stored in the OS keychain are read. A command waits for them (at most 3 s: a system without a
    /// keychain answers at once, and the environment is used) before it sends any request, so a key kept there counts
    /// for every command; the GUI reads them in the background and uses the environment's until they arrive.
    enum class KeyLoading
    {
        Wait,
        Background
    };

    explicit LlmServices(KeyLoading keys = KeyLoading::Wait);
    ~LlmServices();

    HttpEngine &engine() { return m_engine; }
    ProviderRegistry &providers() { return m_providers; }
    LocalModelServer &localServer() { return m_localServer; }
    ChatClient &chat() { return m_chat; }
    ModelLister &lister() { return m_lister; }
    /** Keys stored in the OS keychain; the environment is the fallback. */
    KeychainKeyStore &keys() { return *m_keys; }

private:
    void waitForKeys(int timeoutMs);

    KeychainKeyStore *m_keys; // owned by m_providers
    HttpEngine m_engine;
    ProviderRegistry m_providers;
    LocalModelServer m_localServer;
    ChatClient m_chat;
    ModelLister m_lister;
};

} // namespace sf
