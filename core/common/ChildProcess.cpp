#include "common/ChildProcess.h"

#include <QProcess>

#if defined(Q_OS_LINUX)
#include <csignal>
#include <sys/prctl.h>
#include <unistd.h>
#endif

namespace sf {

void endWithParent(QProcess *process)
{
#if defined(Q_OS_LINUX)
    const pid_t parent = getpid();
    // Runs in the child between fork and exec: only async-signal-safe calls.
    process->setChildProcessModifier([parent] {
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) // the parent died before the signal was asked for
            _exit(1);
    });
#else
    Q_UNUSED(process)
#endif
}

} // namespace sf
