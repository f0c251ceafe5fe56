#include "CommandRegistry.h"
#include "trace/TraceExport.h"
#include "trace/TraceImport.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>

namespace sf::cli {

namespace {

using namespace Qt::StringLiterals;

/// Parses the common FILE [--format F] arguments and imports; prints the error and returns nullopt on failure.
std::optional<Trace> importFromArguments(QCommandLineParser &parser, const QString &command,
                                         const QStringList &arguments, int *exitCode)
{
    parser.addPositionalArgument(u"file"_s, QString());
    parser.addOption({u"format"_s, QString(), u"F"_s});
    *exitCode = BadUsage;
    if (!parseArguments(parser, command, arguments))
        return std::nullopt;
    if (parser.positionalArguments().size() != 1) {
        err(QStringLiteral("skillforge %1: needs exactly one FILE (see --help)\n").arg(command));
        return std::nullopt;
    }
    TraceImportOptions options;
    options.format = parser.value(u"format"_s);
    Result<Trace> result = importTrace(parser.positionalArguments().constFirst(), options);
    if (!result) {
        err(QStringLiteral("skillforge %1: %2\n").arg(command, result.error));
        return std::nullopt;
    }
    *exitCode = Success;
    return std::move(result.value);
}

QString statsText(const Trace &trace, const TraceStats &stats, const TraceCost &cost)
{
    const QLocale c = QLocale::c();
    auto n = [&c](qint64 value) { return c.toString(value); };
    QString text;
    text += QStringLiteral("file:     %1\nformat:   %2\n").arg(trace.path, trace.format);
    if (!trace.title.isEmpty())
        text += QStringLiteral("title:    %1\n").arg(trace.title);
    text += QStringLiteral("threads:  %1\nturns:    %2\nsteps:    %3\n")
                .arg(n(stats.threads), n(stats.turns), n(stats.steps));
    for (int k = 0; k < StepKindCount; ++k)
        if (stats.stepsByKind[k] > 0)
            text +=
                QStringLiteral("  %1 %2\n").arg(stepKindName(StepKind(k)).leftJustified(12), n(stats.stepsByKind[k]));
    text += QStringLiteral("tool calls: %1 (%2 failed)\n")
                .arg(n(stats.stepsByKind[int(StepKind::ToolCall)]), n(stats.toolErrors));
    for (const auto &[name, count] : stats.toolCalls)
        text += QStringLiteral("  %1 %2\n").arg(name.leftJustified(24), n(count));
    const TokenUsage &u = stats.usage;
    text += QStringLiteral("tokens (%1 assistant turns with usage):\n").arg(n(stats.assistantTurnsWithUsage));
    text +=
        QStringLiteral("  uncached input  %1\n  cache read      %2\n  cache write 5m  %3\n  cache write 1h  %4\n"
                       "  output          %5\n  reasoning       %6 (inside output)\n")
            .arg(n(u.uncachedInput), n(u.cacheRead), n(u.cacheWrite5m), n(u.cacheWrite1h), n(u.output), n(u.reasoning));
    if (!stats.models.isEmpty())
        text += QStringLiteral("models:   %1\n").arg(stats.models.join(u", "_s));
    if (!stats.skills.isEmpty())
        text += QStringLiteral("skills:   %1\n").arg(stats.skills.join(u", "_s));
    // By the pricing table; turns of a model it has no price for are named, never counted as $0.
    if (cost.hasCost())
        text += QStringLiteral("cost:     %1 by the pricing table (%2 turns priced)\n")
                    .arg(formatUsd(cost.totalUsd), n(cost.pricedTurns));
    else
        text += QStringLiteral("cost:     unknown (no price in the pricing table for the models of this trace)\n");
    if (cost.unpricedTurns > 0)
        text += QStringLiteral("  not priced: %1 turns (no price for %2)\n")
                    .arg(n(cost.unpricedTurns), cost.unpricedModels.join(u", "_s));
    text += trace.reportedCostUsd
                ? QStringLiteral("logged:   $%1 (cost logged by the source)\n").arg(*trace.reportedCostUsd, 0, 'f', 4)
                : QStringLiteral("logged:   no cost logged in the trace\n");
    text += QStringLiteral("skipped:  %1\n").arg(n(trace.skippedCount));
    for (const SkippedRecord &record : trace.skipped)
        text += record.line > 0 ? QStringLiteral("  line %1: %2\n").arg(record.line).arg(record.reason)
                                : QStringLiteral("  %1\n").arg(record.reason);
    for (const QString &note : trace.notes)
        text += QStringLiteral("note:     %1\n").arg(note);
    return text;
}

int runStats(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(QCommandLineOption(u"json"_s));
    int exitCode = Success;
    const std::optional<Trace> trace = importFromArguments(parser, u"trace stats"_s, arguments, &exitCode);
    if (!trace)
        return exitCode;
    const TraceStats stats = TraceStats::of(*trace);
    if (parser.isSet(u"json"_s))
        out(QString::fromUtf8(
            QJsonDocument(traceStatsJson(*trace, stats, TraceCost::of(*trace))).toJson(QJsonDocument::Indented)));
    else
        out(statsText(*trace, stats, TraceCost::of(*trace)));
    return Success;
}

int runExport(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption({u"to"_s, QString(), u"markdown|openai|atif"_s});
    int exitCode = Success;
    // The target is checked before importing, so a typo does not wait for a large file.
    if (!arguments.contains(u"--to"_s) &&
        !std::any_of(arguments.cbegin(), arguments.cend(), [](const QString &a) { return a.startsWith(u"--to="_s); })) {
        err(u"skillforge trace export: --to markdown|openai|atif is required\n"_s);
        return BadUsage;
    }
    const std::optional<Trace> trace = importFromArguments(parser, u"trace export"_s, arguments, &exitCode);
    if (!trace)
        return exitCode;
    const QString to = parser.value(u"to"_s);
    if (to == "markdown"_L1 || to == "md"_L1) {
        out(traceToMarkdown(*trace));
    } else if (to == "openai"_L1) {
        out(QString::fromUtf8(QJsonDocument(traceToOpenAiMessages(*trace)).toJson(QJsonDocument::Indented)));
    } else if (to == "atif"_L1) {
        out(QString::fromUtf8(QJsonDocument(traceToAtif(*trace)).toJson(QJsonDocument::Indented)));
    } else {
        err(QStringLiteral("skillforge trace export: unknown target '%1' (known: markdown, openai, atif)\n").arg(to));
        return BadUsage;
    }
    return Success;
}

QString formatsHelp()
{
    return QStringLiteral("Formats (detected from content unless --format is given):\n  %1\n")
        .arg(traceFormats().join(u", "_s));
}

} // namespace

Command traceStatsCommand()
{
    Command command;
    command.words = {u"trace"_s, u"stats"_s};
    command.summary = u"import a trace and print its counts, tool calls and tokens"_s;
    command.help = u"Usage: skillforge trace stats FILE [--format F] [--json]\n\n"
                   "Imports an agent trace and prints its format, threads, turns, steps by kind, tool calls by\n"
                   "name, tokens by bucket (uncached input, cache read, cache write 5m/1h, output, reasoning\n"
                   "inside output), the cost by the pricing table (turns of a model without a price are\n"
                   "named, not counted) and the cost the trace logged, and the lines that were skipped.\n"
                   "Usage is counted once per response: Claude Code's repeated lines of one message are not\n"
                   "added twice.\n\n"_s +
                   formatsHelp() +
                   u"\n  --format F  read as format F instead of detecting it\n"
                   "  --json      print the figures as JSON\n\n"
                   "Exit codes: 0 imported, 2 not a trace, unreadable, or bad usage.\n"_s;
    command.run = runStats;
    return command;
}

Command traceExportCommand()
{
    Command command;
    command.words = {u"trace"_s, u"export"_s};
    command.summary = u"convert a trace to Markdown, OpenAI chat messages or ATIF"_s;
    command.help = u"Usage: skillforge trace export FILE --to markdown|openai|atif [--format F]\n\n"
                   "Writes the trace to stdout: as Markdown (every thread, tool calls with their JSON input,\n"
                   "results, thinking), or as an OpenAI chat messages JSON list of the main thread (tool\n"
                   "calls with JSON-string arguments, tool messages; thinking left out), or as an ATIF\n"
                   "trajectory (Harbor's Agent Trajectory Interchange Format, v1.4: every thread, subagents\n"
                   "embedded and referenced from the call that delegated to them, usage as metrics).\n\n"_s +
                   formatsHelp() + u"\nExit codes: 0 written, 2 not a trace, unreadable, or bad usage.\n"_s;
    command.run = runExport;
    return command;
}

} // namespace sf::cli
