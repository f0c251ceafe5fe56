#pragma once

#include "common/Result.h"

#include <QString>

namespace sf {

/// One agent CLI binary ready to run as a student, and where it came from (recorded in run.json).
struct AgentCliBinary
{
    QString harness; ///< Harness::ClaudeCode or Harness::Codex
    QString path;    ///< absolute path of the executable
    QString version; ///< as the binary reports it, bare: "2.1.332", "0.163.0"
    /// In words: "pinned by setup: PyPI claude-agent-sdk 0.2.189", "the user's own: /usr/local/bin/claude (PATH)",
    /// "chosen file: /x/claude".
    QString source;
};

/**
 * Finds the CLI binary of @p harness and reads its version (`BINARY --version`, run with a fresh HOME so the
 * user's configuration is not read). @p choice is the run's `harness_cli`:
 *  - "" the pinned CLI that scripts/setup-agent-clis installed: $SKILLFORGE_CLAUDE_CODE_CLI /
 *    $SKILLFORGE_CODEX_CLI, else its place in the cache (<cache>/agent-clis/PACKAGE-VERSION/...);
 *  - "path" the user's own `claude` / `codex` on PATH;
 *  - anything else, a file path.
 * The error says what is missing and how to fix it. Versions are cached in-process per path and modification
 * time, so calling this once per run is cheap; blocks for up to 20 s the first time a binary is seen.
 */
Result<AgentCliBinary> findAgentCli(const QString &harness, const QString &choice);

/// The PyPI package version setup pins for @p harness ("0.2.189" for Claude Code, "0.163.0" for Codex);
/// empty for a harness that is not an agent CLI.
QString pinnedAgentCliVersion(const QString &harness);

} // namespace sf
