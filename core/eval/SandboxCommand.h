#pragma once

#include "Verifiers.h"
#include "sandbox/Sandbox.h"

namespace sf {

/// Runs commands with `sh -c` inside the bubblewrap sandbox (core/sandbox): no network, only the workspace
/// writable, the time limit given, memory and process caps. Where the sandbox is unavailable, a runner that
/// refuses every command and says why — commands never fall back to running on the host. All the commands run in
/// one workspace may grow it by @p maxWorkspaceGrowthBytes together, counted from its size before the first.
CommandRunner sandboxCommandRunner(qint64 maxWorkspaceGrowthBytes = SandboxLimits{}.maxWorkspaceGrowthBytes);

} // namespace sf
