#pragma once

#include "SkillActivation.h"
#include "common/Result.h"
#include "usage/TokenUsage.h"

#include <QByteArray>
#include <QString>
#include <optional>

namespace sf {

/// What an agent CLI printed when it finished one prompt: its answer and its own account of tokens and cost.
struct CliRunOutput
{
    QString finalText;
    TokenUsage usage;              ///< every model call of the run, added up by the CLI
    std::optional<double> costUsd; ///< the CLI's own price of the run (Claude Code prints one, Codex none)
    int turns = 0;                 ///< Claude Code: its num_turns; Codex: the turns it started (one per prompt)
    bool isError = false;
    QString errorText; ///< set when isError: what the CLI said went wrong
    QString sessionId; ///< Claude Code's session id, Codex's thread id
};

/// Reads what `claude -p --output-format json` printed: one JSON object of type "result".
Result<CliRunOutput> parseClaudeCodeResult(const QByteArray &stdoutJson);

/**
 * Reads what `codex exec --json` printed: one event per line. The thread id comes from `thread.started`, the usage
 * from the `turn.completed` events (added up), the answer from the last `agent_message` item; `turn.failed`, or a
 * fatal `error` event with no turn completed after it, makes it an error.
 */
Result<CliRunOutput> parseCodexExecJson(const QByteArray &stdoutJsonl);

/// Claude Code's session file under @p configDir (its CLAUDE_CONFIG_DIR): `projects/<project>/<sessionId>.jsonl`
/// when that exists, else the newest session file of any project; "" when there is none.
QString findClaudeCodeSession(const QString &configDir, const QString &sessionId);

/// Codex's newest rollout under @p codexHome: `sessions/YYYY/MM/DD/rollout-*.jsonl`; "" when there is none.
QString findCodexRollout(const QString &codexHome);

} // namespace sf
