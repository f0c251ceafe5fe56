#include "SandboxProcess.h"

#include "BubblewrapArguments.h"
#include "FolderUsage.h"
#include "ProcessLimit.h"
#include "ProcessTree.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QSocketNotifier>
#include <QStandardPaths>
#include <csignal>
#include <fcntl.h>
#include <linux/close_range.h>
#include <sys/resource.h>
#include <unistd.h>

namespace sf {

namespace {

constexpr int kProcessWatchMs = 50;
constexpr int kWorkspaceWatchMs = 500;
// Besides the program, bubblewrap keeps one process outside the sandbox and one inside (its init).
constexpr int kBubblewrapOwnProcesses = 2;

bool looksOutOfMemory(const QByteArray &stdErr)
{
    for (const char *sign : {"MemoryError", "std::bad_alloc", "Cannot allocate memory", "out of memory"}) {
        if (stdErr.contains(sign)) {
            return true;
        }
    }
    return false;
}

} // namespace

SandboxProcess::SandboxProcess(QObject *parent)
    : QObject(parent)
{
    m_deadline.setSingleShot(true);
    connect(&m_deadline, &QTimer::timeout, this, [this] { killFor(KillReason::Timeout); });
    m_processWatch.setInterval(kProcessWatchMs);
    connect(&m_processWatch, &QTimer::timeout, this, &SandboxProcess::checkProcessCount);
    m_workspaceWatch.setInterval(kWorkspaceWatchMs);
    connect(&m_workspaceWatch, &QTimer::timeout, this, &SandboxProcess::checkWorkspaceGrowth);
}

SandboxProcess::~SandboxProcess()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(2000);
    }
    closePipe();
}

