#pragma once

class QProcess;

namespace sf {

/// Makes @p process end with the thread that starts it: on Linux the child is asked for SIGTERM when that
/// thread dies (the parent-death signal), so a crash or a kill of Skillforge never leaves a child such as
/// llama-server running and holding its memory. Call before QProcess::start(), from the thread that stays
/// as long as the child is wanted (the one whose event loop owns the QProcess does).
void endWithParent(QProcess *process);

} // namespace sf
