#pragma once

#include <QString>
#include <optional>

namespace sf {

/// What one verifier concluded, with the evidence a person needs to trust it.
struct VerifierOutcome
{
    QString type;
    QString name;
    bool passed = false;
    bool available = true;    ///< false when the check could not run here (no sandbox, no GPU): never a pass
    QString evidence;         ///< what matched, what was missing, the command's output...
    std::optional<int> score; ///< llm_judge: 1-5
    QString reasoning;        ///< llm_judge: the judge's own words
    QString jobError;         ///< the job that ran it failed on its node (Slurm: node down, time limit): not judged
};

/// A check as people read it: the name the suite gave it, "expected text" for a case's own expected.contains, else
/// its type ("regex"). Files and data reports keep the name as stored.
inline QString verifierLabel(const VerifierOutcome &outcome)
{
    if (outcome.name == QLatin1String("expected.contains"))
        return QStringLiteral("expected text");
    return outcome.name.isEmpty() ? outcome.type : outcome.name;
}

} // namespace sf
