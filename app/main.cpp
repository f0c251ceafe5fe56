// skillforge: the GUI and the command line share one executable and one core.
#include "CommandRegistry.h"
#include "GuiStartup.h"
#include "project/AppSettings.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFileInfo>

#include <memory>

namespace {

void setApplicationIdentity()
{
    // No organisation name, so that the standard paths are ~/.config/skillforge/, ~/.local/share/skillforge/
    // and ~/.cache/skillforge/; AppSettings names the settings file in the first of them.
    QCoreApplication::setApplicationName(QStringLiteral("skillforge"));
    QCoreApplication::setApplicationVersion(QStringLiteral(SKILLFORGE_VERSION));
}

std::unique_ptr<QCoreApplication> makeApplication(int &argc, char **argv, bool gui, bool offscreen)
{
    if (!gui)
        return std::make_unique<QCoreApplication>(argc, argv);
    if (offscreen && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication::setDesktopFileName(QStringLiteral("io.skillforge.Skillforge"));
    return std::make_unique<QApplication>(argc, argv);
}

} // namespace

int main(int argc, char **argv)
{
    using namespace sf::cli;

    QStringList arguments;
    for (int i = 1; i < argc; ++i)
        arguments.append(QString::fromLocal8Bit(argv[i]));
    setApplicationIdentity();

    if (arguments.value(0) == u"--version" || arguments.value(0) == u"-V") {
        out(QStringLiteral("skillforge %1\n").arg(QStringLiteral(SKILLFORGE_VERSION)));
        return Success;
    }
    if (arguments.value(0) == u"--help" || arguments.value(0) == u"-h" || arguments.value(0) == u"help") {
        out(usageText());
        return Success;
    }

    qsizetype consumed = 0;
    const Command *command = findCommand(arguments, &consumed);
    if (!command) {
        const QString first = arguments.value(0);
        if (!first.isEmpty() && (first.startsWith(u'-') || !QFileInfo(first).isDir())) {
            err(QStringLiteral("skillforge: '%1' is neither a command nor a project folder\n\n").arg(first) + usageText());
            return BadUsage;
        }
        // "skillforge [PROJECT]" is the GUI.
        command = findCommand({QStringLiteral("gui")}, &consumed);
        consumed = 0;
    }
    const QStringList rest = arguments.mid(consumed);
    if (rest.contains(QStringLiteral("--help")) || rest.contains(QStringLiteral("-h"))) {
        out(command->help);
        return Success;
    }
    const auto app = makeApplication(argc, argv, command->needsGui || command->rendersOffscreen,
                                     command->rendersOffscreen || rest.contains(QStringLiteral("--screenshot")));
    if (const QString problem = sf::AppSettings::moveFromOldPlace(); !problem.isEmpty())
        err(QStringLiteral("skillforge: %1\n").arg(problem));
    return command->run(rest);
}
