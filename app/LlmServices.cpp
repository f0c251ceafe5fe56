#include "LlmServices.h"

#include "project/AppSettings.h"

namespace sf {

namespace {
LocalModelServer::Options localServerOptions()
{
    LocalModelServer::Options options = LocalModelServer::Options::fromRuntime();
    const AppSettings settings;
    options.contextSize = settings.localModelContextSize();
    options.threads = settings.localModelThreads();
    return options;
}
} // namespace

LlmServices::LlmServices()
    : m_localServer(m_engine, localServerOptions())
    , m_chat(m_engine, m_providers, &m_localServer)
    , m_lister(m_engine, m_providers)
{
}

// The server is stopped before the engine it polls through goes away (members die in reverse order).
LlmServices::~LlmServices() = default;

} // namespace sf
