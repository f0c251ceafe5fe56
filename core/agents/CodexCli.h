#pragma once

#include "AgentCli.h"

namespace sf {

/**
 * Codex (`codex exec`) as a student: project skills in `.agents/skills/NAME/`, loaded by reading SKILL.md with a
 * command; the prompt on stdin, events as JSON Lines on stdout, the rollout in
 * `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-….jsonl`. Its own sandbox is off: it runs inside Skillforge's.
 */
class CodexCli final : public AgentCli
{
public:
    QString harness() const override;
    QString projectSkillFolder(const QString &name) const override;
    QStringList arguments(const CliItemSpec &spec, const QString &doorUrl) const override;
    QProcessEnvironment environment(const CliItemSpec &spec, const QString &doorUrl) const override;
    QStringList homeFolders(const CliItemSpec &spec) const override;
    QStringList readOnlyPaths(const CliItemSpec &spec) const override;
    Result<CliRunOutput> readOutput(const QByteArray &stdOut) const override;
    QString sessionFile(const CliItemSpec &spec) const override;
};

} // namespace sf
