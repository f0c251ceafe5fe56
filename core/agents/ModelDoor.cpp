#include "ModelDoor.h"

#include "AgentsLogging.h"
#include "DoorExchange_p.h"
#include "llm/LocalModelServer.h"
#include "llm/ModelName.h"
#include "llm/ProviderRegistry.h"
#include "usage/Pricing.h"

#include <QDir>
#include <QFileInfo>
#include <QLocalServer>
#include <QLocalSocket>
#include <QTcpServer>
#include <QTcpSocket>

using namespace Qt::StringLiterals;

namespace sf {

ModelDoor::ModelDoor(HttpEngine &engine, ProviderRegistry &providers, LocalModelServer *local, const QString &modelName,
                     const DoorLimits &limits, QObject *parent)
    : QObject(parent)
    , m_engine(engine)
    , m_local(local)
    , m_modelName(modelName)
    , m_limits(limits)
{
    const Result<ModelName> name = ModelName::parse(modelName);
    if (!name) {
        m_unusable = name.error;
        return;
    }
    const ProviderConfig *provider = providers.find(name.value->provider);
    if (!provider) {
        m_unusable = u"Unknown provider '%1' in model '%2'; known providers: %3"_s.arg(name.value->provider, modelName,
                                                                                       providers.names().join(", "_L1));
        return;
    }
    m_provider = *provider;
    m_modelId = name.value->model;
    if (m_provider.name == "local"_L1) {
        if (!m_local) {
            m_unusable = u"The embedded model is not available in this session"_s;
        } else if (const QString why = m_local->whyNotStartable(); !why.isEmpty()) {
            m_unusable = why;
        }
        return;
    }
    if (m_provider.baseUrl.isEmpty()) {
        m_unusable = missingBaseUrlMessage(m_provider);
        return;
    }
    m_apiKey = providers.apiKey(m_provider);
    if (m_apiKey.isEmpty() && m_provider.apiKeyRequired) {
        m_unusable = providers.missingKeyMessage(m_provider);
    }
}

ModelDoor::~ModelDoor()
{
    // Whoever listens may be half-destroyed already: the records of what is aborted now go unannounced.
    blockSignals(true);
    close();
}

bool ModelDoor::listenOnSocket(const QString &path)
{
    if (!m_unusable.isEmpty() || m_closed) {
        m_errorString = m_closed ? u"The door is closed"_s : m_unusable;
        return false;
    }
    if (m_socketServer) {
        m_errorString = u"The door already serves on %1"_s.arg(m_socketServer->fullServerName());
        return false;
    }
    if (!QDir::isAbsolutePath(path)) {
        m_errorString = u"The door's socket needs an absolute path, not '%1'"_s.arg(path);
        return false;
    }
    if (QFileInfo::exists(path)) {
        m_errorString = u"Cannot serve on %1: something is there already"_s.arg(path);
        return false;
    }
    auto *server = new QLocalServer(this);
    server->setSocketOptions(QLocalServer::UserAccessOption);
    if (!server->listen(path)) {
        m_errorString = u"Cannot serve on %1: %2"_s.arg(path, server->errorString());
        delete server;
        return false;
    }
    connect(server, &QLocalServer::newConnection, this, [this, server] {
        while (QLocalSocket *socket = server->nextPendingConnection()) {
            accept(socket);
        }
    });
    m_socketServer = server;
    qCDebug(lcAgents).noquote() << "door for" << m_modelName << "serves on" << path;
    return true;
}

bool ModelDoor::listenOnTcp(quint16 port)
{
    if (!m_unusable.isEmpty() || m_closed) {
        m_errorString = m_closed ? u"The door is closed"_s : m_unusable;
        return false;
    }
    if (m_tcpServer) {
        m_errorString = u"The door already serves on port %1"_s.arg(m_tcpServer->serverPort());
        return false;
    }
    auto *server = new QTcpServer(this);
    if (!server->listen(QHostAddress::LocalHost, port)) {
        m_errorString = u"Cannot serve on 127.0.0.1:%1: %2"_s.arg(port).arg(server->errorString());
        delete server;
        return false;
    }
    connect(server, &QTcpServer::newConnection, this, [this, server] {
        while (QTcpSocket *socket = server->nextPendingConnection()) {
            accept(socket);
        }
    });
    m_tcpServer = server;
    qCDebug(lcAgents).noquote() << "door for" << m_modelName << "serves on 127.0.0.1:" << server->serverPort();
    return true;
}

QString ModelDoor::socketPath() const
{
    return m_socketServer ? m_socketServer->fullServerName() : QString();
}

quint16 ModelDoor::tcpPort() const
{
    return m_tcpServer ? m_tcpServer->serverPort() : 0;
}

QUrl ModelDoor::tcpBaseUrl() const
{
    if (!m_tcpServer) {
        return {};
    }
    QUrl url;
    url.setScheme(u"http"_s);
    url.setHost(u"127.0.0.1"_s);
    url.setPort(m_tcpServer->serverPort());
    return url;
}

int ModelDoor::requestsInFlight() const
{
    return int(std::count_if(m_connections.cbegin(), m_connections.cend(),
                             [](const detail::DoorConnection *connection) { return connection->isBusy(); }));
}

void ModelDoor::close()
{
    if (m_closed) {
        return;
    }
    m_closed = true;
    if (m_socketServer) {
        m_socketServer->close(); // removes the socket file
    }
    if (m_tcpServer) {
        m_tcpServer->close();
    }
    const QSet<detail::DoorConnection *> connections = std::exchange(m_connections, {});
    for (detail::DoorConnection *connection : connections) {
        connection->shutDown(u"Skillforge's door was closed before the answer ended"_s);
    }
}

void ModelDoor::accept(QIODevice *socket)
{
    if (m_closed) {
        socket->deleteLater();
        return;
    }
    m_connections.insert(new detail::DoorConnection(*this, socket));
}

void ModelDoor::forget(detail::DoorConnection *connection)
{
    m_connections.remove(connection);
}

CostTally costOfRequests(const QList<DoorRequestRecord> &records, const QString &model,
                         QList<std::optional<double>> *each)
{
    const std::shared_ptr<const Pricing> pricing = Pricing::current();
    CostTally tally;
    for (const DoorRequestRecord &record : records) {
        std::optional<double> cost = 0.0;
        if (record.tokens() > 0) {
            cost = pricing->cost(model, record.usage, record.endedAt);
            tally.add(model, cost);
        }
        if (each)
            each->append(cost);
    }
    return tally;
}

void ModelDoor::record(DoorRequestRecord record)
{
    if (!record.endedAt.isValid())
        record.endedAt = QDateTime::currentDateTimeUtc();
    m_records.append(record);
    m_totalUsage += record.usage;
    qCDebug(lcAgents).noquote() << "door:" << record.method << record.path << "->" << record.status << "in"
                                << record.latencyMs << "ms," << record.tokens() << "tokens"
                                << (record.error.isEmpty() ? QString() : u"(%1)"_s.arg(record.error));
    Q_EMIT requestFinished(record);
    if (!m_budgetExhausted && m_limits.maxTotalTokens > 0 && totalTokens() >= m_limits.maxTotalTokens) {
        m_budgetExhausted = true;
        qCDebug(lcAgents).noquote() << "door for" << m_modelName << "reached its budget of" << m_limits.maxTotalTokens
                                    << "tokens";
        Q_EMIT budgetReached();
    }
}

} // namespace sf
