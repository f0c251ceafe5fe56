#pragma once

#include "skill/SkillValidator.h"

#include <QList>
#include <QString>

namespace sf {

/// Whether a file is left out of a .skill archive and of an installed copy, as skill-creator's
/// package_skill.py does: __pycache__/, node_modules/, *.pyc, .DS_Store, a root-level evals/, and
/// Skillforge's own .versions/. @p relativePath uses '/' separators.
bool isExcludedFromPackage(const QString &relativePath);

/// What packSkill() did.
struct PackResult
{
    QString archivePath;          ///< the written .skill file; empty on failure
    QString error;                ///< empty on success
    QList<SkillProblem> problems; ///< the agentskills validation (errors make it refuse)
    QStringList entries;          ///< the archive's file entries, e.g. "my-skill/SKILL.md"
};

/// Zips the skill as "<name>.skill" with every file under a top-level "<name>/" folder, after validating
/// it with the agentskills profile; an invalid skill is not packed. @p outputFile defaults to
/// "<name>.skill" beside the skill folder. The archive is written to a temporary file and renamed.
PackResult packSkill(const QString &skillDir, const QString &outputFile = {});

/// The usual places agents look for skills.
enum class SkillsLocation
{
    UserClaude,    ///< ~/.claude/skills
    ProjectClaude, ///< <project>/.claude/skills
    ProjectAgents, ///< <project>/.agents/skills
};
QString skillsDir(SkillsLocation location, const QString &projectDir = {});

/// Copies the skill folder (without the excluded files above) to <skillsDir>/<folder name>. Refuses when
/// that folder exists unless @p overwrite. Copies into a temporary sibling first, then renames it into
/// place, so the target is never half written. Returns "" or an error; *installedPath gets the result.
QString installSkill(const QString &skillDir, const QString &skillsDir, bool overwrite = false,
                     QString *installedPath = nullptr);

} // namespace sf
