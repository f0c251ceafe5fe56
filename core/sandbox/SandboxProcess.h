#pragma once

#include "Sandbox.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>

class QProcess;
class QSocketNotifier;

namespace sf {

/**
 * Runs one program inside bubblewrap without blocking: enforces the wall-time and process limits
 * from the event loop, keeps at most limits.maxOutputBytes of each stream, and emits finished()
 * exactly once, always after start() has returned. Deleting it kills a program still running.
 */
class PidsCgroup;

class SandboxProcess final : public QObject
{
    Q_OBJECT

public:
    explicit SandboxProcess(QObject *parent = nullptr);
    ~SandboxProcess() override;

    void start(const SandboxSpec &spec);
    /** Kills the program; finished() follows with `cancelled` set. */
    void cancel();
    bool isRunning() const { return m_process != nullptr; }

Q_SIGNALS:
    void finished(const sf::SandboxResult &result);

private:
    enum class KillReason
    {
        None,
        Timeout,
        Processes,
        Workspace,
        Cancel
    };

    void failToStart(const QString &why);
    void killFor(KillReason reason);
    void checkProcessCount();
    void checkWorkspaceGrowth();
    void readPipe();
    void closePipe();
    void onProcessFinished(int exitCode);
    void append(QByteArray &into, const QByteArray &data);

    SandboxSpec m_spec;
    SandboxResult m_result;
    QProcess *m_process = nullptr;
    QTimer m_deadline;
    QTimer m_processWatch;
    QTimer m_workspaceWatch;
    qint64 m_workspaceBytesAtStart = 0;
    QElapsedTimer m_clock;
    KillReason m_killReason = KillReason::None;
    int m_pipeRead = -1;
    QSocketNotifier *m_pipeNotifier = nullptr;
    std::unique_ptr<PidsCgroup> m_cgroup;
};

} // namespace sf
