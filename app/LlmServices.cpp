#include "LlmServices.h"

#include "llm/ProviderSettings.h"
#include "project/AppSettings.h"

#include <QEventLoop>
#include <QSettings>
#include <QTimer>

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

std::unique_ptr<ApiKeyStore> makeKeyStore(KeychainKeyStore **keys)
{
    auto store = std::make_unique<KeychainKeyStore>();
    *keys = store.get();
    return store;
}
} // namespace

LlmServices::LlmServices(KeyLoading keys)
    : m_providers(makeKeyStore(&m_keys))
    , m_localServer(m_engine, localServerOptions())
    , m_chat(m_engine, m_providers, &m_localServer)
    , m_lister(m_engine, m_providers)
{
    QSettings settings(AppSettings::filePath(), QSettings::IniFormat);
    ProviderSettings::applyTo(m_providers, settings);
    if (keys == KeyLoading::Wait)
        waitForKeys(3000);
    else
        m_keys->load(m_providers.names());
}

void LlmServices::waitForKeys(int timeoutMs)
{
    QEventLoop loop;
    QObject::connect(m_keys, &KeychainKeyStore::loaded, &loop, &QEventLoop::quit);
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    m_keys->load(m_providers.names());
    loop.exec();
}

// The server is stopped before the engine it polls through goes away (members die in reverse order).
LlmServices::~LlmServices() = default;

} // namespace sf
