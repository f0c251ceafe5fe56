#pragma once

#include "CommandRegistry.h"
#include "eval/Verdict.h"
#include "project/AppSettings.h"

#include <QCommandLineParser>
#include <optional>

namespace sf::cli {

/// --verdict-min-lift and --verdict-min-pairs, shared by the commands that print or write verdicts.
inline void addVerdictOptions(QCommandLineParser &parser)
{
    parser.addOption({QStringLiteral("verdict-min-lift"), QString(), QStringLiteral("X")});
    parser.addOption({QStringLiteral("verdict-min-pairs"), QString(), QStringLiteral("N")});
}

inline QString verdictOptionsHelp()
{
    return QStringLiteral(
        "  --verdict-min-lift X   keep a skill only when its lift is above X (0..1; default from the settings, 0)\n"
        "  --verdict-min-pairs N  can't tell yet under N paired cases (default from the settings, 10)\n");
}

/// The thresholds in the settings, overridden by the flags given; nullopt (after a message) for a bad value.
inline std::optional<VerdictThresholds> verdictThresholdsFromOptions(const QCommandLineParser &parser,
                                                                     const QString &command)
{
    VerdictThresholds thresholds = AppSettings().verdictThresholds();
    bool ok = true;
    if (const auto minLift = numberOption(parser, command, QStringLiteral("verdict-min-lift"), &ok, 0, 1))
        thresholds.minLift = *minLift;
    if (const auto minPairs =
            ok ? numberOption(parser, command, QStringLiteral("verdict-min-pairs"), &ok, 1, 1e6) : std::nullopt)
        thresholds.minPairs = int(*minPairs);
    if (!ok)
        return std::nullopt;
    return thresholds;
}

} // namespace sf::cli
