#pragma once

#include "Verdict.h"
#include "skill/SkillFolder.h"

#include <QList>
#include <QString>
#include <optional>

namespace sf {

/// The newest run of a skill and what it decided, per model.
struct SkillEvaluation
{
    QString runDir;
    QString startedAt;
    QString skillVersion; ///< the stored version the run measured, "" when never snapshotted
    QString status;       ///< "finished", "running", "cancelled"
    QList<Verdict> verdicts;
    QString problem; ///< why the run could not be read, else ""
};

/// One skill at a glance, as `skillforge skill list` and the sidebar's tooltip show it: what it says it does, what
/// it costs in context, the tests it carries and what its last evaluation decided.
struct SkillOverview
{
    QString path;
    QString name;        ///< the front matter's name, else the folder's
    QString description; ///< the front matter's, on one line
    QList<SkillFile> files;
    int totalTokens = 0;
    int testCases = -1; ///< cases of the suite it carries (evals/evals.json, skill_meta.json); -1 when none
    std::optional<SkillEvaluation> lastEvaluation;
    QString problem; ///< why the folder could not be read, else ""

    /// A few lines: the description, tokens per file, tests, last evaluation and its verdicts.
    QString summaryText() const;
};

/// The overview of the skill in @p skillDir; its evaluations are looked up among the run folders in @p runsDir (none
/// when empty), and judged with @p thresholds.
SkillOverview overviewOfSkill(const QString &skillDir, const QString &runsDir, const VerdictThresholds &thresholds);
/// Every skill in @p folder (its sub-folders with a SKILL.md, or the folder itself when it is one), by name.
QList<SkillOverview> overviewOfSkills(const QString &folder, const QString &runsDir,
                                      const VerdictThresholds &thresholds);

} // namespace sf
