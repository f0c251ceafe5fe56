#pragma once

#include <QByteArray>
#include <QString>
#include <memory>

namespace sf {

/**
 * A kernel-enforced cap on how many processes one sandbox may have: a cgroup (v1 `pids`
 * controller) made for it, where the system lets us create one. The sandbox's first process joins
 * it before bubblewrap starts, so everything inside inherits the cap and a fork bomb meets EAGAIN
 * instead of filling the machine's process table.
 */
class PidsCgroup final
{
public:
    /** A new cgroup allowing @p maxProcesses processes, or null where none can be made. */
    static std::unique_ptr<PidsCgroup> create(int maxProcesses);
    /** Whether create() can succeed here. */
    static bool isAvailable();

    ~PidsCgroup(); ///< kills whatever is still in the cgroup, then removes it

    /** Whether a fork inside was refused because the cap was reached. */
    bool limitWasHit() const;
    /** Kills every process in the cgroup (stragglers bubblewrap left behind). */
    void killAll() const;

    /** The file a process writes its pid to, to join (kept as bytes for the forked child). */
    const QByteArray &procsFile() const { return m_procsFile; }

private:
    explicit PidsCgroup(QString directory);

    QString m_directory;
    QByteArray m_procsFile;
};

/**
 * The RLIMIT_NPROC that allows @p maxProcesses more processes than the current user has now.
 * RLIMIT_NPROC counts all of a user's processes and the kernel ignores it for root, so this is 0
 * (no limit) when running as root.
 */
quint64 processRlimitAllowing(int maxProcesses);

/** Joins the cgroup whose procs file is @p procsFile; async-signal-safe, for a forked child. */
void joinCgroupInChild(const char *procsFile);

} // namespace sf
