#pragma once

#include <QStringList>

class QCommandLineParser;

#include <functional>
#include <limits>
#include <optional>
#include <vector>

namespace sf::cli {

/// Exit codes shared by every command (design.md): 0 success, 1 a gate or check failed, 2 bad usage or input,
/// 3 the work is not all done (items that ended in errors, a run stopped by a fault, a kernel compiled but not run
/// here): what the command printed last says how to finish it.
enum ExitCode
{
    Success = 0,
    CheckFailed = 1,
    BadUsage = 2,
    Unfinished = 3
};

/// One command of the command line: its words ("models list"), a one-line summary, its own help text,
/// and what it runs. The arguments passed to run() are those after the command's words.
struct Command
{
    QStringList words;
    QString summary;
    QString help;
    std::function<int(const QStringList &arguments)> run;
    bool needsGui = false;         ///< true when run() needs a QApplication rather than a QCoreApplication
    bool rendersOffscreen = false; ///< draws images (fonts need a QGuiApplication) without showing a window
};

/// All commands, in the order --help lists them. Each command file registers itself in commands().
const std::vector<Command> &commands();

/// The command whose words begin @p arguments (program name removed); *consumed says how many words.
const Command *findCommand(const QStringList &arguments, qsizetype *consumed);

QString usageText();

/// Parses @p arguments (those after the command's words) with @p parser; on failure prints
/// "skillforge COMMAND: why" to stderr and returns false, so the caller returns BadUsage.
bool parseArguments(QCommandLineParser &parser, const QString &command, const QStringList &arguments);

/// The number given for option --@p name, if it was given. A value that is not a number, or lies outside
/// [@p low, @p high], prints "skillforge COMMAND: --name must be ..." to stderr and sets *ok to false.
std::optional<double> numberOption(const QCommandLineParser &parser, const QString &command, const QString &name,
                                   bool *ok, double low = -std::numeric_limits<double>::infinity(),
                                   double high = std::numeric_limits<double>::infinity());

/// Writes to stdout / stderr without Qt's logging decorations.
void out(const QString &text);
void err(const QString &text);

} // namespace sf::cli
