#pragma once

#include "AgentCli.h"

namespace sf {

/**
 * Claude Code (`claude -p`) as a student: project skills in `.claude/skills/NAME/`, loaded through its Skill
 * tool; the prompt on stdin, the result as one JSON object on stdout, the session in
 * `$CLAUDE_CONFIG_DIR/projects/<workspace>/<session-id>.jsonl`.
 */
class ClaudeCodeCli final : public AgentCli
{
public:
    QString harness() const override;
    QString projectSkillFolder(const QString &name) const override;
    QStringList arguments(const CliItemSpec &spec, const QString &doorUrl) const override;
    QProcessEnvironment environment(const CliItemSpec &spec, const QString &doorUrl) const override;
    QStringList homeFolders(const CliItemSpec &spec) const override;
    Result<CliRunOutput> readOutput(const QByteArray &stdOut) const override;
    QString sessionFile(const CliItemSpec &spec) const override;
};

} // namespace sf
