#pragma once

#include "eval/ToolOffer.h"

#include <QCommandLineParser>

namespace sf::cli {

/// --tools and --no-tools, shared by eval and refine: when the built-in student is offered its tools.
inline void addToolOptions(QCommandLineParser &parser)
{
    parser.addOption(QCommandLineOption(QStringLiteral("tools")));
    parser.addOption(QCommandLineOption(QStringLiteral("no-tools")));
}

/// The choice the options make; "auto" when neither is given. Both given is bad usage (the caller says so).
inline std::optional<ToolOffer> toolOfferFromOptions(const QCommandLineParser &parser)
{
    const bool tools = parser.isSet(QStringLiteral("tools")), noTools = parser.isSet(QStringLiteral("no-tools"));
    if (tools && noTools)
        return std::nullopt;
    return tools ? ToolOffer::Always : noTools ? ToolOffer::Never : ToolOffer::Auto;
}

inline QString toolOptionsHelp()
{
    return QStringLiteral(
        "  --tools / --no-tools  offer the student its file and shell tools in every case, or in none (for a model\n"
        "                      that cannot call tools). By default only a case that needs them gets them: files in\n"
        "                      its context, a verifier that reads the workspace or runs a command, agentic mode.\n");
}

} // namespace sf::cli
