#pragma once

#include "skill/SkillDocument.h"
#include "skill/SkillValidator.h"

namespace sf::detail {

/// The front-matter rules of @p profile (keys allowed, required fields, lengths, name characters, the
/// folder name, metadata shape, claude.ai's upload rules, upskill's parser limits), appended to @p problems.
/// Called only when the front matter parsed.
void checkFrontMatter(const SkillDocument &doc, const QString &folderName, const QString &file,
                      ValidationProfile profile, QList<SkillProblem> *problems);

} // namespace sf::detail
