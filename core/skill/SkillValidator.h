#pragma once

#include <QList>
#include <QString>
#include <optional>

namespace sf {

/// Which rules a skill is checked against. Validators disagree (reference/traces.md 1.3), so the user picks:
/// - AgentSkills: the open specification (skills-ref / skill-creator's quick_validate): six allowed keys.
/// - ClaudeCode: AgentSkills plus Claude Code's extension keys (when_to_use, hooks, model, ...).
/// - ClaudeAi: AgentSkills plus the claude.ai upload rules (no XML tags, no reserved words, third person).
/// - Upskill: what huggingface/upskill reads and writes.
enum class ValidationProfile
{
    AgentSkills,
    ClaudeCode,
    ClaudeAi,
    Upskill
};

QString profileName(ValidationProfile profile); ///< "agentskills", "claude-code", "claude-ai", "upskill"
std::optional<ValidationProfile> profileFromName(const QString &name);
QList<ValidationProfile> allProfiles(); ///< in the order a picker lists them

/// One finding, tied to a file and (when it can be) a place in it.
struct SkillProblem
{
    enum class Severity
    {
        Error,
        Warning
    };
    Severity severity = Severity::Error;
    QString file;             ///< path relative to the skill folder, e.g. "SKILL.md"
    int line = 0, column = 0; ///< 1-based; 0 when not tied to a place
    QString code;             ///< stable id, e.g. "name-mismatch", "description-too-long", "broken-link"
    QString message;

    /// "SKILL.md:3:7: error: text" (the line and column are left out when unknown).
    QString toString() const;
    /// The same with the file joined to @p skillDir ("skills/demo/SKILL.md:3:7: ..."), as compilers print
    /// paths that editors and terminals can open.
    QString toString(const QString &skillDir) const;
    bool isError() const { return severity == Severity::Error; }
};

/// True when any problem is an error (warnings alone leave a skill valid).
bool hasErrors(const QList<SkillProblem> &problems);

/// Validates the folder against @p profile plus the checks every profile shares:
/// - the body: empty (error), over 500 lines or about 5,000 tokens (estimateTokens; warnings);
/// - links: Markdown links, <img src> and bare references/, scripts/, assets/ paths in SKILL.md and in the
///   Markdown files it links should exist (warning at the link: a missing file breaks no loading, and the
///   specification does not forbid it); a path mentioned in backticks is not reported, as it is most often an
///   example of a file the reader might make; a linked file that links on to a file SKILL.md does not link
///   itself is a reference two levels deep (warning); a link out of the folder warns;
/// - the description must say when to use the skill (warning). The cue is deliberately simple: one of
///   "when", "whenever", "use it/this (skill) for/to/if/on", "if the user", or "for ... task(s)" within a
///   sentence; a when_to_use key also counts.
/// @p skillMdText, when given, replaces SKILL.md's content on disk, for live editing. Problems come sorted
/// by file (SKILL.md first), line and column.
QList<SkillProblem> validateSkill(const QString &skillDir, ValidationProfile profile,
                                  const std::optional<QString> &skillMdText = std::nullopt);

} // namespace sf
