#pragma once

#include "Verifiers.h"

namespace sf {

/// Runs commands with `sh -c` inside the bubblewrap sandbox (core/sandbox): no network, only the workspace
/// writable, the time limit given, memory and process caps. Where the sandbox is unavailable, a runner that
/// refuses every command and says why — commands never fall back to running on the host.
CommandRunner sandboxCommandRunner();

} // namespace sf
