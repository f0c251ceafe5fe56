#include "CommandRegistry.h"
#include "eval/RunExport.h"
#include "eval/SkillCreatorWorkspace.h"

#include <QCommandLineParser>
#include <QDir>

namespace sf::cli {

namespace {

int runExport(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("run"), QString());
    parser.addOption({QStringLiteral("to"), QString(), QStringLiteral("FORMAT")});
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")}, QString(), QStringLiteral("PATH")});
    parser.addOption({QStringLiteral("model"), QString(), QStringLiteral("M")});
    if (!parseArguments(parser, QStringLiteral("runs export"), arguments))
        return BadUsage;
    const QString format = parser.value(QStringLiteral("to"));
    if (parser.positionalArguments().size() != 1 ||
        (format != QLatin1String("upskill") && format != QLatin1String("skill-creator"))) {
        err(QStringLiteral("skillforge runs export: needs RUN_DIR and --to upskill|skill-creator (see --help)\n"));
        return BadUsage;
    }
    auto opened = RunStore::open(parser.positionalArguments().first(), RunStore::Access::ReadOnly);
    if (const LoadError *e = std::get_if<LoadError>(&opened)) {
        err(QStringLiteral("skillforge runs export: %1\n").arg(e->toString()));
        return BadUsage;
    }
    const RunStore &store = std::get<RunStore>(opened);
    QString error;
    QString output = parser.value(QStringLiteral("output"));
    if (format == QLatin1String("upskill")) {
        if (output.isEmpty())
            output = QDir(store.dir()).filePath(QStringLiteral("upskill"));
        error = exportUpskillBatch(store, output);
    } else {
        QString model = parser.value(QStringLiteral("model"));
        if (model.isEmpty() && store.manifest().models.size() == 1)
            model = store.manifest().models.first().name;
        if (model.isEmpty()) {
            QStringList names;
            for (const RunModel &m : store.manifest().models)
                names.append(m.name);
            err(QStringLiteral("skillforge runs export: the run has several models (%1); a skill-creator workspace "
                               "holds one: pick it with --model\n")
                    .arg(names.join(QStringLiteral(", "))));
            return BadUsage;
        }
        if (output.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)) {
            error = exportSkillCreatorBenchmark(store, model, output);
        } else {
            if (output.isEmpty()) {
                const QString skill = store.manifest().skillName.isEmpty() ? QStringLiteral("skill")
                                                                           : store.manifest().skillName;
                output = QDir(store.dir()).filePath(skill + QStringLiteral("-workspace"));
            }
            QString iteration;
            error = exportSkillCreatorWorkspace(store, model, output, &iteration);
            if (error.isEmpty())
                output = iteration;
        }
    }
    if (!error.isEmpty()) {
        err(QStringLiteral("skillforge runs export: %1\n").arg(error));
        return CheckFailed;
    }
    err(QStringLiteral("wrote %1\n").arg(output));
    return Success;
}

int runImport(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("batch"), QString());
    parser.addOption({QStringLiteral("out"), QString(), QStringLiteral("RUNS_DIR"), QStringLiteral("runs")});
    if (!parseArguments(parser, QStringLiteral("runs import"), arguments))
        return BadUsage;
    if (parser.positionalArguments().size() != 1) {
        err(QStringLiteral("skillforge runs import: needs one upskill batch or skill-creator workspace folder (see "
                           "--help)\n"));
        return BadUsage;
    }
    const QString folder = parser.positionalArguments().first();
    auto imported = isSkillCreatorWorkspace(folder)
                        ? importSkillCreatorWorkspace(folder, parser.value(QStringLiteral("out")))
                        : importUpskillBatch(folder, parser.value(QStringLiteral("out")));
    if (const QString *e = std::get_if<QString>(&imported)) {
        err(QStringLiteral("skillforge runs import: %1\n").arg(*e));
        return BadUsage;
    }
    out(std::get<RunStore>(imported).dir() + u'\n');
    return Success;
}

} // namespace

Command runsExportCommand()
{
    Command command;
    command.words = {QStringLiteral("runs"), QStringLiteral("export")};
    command.summary = QStringLiteral("write a run in upskill's or skill-creator's format");
    command.help = QStringLiteral(
        "Usage: skillforge runs export RUN_DIR --to upskill|skill-creator [-o PATH] [--model M]\n\n"
        "upskill: a batch folder (run_N/run_result.json, batch_summary.json, results.csv); default RUN_DIR/upskill.\n"
        "skill-creator: one model's items (--model when the run has several) as the next iteration-N/ of a\n"
        "skill-creator workspace (default RUN_DIR/<skill>-workspace): eval-<id>/eval_metadata.json, and per arm and\n"
        "repeat with_skill|without_skill/run-N/ with grading.json, timing.json and outputs/ (the final answer,\n"
        "transcript.md, metrics.json, the student's files), plus benchmark.json, so skill-creator's aggregator and\n"
        "viewer open it. Exporting the same run again replaces its iteration. -o FILE.json writes benchmark.json\n"
        "alone.\n\n"
        "Exit codes: 0 written, 1 the files could not be written, 2 bad usage or a broken run folder.\n");
    command.run = runExport;
    return command;
}

Command runsImportCommand()
{
    Command command;
    command.words = {QStringLiteral("runs"), QStringLiteral("import")};
    command.summary = QStringLiteral("read an upskill batch or a skill-creator workspace into a new run");
    command.help = QStringLiteral(
        "Usage: skillforge runs import UPSKILL_BATCH_DIR|SKILL_CREATOR_WORKSPACE [--out RUNS_DIR]\n\n"
        "Reads the folder into a new run folder under RUNS_DIR (default ./runs) and prints its path.\n"
        "upskill: where it kept each test's result (<eval>/<with-skill|baseline>/test_K/test_result.json), each\n"
        "test of each arm becomes one item (case test_K); otherwise each run_N/run_result.json (one arm over the\n"
        "whole suite) becomes one item.\n"
        "skill-creator: the newest iteration-N/ (or the iteration folder given): each eval-<id>/ is a case,\n"
        "with_skill/ and without_skill/ its arms, each run-N/ a repeat; an item passes when every statement of its\n"
        "grading.json passed (\"expectations\" or \"assertion_results\"); timing.json gives tokens and time.\n\n"
        "Exit codes: 0 imported, 2 bad usage or neither kind of folder.\n");
    command.run = runImport;
    return command;
}

} // namespace sf::cli