void SandboxProcess::start(const SandboxSpec &spec)
{
    Q_ASSERT(!m_process);
    m_spec = spec;
    m_result = {};
    m_killReason = KillReason::None;
    m_clock.start();

    QString why;
    if (!sandboxAvailable(&why)) {
        failToStart(why);
        return;
    }
    if (!spec.workspace.isEmpty() && !QFileInfo(spec.workspace).isDir()) {
        failToStart(QStringLiteral("the workspace %1 is not a folder").arg(spec.workspace));
        return;
    }
    m_workspaceBytesAtStart = spec.workspaceBytesBefore;
    if (m_workspaceBytesAtStart < 0 && spec.limits.maxWorkspaceGrowthBytes > 0 && !spec.workspace.isEmpty())
        m_workspaceBytesAtStart = folderDiskBytes(spec.workspace);

    int pipeWrite = -1;
    if (spec.passPipeFd) {
        int fds[2];
        if (::pipe2(fds, O_CLOEXEC) != 0) {
            failToStart(
                QStringLiteral("cannot create the result pipe: %1").arg(QString::fromLocal8Bit(strerror(errno))));
            return;
        }
        m_pipeRead = fds[0];
        pipeWrite = fds[1];
        ::fcntl(m_pipeRead, F_SETFL, ::fcntl(m_pipeRead, F_GETFL) | O_NONBLOCK);
        m_pipeNotifier = new QSocketNotifier(m_pipeRead, QSocketNotifier::Read, this);
        connect(m_pipeNotifier, &QSocketNotifier::activated, this, &SandboxProcess::readPipe);
    }

    m_process = new QProcess(this);
    const SandboxLimits limits = spec.limits;
    // The process cap: a cgroup where the system lets us make one, else RLIMIT_NPROC (not for root,
    // whom the kernel exempts); the process watch below reports it and stops the program either way.
    quint64 processRlimit = 0;
    if (limits.maxProcesses > 0) {
        m_cgroup = PidsCgroup::create(limits.maxProcesses + kBubblewrapOwnProcesses);
        if (!m_cgroup) {
            processRlimit = processRlimitAllowing(limits.maxProcesses + kBubblewrapOwnProcesses);
        }
    }
    const QByteArray cgroupProcs = m_cgroup ? m_cgroup->procsFile() : QByteArray();
    const bool limitMemory = limits.memoryBytes > 0 && !spec.allowGpu; // CUDA reserves huge address ranges
    // Runs in the forked child just before bwrap starts; limits are inherited by everything inside.
    // Only async-signal-safe calls here.
    m_process->setChildProcessModifier([limits, limitMemory, pipeWrite, cgroupProcs, processRlimit] {
        if (!cgroupProcs.isEmpty()) {
            joinCgroupInChild(cgroupProcs.constData());
        }
        if (processRlimit > 0) {
            const rlimit processes{rlim_t(processRlimit), rlim_t(processRlimit)};
            ::setrlimit(RLIMIT_NPROC, &processes);
        }
        if (pipeWrite >= 0) {
            if (pipeWrite == 3) {
                ::fcntl(3, F_SETFD, 0);
            } else {
                ::dup2(pipeWrite, 3); // the copy at 3 does not close on exec, the original does
            }
        }
        // Nothing else the parent holds open (a test runner's descriptors, a log file) may reach the
        // program: every descriptor above the ones it is given closes on exec.
        const unsigned firstPrivate = pipeWrite >= 0 ? 4 : 3;
        if (::close_range(firstPrivate, ~0U, CLOSE_RANGE_CLOEXEC) != 0) {
            for (int fd = int(firstPrivate); fd < 4096; ++fd) {
                ::fcntl(fd, F_SETFD, FD_CLOEXEC);
            }
        }
        rlimit none{0, 0};
        ::setrlimit(RLIMIT_CORE, &none);
        if (limitMemory) {
            const rlimit memory{rlim_t(limits.memoryBytes), rlim_t(limits.memoryBytes)};
            ::setrlimit(RLIMIT_AS, &memory);
        }
        if (limits.maxFileBytes > 0) {
            const rlimit file{rlim_t(limits.maxFileBytes), rlim_t(limits.maxFileBytes)};
            ::setrlimit(RLIMIT_FSIZE, &file);
        }
    });
    connect(m_process, &QProcess::readyReadStandardOutput, this,
            [this] { append(m_result.stdOut, m_process->readAllStandardOutput()); });
    connect(m_process, &QProcess::readyReadStandardError, this,
            [this] { append(m_result.stdErr, m_process->readAllStandardError()); });
    connect(m_process, &QProcess::finished, this, [this](int exitCode) { onProcessFinished(exitCode); });
    connect(m_process, &QProcess::errorOccurred, this, [this](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            QProcess *process = std::exchange(m_process, nullptr);
            process->deleteLater();
            m_cgroup.reset();
            failToStart(QStringLiteral("bwrap could not start: %1").arg(process->errorString()));
        }
    });

    m_process->start(QStandardPaths::findExecutable(QStringLiteral("bwrap")), bubblewrapArguments(spec));
    if (pipeWrite >= 0) {
        ::close(pipeWrite); // the child has its copy; ours would keep the pipe from ever reaching EOF
    }
    if (!m_process) {
        return; // failed to start; failToStart has queued finished()
    }
    if (!spec.stdinData.isEmpty()) {
        m_process->write(spec.stdinData);
    }
    m_process->closeWriteChannel();
    if (limits.timeoutMs > 0) {
        m_deadline.start(limits.timeoutMs);
    }
    if (limits.maxProcesses > 0) {
        m_processWatch.start();
    }
    if (limits.maxWorkspaceGrowthBytes > 0 && !spec.workspace.isEmpty()) {
        m_workspaceWatch.start();
    }
}

void SandboxProcess::cancel()
{
    if (m_process) {
        killFor(KillReason::Cancel);
    }
}

void SandboxProcess::failToStart(const QString &why)
{
    closePipe();
    m_result.error = why;
    m_result.wallMs = m_clock.elapsed();
    // Always after start() returns, so callers can connect after starting.
    QMetaObject::invokeMethod(
        this, [this, result = m_result] { Q_EMIT finished(result); }, Qt::QueuedConnection);
}

void SandboxProcess::killFor(KillReason reason)
{
    if (!m_process || m_killReason != KillReason::None) {
        return;
    }
    m_killReason = reason;
    // Killing bwrap kills its init inside (--die-with-parent), and with it the whole pid namespace;
    // a process still setting up that namespace may miss the signal, so its tree is killed too.
    killProcessTree(m_process->processId());
    m_process->kill();
}

