#pragma once

#include "RunStore.h"

#include <QString>
#include <variant>

namespace sf {

/// Whether @p dir is a skill-creator workspace (<skill>-workspace/ with iteration-N/ folders) or one of its
/// iteration folders (eval-<id>/ folders holding with_skill/ and without_skill/).
bool isSkillCreatorWorkspace(const QString &dir);

/// Reads a skill-creator workspace (its newest iteration) or one iteration folder into a new run under @p runsDir:
/// each eval is a case, with_skill and without_skill its arms (old_skill is left out: it is neither), each run-N/
/// folder a repeat (an arm folder without them is repeat 1). An item passes when every graded statement of its
/// grading.json passed: `expectations` (skill-creator) or `assertion_results` (other graders), each kept as a check
/// with its evidence; timing.json gives its tokens and time. The model is benchmark.json's executor_model where
/// there is one. The new store, or an error naming the file.
std::variant<RunStore, QString> importSkillCreatorWorkspace(const QString &dir, const QString &runsDir);

} // namespace sf
