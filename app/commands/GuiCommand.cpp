#include "CommandRegistry.h"
#include "GuiStartup.h"

#include <QCommandLineParser>

namespace sf::cli {

Command guiCommand()
{
    Command command;
    command.words = {QStringLiteral("gui")};
    command.summary = QStringLiteral("open the GUI (optionally render one view to a PNG and exit)");
    command.needsGui = true;
    command.help = QStringLiteral(
        "Usage: skillforge gui [PROJECT] [--sample] [--view VIEW] [--theme THEME] [--screenshot FILE.png]\n"
        "                     [--ready-file FILE]\n\n"
        "Opens the main window on PROJECT, else on the last project, else on the bundled sample.\n\n"
        "  --sample             open the bundled sample project (copied to your data folder first)\n"
        "  --view VIEW          start in VIEW: trace, skill, compare, runs or kernels\n"
        "  --theme THEME        system, light or dark for this session\n"
        "  --screenshot FILE    render the window offscreen, save it as a PNG and exit\n"
        "  --ready-file FILE    write FILE once the window is shown and its views have loaded, for a script that\n"
        "                       drives the GUI and must not act before then\n");
    command.run = [](const QStringList &arguments) {
        QCommandLineParser parser;
        parser.addPositionalArgument(QStringLiteral("project"), QString());
        parser.addOption(QCommandLineOption(QStringLiteral("sample")));
        parser.addOption({QStringLiteral("view"), QString(), QStringLiteral("VIEW")});
        parser.addOption({QStringLiteral("theme"), QString(), QStringLiteral("THEME")});
        parser.addOption({QStringLiteral("screenshot"), QString(), QStringLiteral("FILE")});
        parser.addOption({QStringLiteral("ready-file"), QString(), QStringLiteral("FILE")});
        if (!parseArguments(parser, QStringLiteral("gui"), arguments))
            return int(BadUsage);
        const QStringList positional = parser.positionalArguments();
        if (positional.size() > 1) {
            err(QStringLiteral("skillforge gui: expected at most one PROJECT folder\n"));
            return int(BadUsage);
        }
        const QString theme = parser.value(QStringLiteral("theme"));
        if (!theme.isEmpty() && theme != u"system" && theme != u"light" && theme != u"dark") {
            err(QStringLiteral("skillforge gui: unknown theme '%1' (use system, light or dark)\n").arg(theme));
            return int(BadUsage);
        }
        GuiOptions options;
        options.project = positional.value(0);
        options.sample = parser.isSet(QStringLiteral("sample"));
        options.view = parser.value(QStringLiteral("view"));
        options.theme = theme;
        options.screenshot = parser.value(QStringLiteral("screenshot"));
        options.readyFile = parser.value(QStringLiteral("ready-file"));
        return runGui(options);
    };
    return command;
}

} // namespace sf::cli
