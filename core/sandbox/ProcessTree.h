#pragma once

#include <QtGlobal>

namespace sf {

/**
 * How many processes descend from @p root (not counting it), read from /proc. Orphans inside a
 * sandbox are re-parented to the sandbox's own init, so they are still counted. Returns -1 where
 * /proc cannot be read.
 */
int countDescendantProcesses(qint64 root);

/** Sends SIGKILL to every descendant of @p root (not to @p root itself). */
void killProcessTree(qint64 root);

} // namespace sf
