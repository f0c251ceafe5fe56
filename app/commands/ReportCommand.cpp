#include "CommandRegistry.h"
#include "VerdictOptions.h"
#include "eval/RunAnalysis.h"
#include "report/Report.h"

#include <QCommandLineParser>
#include <QDir>

namespace sf::cli {

namespace {

const QString kName = QStringLiteral("report");

/// The analysis of @p dir, or nullopt after printing "skillforge report: file:line: why".
std::optional<RunAnalysis> openRun(const QString &dir)
{
    auto analysis = analyzeRun(dir);
    if (const LoadError *e = std::get_if<LoadError>(&analysis)) {
        err(QStringLiteral("skillforge report: %1\n").arg(e->toString()));
        return std::nullopt;
    }
    return std::get<RunAnalysis>(std::move(analysis));
}

int runReport(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("run"), QString());
    parser.addOption({QStringLiteral("format"), QString(), QStringLiteral("FORMAT")});
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")}, QString(), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("compare"), QString(), QStringLiteral("RUN_DIR2")});
    parser.addOption({QStringLiteral("max-details"), QString(), QStringLiteral("N")});
    addVerdictOptions(parser);
    if (!parseArguments(parser, kName, arguments))
        return BadUsage;
    const auto format = reportFormatFromName(parser.value(QStringLiteral("format")));
    if (parser.positionalArguments().size() != 1 || !format) {
        err(QStringLiteral("skillforge report: needs RUN_DIR and --format %1 (see --help)\n")
                .arg(reportFormatNames().join(u'|')));
        return BadUsage;
    }
    bool ok = true;
    const auto maxDetails = numberOption(parser, kName, QStringLiteral("max-details"), &ok, 0, 1e7);
    const auto thresholds = ok ? verdictThresholdsFromOptions(parser, kName) : std::nullopt;
    if (!ok || !thresholds)
        return BadUsage;
    if (parser.isSet(QStringLiteral("compare")) && !reportSupportsCompare(*format)) {
        err(QStringLiteral("skillforge report: a %1 report describes one run; --compare is not available for it\n")
                .arg(reportFormatName(*format)));
        return BadUsage;
    }
    const auto run = openRun(parser.positionalArguments().first());
    if (!run)
        return BadUsage;
    std::optional<RunAnalysis> compare;
    if (parser.isSet(QStringLiteral("compare"))) {
        compare = openRun(parser.value(QStringLiteral("compare")));
        if (!compare)
            return BadUsage;
    }
    ReportOptions options;
    options.verdicts = *thresholds;
    if (maxDetails)
        options.maxItemDetails = int(*maxDetails);
    const ReportWriter writer(*run, compare ? &*compare : nullptr, options);
    QString output = parser.value(QStringLiteral("output"));
    if (output.isEmpty())
        output = QDir::current().filePath(writer.defaultFileName(*format));
    if (const QString error = writer.write(*format, output); !error.isEmpty()) {
        err(QStringLiteral("skillforge report: %1\n").arg(error));
        return CheckFailed;
    }
    for (const QString &file : writer.outputFiles(*format, output))
        out(QDir::cleanPath(file) + u'\n');
    return Success;
}

} // namespace

Command reportCommand()
{
    Command command;
    command.words = {kName};
    command.summary = QStringLiteral("write a report of a run (HTML, PDF, Markdown, CSV, JSON, JUnit XML)");
    command.help =
        QStringLiteral(
            "Usage: skillforge report RUN_DIR --format html|pdf|md|csv|json|junit [-o FILE] [--compare RUN_DIR2]\n"
            "                         [--max-details N] [--verdict-min-lift X] [--verdict-min-pairs N]\n\n"
            "Writes what the run measured (skill, version and hash, suite, models and providers, repeats, dates), its\n"
            "statistics (pass rate with Wilson intervals, lift with exact McNemar p, flipped cases, tokens, cost and\n"
            "latency with bootstrap intervals; held-out cases apart from train), a verdict per model (keep, cut or\n"
            "can't tell yet, with the thresholds it used), the case matrix and charts.\n\n"
            "  html   one self-contained file: inline SVG charts, collapsible item details with transcripts\n"
            "  pdf    paged charts and tables\n"
            "  md     Markdown; the charts as PNG files beside it (FILE-pass-rate.png, ...)\n"
            "  csv    one row per result item\n"
            "  json   everything: manifest, statistics, case matrix, results\n"
            "  junit  one testcase per case, model and arm (JUnit XML for CI systems)\n\n"
            "--compare RUN_DIR2 draws both runs in each chart and lists what changed per case (not for junit).\n"
            "--max-details N   items whose details the HTML report includes (default 1000; flipped cases first).\n") +
        verdictOptionsHelp() +
        QStringLiteral(
            "Without -o the report is written to the current folder, named after the run id. API keys that look like\n"
            "one (sk-..., Bearer ..., api_key=...) are redacted from everything written. Prints the files written.\n\n"
            "Exit codes: 0 written, 1 the report could not be written, 2 bad usage or a broken run folder.\n");
    command.run = runReport;
    command.rendersOffscreen = true;
    return command;
}

} // namespace sf::cli
