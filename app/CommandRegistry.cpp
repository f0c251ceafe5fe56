#include "CommandRegistry.h"

#include <QCommandLineParser>
#include <cmath>
#include <cstdio>

namespace sf::cli {

Command chatCommand();
Command clusterRunJobCommand();
Command evalCommand();
Command generateCommand();
Command guiCommand();
Command modelsListCommand();
Command pricesShowCommand();
Command pricesUpdateCommand();
Command refineCommand();
Command reportCommand();
Command runsExportCommand();
Command runsImportCommand();
Command runsRejudgeCommand();
Command skillInstallCommand();
Command skillListCommand();
Command skillPackCommand();
Command testsGenerateCommand();
Command validateCommand();
Command kernelTasksCommand();
Command kernelCheckCommand();
Command traceStatsCommand();
Command traceExportCommand();
Command triggerCommand();
Command triggerOptimizeCommand();

const std::vector<Command> &commands()
{
    // In the order --help lists them; one per line (clang-format off) so that adding one touches one line.
    // clang-format off
    static const std::vector<Command> all = {
        guiCommand(),
        modelsListCommand(),
        pricesShowCommand(),
        pricesUpdateCommand(),
        chatCommand(),
        traceStatsCommand(),
        traceExportCommand(),
        validateCommand(),
        skillPackCommand(),
        skillInstallCommand(),
        skillListCommand(),
        generateCommand(),
        testsGenerateCommand(),
        refineCommand(),
        evalCommand(),
        triggerCommand(),
        triggerOptimizeCommand(),
        runsExportCommand(),
        runsImportCommand(),
        runsRejudgeCommand(),
        reportCommand(),
        kernelTasksCommand(),
        kernelCheckCommand(),
        clusterRunJobCommand(),
    };
    // clang-format on
    return all;
}

const Command *findCommand(const QStringList &arguments, qsizetype *consumed)
{
    const Command *best = nullptr;
    for (const Command &command : commands()) {
        const qsizetype n = command.words.size();
        if (arguments.size() >= n && arguments.mid(0, n) == command.words && (!best || n > best->words.size()))
            best = &command;
    }
    *consumed = best ? best->words.size() : 0;
    return best;
}

QString usageText()
{
    QString text =
        QStringLiteral("Usage: skillforge [PROJECT]\n"
                       "       skillforge COMMAND [OPTIONS]\n"
                       "       skillforge --version | --help\n\n"
                       "Skillforge turns a teacher model's agent trace into a skill and measures whether it\n"
                       "helps student models. Without a command it opens the GUI on PROJECT, the last\n"
                       "project, or the bundled sample project.\n\nCommands:\n");
    qsizetype width = 0;
    for (const Command &command : commands())
        width = std::max(width, command.words.join(u' ').size());
    for (const Command &command : commands())
        text += QStringLiteral("  %1  %2\n").arg(command.words.join(u' ').leftJustified(width), command.summary);
    text += QStringLiteral("\n'skillforge COMMAND --help' describes a command. Exit codes: 0 success, 1 a check "
                           "failed,\n2 bad usage, bad input or a failed model call, 3 work not finished (an "
                           "evaluation's items\nended in errors, or it was stopped by its spending cap or Ctrl-C: "
                           "the last line says how to finish it).\n");
    return text;
}

std::optional<double> numberOption(const QCommandLineParser &parser, const QString &command, const QString &name,
                                   bool *ok, double low, double high)
{
    if (!parser.isSet(name)) {
        return std::nullopt;
    }
    bool parsed = false;
    const double value = parser.value(name).toDouble(&parsed);
    const bool bounded = std::isfinite(low) || std::isfinite(high);
    if (!parsed || value < low || value > high) {
        err(bounded ? QStringLiteral("skillforge %1: --%2 must be a number from %3 to %4\n")
                          .arg(command, name)
                          .arg(low)
                          .arg(high)
                    : QStringLiteral("skillforge %1: --%2 must be a number\n").arg(command, name));
        *ok = false;
        return std::nullopt;
    }
    return value;
}

bool parseArguments(QCommandLineParser &parser, const QString &command, const QStringList &arguments)
{
    if (parser.parse(QStringList{QStringLiteral("skillforge")} + arguments))
        return true;
    err(QStringLiteral("skillforge %1: %2\n").arg(command, parser.errorText()));
    return false;
}

void out(const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    std::fflush(stdout);
}

void err(const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stderr);
    std::fflush(stderr);
}

} // namespace sf::cli
