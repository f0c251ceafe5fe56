#pragma once

#include "ToolOffer.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <optional>

namespace sf {

/// The settings of an evaluation, recorded in run.json.
struct EvalConfig
{
    QStringList models;
    int runs = 1;                            ///< repeats of a case that does not say
    bool runsForEveryCase = false;           ///< `runs` also for cases that set their own `repeats`
    QString mode = QStringLiteral("inline"); ///< "inline" or "agentic"
    int concurrency = 4;
    int maxTurns = 12;          ///< model calls per item
    qint64 maxTokens = 200000;  ///< input + output tokens per item
    int timeoutSeconds = 600;   ///< wall time per item
    int maxOutputTokens = 2048; ///< per model call
    int commandTimeoutSeconds = 60;
    std::optional<double> temperature;
    std::optional<double> topP;
    std::optional<qint64> seed;
    QString judgeModel;
    /// When the built-in student is offered read_file/write_file/list_files/run_command (ToolOffer.h).
    ToolOffer studentTools = ToolOffer::Auto;
    /// Who drives the student (agents/Harness.h): "builtin" (Skillforge's loop; `mode` applies) or a real agent
    /// CLI, "claude-code" or "codex", run once per item with the skill installed where that CLI finds skills.
    QString harness = QStringLiteral("builtin");
    /// Which CLI binary: "" the one setup installed (pinned), "path" the user's own on PATH, or a file path.
    QString harnessCli;
    /// What the skill relies on, given to the CLI identically in both arms: an MCP configuration file
    /// (Claude Code's --mcp-config) and tools allowed without asking.
    QString mcpConfig;
    QStringList allowedTools;

    /// How often a case whose own `repeats` is @p caseRepeats (0: none) runs per model and arm.
    int repeatsOf(int caseRepeats) const { return caseRepeats > 0 && !runsForEveryCase ? caseRepeats : runs; }

    QJsonObject toJson() const;
    static EvalConfig fromJson(const QJsonObject &object);
};

} // namespace sf
