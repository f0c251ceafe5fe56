#pragma once

#include <QByteArray>
#include <QMetaType>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace sf {

/** Limits on one sandboxed program; 0 switches a limit off. */
struct SandboxLimits
{
    int timeoutMs = 60'000;            ///< wall time before the whole sandbox is killed
    qint64 memoryBytes = 2LL << 30;    ///< address space per process (RLIMIT_AS); ignored with allowGpu
    int maxProcesses = 64;             ///< a program that reaches this many processes at once is stopped
    qint64 maxOutputBytes = 1LL << 20; ///< kept per stream (stdout, stderr, pipe); the rest is dropped
    qint64 maxFileBytes = 256LL << 20; ///< largest file the program may write (RLIMIT_FSIZE)
    /// How much disk the workspace may grow by, files of every size together (RLIMIT_FSIZE bounds only each
    /// one), counted from SandboxSpec::workspaceBytesBefore: a program past it is stopped. Looked at twice a
    /// second, so it can overshoot by what it writes in that time.
    qint64 maxWorkspaceGrowthBytes = 2LL << 30;
};

/**
 * What to run and what it may touch. The program sees the system's /usr (read-only), a private
 * /tmp, /dev and /proc, the workspace (the only writable place, also the working directory, at the
 * same path as on the host) and the listed read-only paths. It has no network, no other processes,
 * no capabilities, and runs as uid 65534 inside its own namespaces.
 */
struct SandboxSpec
{
    QString program; ///< absolute, or a name looked up on the sandbox's PATH
    QStringList arguments;
    QString workspace; ///< must exist; empty means no writable directory except /tmp
    /// The workspace's size that its growth limit counts from; -1: its size when the program starts. Several
    /// programs in one workspace (a student's commands) pass its size before the first, so that together they
    /// stay within one limit.
    qint64 workspaceBytesBefore = -1;
    QStringList readOnlyPaths; ///< host files or folders shown read-only at the same place
    /// Where the workspace appears inside the sandbox (and is the working directory); empty: at its own path. An
    /// agent CLI tells its model its working directory, and the host's path names the item and its arm.
    QString workspaceMountPoint;
    /// Host folders shown writable besides the workspace, each at `inside` (its own path when empty): an agent
    /// CLI's private home, kept apart from the workspace that verifiers judge. Their growth is not counted against
    /// the workspace's limit.
    struct WritableMount
    {
        QString host;
        QString inside;
    };
    QList<WritableMount> writableMounts;
    bool allowGpu = false;           ///< bind /dev/nvidia* and /sys so CUDA programs can reach the GPU
    QProcessEnvironment environment; ///< empty: PATH, HOME (the workspace), LANG and TMPDIR only
    QByteArray stdinData;
    SandboxLimits limits;
    /// Give the program an extra pipe as file descriptor 3; what it writes there comes back in
    /// SandboxResult::pipeData. A private channel for a harness's verdict, apart from stdout.
    bool passPipeFd = false;
};

/** How a sandboxed program ended. `error` set means it did not run at all (no sandbox, bad spec). */
struct SandboxResult
{
    int exitCode = -1;             ///< the program's exit status; 128+N when signal N killed it
    bool crashed = false;          ///< ended by a signal it did not ask for (not our timeout kill)
    bool timedOut = false;         ///< killed at limits.timeoutMs
    bool tooManyProcesses = false; ///< killed for exceeding limits.maxProcesses
    bool workspaceFull = false;    ///< killed for adding more than limits.maxWorkspaceGrowthBytes to the workspace
    bool outOfMemory = false;      ///< it ran out of its memory limit (best judged from how it died)
    bool cancelled = false;        ///< SandboxProcess::cancel()
    bool outputTruncated = false;  ///< some stream passed limits.maxOutputBytes
    QByteArray stdOut;
    QByteArray stdErr;
    QByteArray pipeData;
    qint64 wallMs = 0;
    QString error;

    /** True when the program ran to the end by itself and exited with status 0. */
    bool succeeded() const
    {
        return error.isEmpty() && exitCode == 0 && !crashed && !timedOut && !tooManyProcesses && !cancelled;
    }
    /** One line for a user: "exit 0 in 120 ms", "timed out after 5000 ms", "no sandbox: ...". */
    QString summary() const;
};

/**
 * Whether the kernel itself caps a sandbox's processes here (a cgroup, or RLIMIT_NPROC when not
 * root). Without it only the 50 ms process watch stands between a fork bomb and the machine.
 */
bool sandboxProcessCapIsEnforced();

/** Whether bubblewrap is installed and can create namespaces here; *why says what is missing. */
bool sandboxAvailable(QString *why = nullptr);

/**
 * Runs @p spec to the end and returns how it ended. Blocks the calling thread (it spins a local
 * event loop), so call it from worker threads or the command line, never from the UI thread.
 */
SandboxResult runSandboxed(const SandboxSpec &spec);

} // namespace sf

Q_DECLARE_METATYPE(sf::SandboxResult)
