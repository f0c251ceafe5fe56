#pragma once

#include <QString>
#include <optional>

namespace sf {
class LlmServices;
}

namespace sf::cli {

/// `eval` of a skill that carries no tests, with --teacher M: M writes @p count test cases into the skill's
/// evals/evals.json first (as `tests generate` does), and the run uses them. Says what it does on stderr. The suite's
/// path, or nullopt after printing why it could not be written.
std::optional<QString> writeTestsFirst(LlmServices &services, const QString &skillDir, const QString &teacher,
                                       int count);

} // namespace sf::cli
