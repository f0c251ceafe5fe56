#pragma once

#include <QString>
#include <QStringList>

namespace sf {

struct Trace;

/// Whether, when and how an agent CLI loaded a skill in one session, and which files of the skill's folder it read.
struct SkillActivation
{
    bool loaded = false;
    int atTurn = 0;        ///< 1-based assistant turn (model call) of the main conversation in which it was loaded
    QString how;           ///< "Skill tool" or "read SKILL.md"
    QStringList filesRead; ///< relative to the skill folder, sorted, unique; SKILL.md when the Skill tool loaded it
};

/**
 * Finds the loading of skill @p skillName in a CLI's session, read with importTrace().
 *
 * Only tool calls count, never text: a skill named in the CLI's listing of skills is offered, not loaded.
 * Claude Code loads a skill with its `Skill` tool, whose input names it (`{"skill": NAME}` in 2.1.332, `command`
 * in older versions); its Read, Glob, Grep and Bash calls read the skill's folder `.claude/skills/NAME/`.
 * Codex has no skill tool: the model loads a skill by running a command that reads `.agents/skills/NAME/SKILL.md`,
 * and other paths of that folder in its commands are files read (apply_patch writes what it names: no read). In
 * either CLI a call that reads this skill's SKILL.md is a load, and a call that failed is no read. A call in a
 * subagent's thread counts at the main conversation's turn that started the subagent.
 */
SkillActivation detectSkillActivation(const Trace &trace, const QString &harness, const QString &skillName);

} // namespace sf