void SandboxProcess::checkProcessCount()
{
    if (!m_process) {
        return;
    }
    if (m_cgroup && m_cgroup->limitWasHit()) {
        killFor(KillReason::Processes);
        return;
    }
    // Descendants of the outer bwrap: its init inside, then the program's own processes.
    const int inside = countDescendantProcesses(m_process->processId()) - (kBubblewrapOwnProcesses - 1);
    if (inside >= m_spec.limits.maxProcesses) {
        killFor(KillReason::Processes);
    }
}

void SandboxProcess::checkWorkspaceGrowth()
{
    if (!m_process)
        return; // ended: no walk of its folder
    if (folderDiskBytes(m_spec.workspace) - m_workspaceBytesAtStart > m_spec.limits.maxWorkspaceGrowthBytes)
        killFor(KillReason::Workspace);
}

void SandboxProcess::readPipe()
{
    char buffer[16384];
    for (;;) {
        const ssize_t n = ::read(m_pipeRead, buffer, sizeof buffer);
        if (n > 0) {
            append(m_result.pipeData, QByteArray(buffer, n));
            continue;
        }
        if (n == 0 || (errno != EINTR)) {
            if (n == 0 && m_pipeNotifier) {
                m_pipeNotifier->setEnabled(false); // EOF: every writer inside has closed it
            }
            return;
        }
    }
}

void SandboxProcess::closePipe()
{
    delete m_pipeNotifier;
    m_pipeNotifier = nullptr;
    if (m_pipeRead >= 0) {
        ::close(m_pipeRead);
        m_pipeRead = -1;
    }
}

void SandboxProcess::append(QByteArray &into, const QByteArray &data)
{
    const qint64 cap = m_spec.limits.maxOutputBytes;
    if (cap > 0 && into.size() + data.size() > cap) {
        into.append(data.left(qMax<qint64>(0, cap - into.size())));
        m_result.outputTruncated = true;
    } else {
        into.append(data);
    }
}

void SandboxProcess::onProcessFinished(int exitCode)
{
    m_deadline.stop();
    m_processWatch.stop();
    m_workspaceWatch.stop();
    append(m_result.stdOut, m_process->readAllStandardOutput());
    append(m_result.stdErr, m_process->readAllStandardError());
    if (m_pipeRead >= 0) {
        readPipe(); // the namespace is gone, so every write end is closed: this reaches EOF
    }
    closePipe();
    m_process->deleteLater();
    m_process = nullptr;
    // A program may meet the cap (its forks refused) and then end by itself before the watch sees it.
    const bool hitProcessCap = m_cgroup && m_cgroup->limitWasHit();
    m_cgroup.reset();

    m_result.wallMs = m_clock.elapsed();
    m_result.exitCode = exitCode;
    m_result.timedOut = m_killReason == KillReason::Timeout;
    m_result.tooManyProcesses = m_killReason == KillReason::Processes || hitProcessCap;
    m_result.workspaceFull = m_killReason == KillReason::Workspace;
    m_result.cancelled = m_killReason == KillReason::Cancel;
    // bwrap reports a program killed by signal N as exit status 128+N.
    const bool signalled = exitCode > 128 && exitCode <= 128 + 64;
    m_result.crashed = signalled && m_killReason == KillReason::None && !hitProcessCap;
    if (m_killReason == KillReason::None && exitCode != 0 && m_result.stdErr.startsWith("bwrap:")) {
        // bubblewrap itself refused (a missing path to bind, no user namespaces): the program never ran.
        m_result.error = QString::fromUtf8(m_result.stdErr.trimmed());
    }
    const bool memoryLimited = m_spec.limits.memoryBytes > 0 && !m_spec.allowGpu;
    m_result.outOfMemory = memoryLimited && m_killReason == KillReason::None && exitCode != 0 &&
                           (exitCode == 128 + SIGKILL || looksOutOfMemory(m_result.stdErr));
    Q_EMIT finished(m_result);
}

} // namespace sf
