#pragma once

#include "AgentCli.h"
#include "ModelDoor.h"
#include "sandbox/Sandbox.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>
#include <memory>

class QTemporaryDir;

namespace sf {

class HttpEngine;
class LocalModelServer;
class ProviderRegistry;
class SandboxProcess;

/// Where the door sends an item's requests: the providers, their keys and the embedded server.
struct DoorServices
{
    HttpEngine *engine = nullptr;
    ProviderRegistry *providers = nullptr;
    LocalModelServer *local = nullptr; ///< null when the embedded model is not offered
};

/// How one CLI run ended: what the CLI printed, its session file, and every request the door saw.
struct CliItemOutcome
{
    SandboxResult process;              ///< exit status, time-out, stdout and stderr of the CLI
    std::optional<CliRunOutput> output; ///< what the CLI printed, when it could be read
    QString outputError;                ///< why it could not be read
    QString sessionFile;                ///< the CLI's session file in its home, or ""
    QList<DoorRequestRecord> requests;  ///< every model request, in the order they ended
    TokenUsage doorUsage;               ///< the requests' tokens added up
    bool budgetExhausted = false;       ///< the door refused a request: the item's token budget was spent
    qint64 firstRequestMs = -1;         ///< from the CLI's start to its first model request: its start-up cost
    qint64 modelMs = 0;                 ///< time the door spent waiting for the model, requests added up
    QString settingsFingerprint;        ///< cliSettingsFingerprint() of the run
    QString workspaceInSandbox;         ///< where the CLI saw its workspace: a neutral path of its own
    QString error;                      ///< set when the run could not even start (no sandbox, a folder not written)
};

/// The item as the CLI sees it inside the sandbox: its home at /home/student and its workspace at /work/ID (ID from
/// the session id), paths that say nothing of the item or its arm.
CliItemSpec specInSandbox(const CliItemSpec &spec);

/**
 * Runs one agent CLI for one item: a fresh private home, the skill installed where the CLI finds project skills
 * (with-skill arm only), the door opened on a Unix socket that socat relays to the CLI's loopback inside the
 * sandbox (its only way out), the CLI in the sandbox with the item's time limit, then the session file found.
 * Deleting it or cancel() kills the CLI's whole process tree and closes the door.
 */
class CliItemRun final : public QObject
{
    Q_OBJECT

public:
    CliItemRun(DoorServices services, std::unique_ptr<AgentCli> cli, CliItemSpec spec, DoorLimits limits, int timeoutMs,
               QObject *parent = nullptr);
    ~CliItemRun() override;

    void start();
    void cancel();
    const CliItemSpec &spec() const { return m_spec; }
    const AgentCli &cli() const { return *m_cli; }

Q_SIGNALS:
    void finished(const sf::CliItemOutcome &outcome);

private:
    QString prepare();
    void onSandboxFinished(const SandboxResult &result);
    void finish();

    DoorServices m_services;
    std::unique_ptr<AgentCli> m_cli;
    CliItemSpec m_spec;
    DoorLimits m_limits;
    int m_timeoutMs = 0;
    std::unique_ptr<QTemporaryDir> m_socketDir;
    QPointer<ModelDoor> m_door;
    QPointer<SandboxProcess> m_process;
    CliItemOutcome m_outcome;
    QElapsedTimer m_clock;
    qint64 m_cliStartedAtMs = 0;
    bool m_done = false;
};

} // namespace sf
