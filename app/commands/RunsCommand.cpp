#include "CommandRegistry.h"
#include "LlmServices.h"
#include "eval/RunExport.h"
#include "eval/RunRejudge.h"
#include "eval/SandboxCommand.h"
#include "eval/SkillCreatorWorkspace.h"

#include <QCommandLineParser>
#include <QDir>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

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
                const QString skill =
                    store.manifest().skillName.isEmpty() ? QStringLiteral("skill") : store.manifest().skillName;
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
    // upskill's runs/ folder: a batch per `eval`, each imported as a run of its own.
    if (const QStringList batches = upskillBatchesIn(folder); !batches.isEmpty() && !isSkillCreatorWorkspace(folder)) {
        int failed = 0;
        for (const QString &batch : batches) {
            auto one = importUpskillBatch(batch, parser.value(QStringLiteral("out")));
            if (const QString *e = std::get_if<QString>(&one)) {
                err(QStringLiteral("skillforge runs import: %1\n").arg(*e));
                ++failed;
            } else {
                out(std::get<RunStore>(one).dir() + u'\n');
            }
        }
        if (failed > 0)
            err(QStringLiteral("skillforge runs import: %1 of %2 batches in %3 not imported\n")
                    .arg(failed)
                    .arg(batches.size())
                    .arg(folder));
        return failed == 0 ? Success : CheckFailed;
    }
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

int runRejudge(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("run"), QString());
    parser.addOption({QStringLiteral("tests"), QString(), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("skill"), QString(), QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("judge"), QString(), QStringLiteral("M")});
    parser.addOption({QStringLiteral("json"), QString()});
    if (!parseArguments(parser, QStringLiteral("runs rejudge"), arguments))
        return BadUsage;
    if (parser.positionalArguments().size() != 1) {
        err(QStringLiteral("skillforge runs rejudge: needs one RUN_DIR (see --help)\n"));
        return BadUsage;
    }
    // Append access: the run's writer lock, so a rejudge never races an eval still writing the run.
    auto opened = RunStore::open(parser.positionalArguments().first(), RunStore::Access::Append);
    if (const LoadError *e = std::get_if<LoadError>(&opened)) {
        err(QStringLiteral("skillforge runs rejudge: %1\n").arg(e->toString()));
        return BadUsage;
    }
    RunStore &store = std::get<RunStore>(opened);
    RejudgeOptions options;
    options.suitePath = parser.value(QStringLiteral("tests"));
    options.skillDir = parser.value(QStringLiteral("skill"));
    options.judgeModel = parser.value(QStringLiteral("judge"));
    options.runCommand = sandboxCommandRunner();
    LlmServices services;
    auto done = rejudgeRun(store, options, &services.chat());
    store.releaseWriterLock();
    if (const QString *e = std::get_if<QString>(&done)) {
        err(QStringLiteral("skillforge runs rejudge: %1\n").arg(*e));
        return BadUsage;
    }
    const RejudgeReport &r = std::get<RejudgeReport>(done);
    if (parser.isSet(QStringLiteral("json"))) {
        out(QString::fromUtf8(
            QJsonDocument(QJsonObject{{QStringLiteral("run_dir"), store.dir()},
                                      {QStringLiteral("items"), r.items},
                                      {QStringLiteral("verifiers_run"), r.verifiersRun},
                                      {QStringLiteral("still_unavailable"), r.stillUnavailable},
                                      {QStringLiteral("still_unavailable_why"),
                                       QJsonArray::fromStringList(r.stillUnavailableWhy)},
                                      {QStringLiteral("newly_passed"), r.newlyPassed},
                                      {QStringLiteral("newly_failed"), r.newlyFailed},
                                      {QStringLiteral("changes"), QJsonArray::fromStringList(r.changes)}})
                .toJson(QJsonDocument::Indented)));
    } else if (r.items == 0) {
        out(QStringLiteral("%1: every verifier ran where the run was made; nothing to judge again\n").arg(store.dir()));
    } else {
        // "Newly": the counts are changes of verdict; an item that failed before and fails again is unchanged.
        out(QStringLiteral("%1: verifiers run again: %2; items judged again: %3 (%4 newly passing, %5 newly failing, "
                           "%6 unchanged)\n")
                .arg(store.dir())
                .arg(r.verifiersRun)
                .arg(r.items)
                .arg(r.newlyPassed)
                .arg(r.newlyFailed)
                .arg(r.items - r.newlyPassed - r.newlyFailed));
        for (const QString &change : r.changes)
            out(QStringLiteral("  %1\n").arg(change));
        if (r.stillUnavailable > 0)
            out(QStringLiteral("still not run here: %1 (%2)\n")
                    .arg(r.stillUnavailable)
                    .arg(r.stillUnavailableWhy.join(QStringLiteral("; "))));
    }
    return r.stillUnavailable > 0 ? Unfinished : Success;
}

} // namespace

Command runsRejudgeCommand()
{
    Command command;
    command.words = {QStringLiteral("runs"), QStringLiteral("rejudge")};
    command.summary = QStringLiteral("run again the verifiers of a run that could not run where it was made");
    command.help = QStringLiteral(
        "Usage: skillforge runs rejudge RUN_DIR [--tests FILE] [--skill DIR] [--judge M] [--json]\n\n"
        "For a run made where some verifiers could not run (\"not available\": cuda_kernel without a GPU, command\n"
        "without the sandbox, llm_judge without a judge model), runs just those again here, against each item's\n"
        "recorded answer and workspace, and appends the new results to the run (the old lines stay in\n"
        "results.jsonl; the newest counts). Carry the run folder to a machine with a GPU and run this there.\n\n"
        "  --tests FILE   the suite, when it is not where run.json says (it must be the same file: hash checked)\n"
        "  --skill DIR    the skill folder, when it is not where run.json says (its project's kernels/ tasks)\n"
        "  --judge M      the judge model for llm_judge verifiers (default: the run's)\n\n"
        "Exit codes: 0 done, 2 bad usage, a broken run or a changed suite, 3 some verifiers still could not run.\n");
    command.run = runRejudge;
    return command;
}

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
        "Usage: skillforge runs import UPSKILL_BATCH_DIR|UPSKILL_RUNS_DIR|SKILL_CREATOR_WORKSPACE [--out RUNS_DIR]\n\n"
        "Reads the folder into a new run folder under RUNS_DIR (default ./runs) and prints its path; upskill's\n"
        "runs/ folder (a batch per eval) becomes a run per batch.\n"
        "upskill: where it kept each test's result (<eval>/<with-skill|baseline>/test_K/test_result.json), each\n"
        "test of each arm becomes one item (case test_K); otherwise (upskill 0.2.1) each run_N/run_result.json\n"
        "becomes assertions_total items, assertions_passed of them passing: the pass rates upskill printed, each\n"
        "item unpaired (the files do not say which test it was), so no paired statistic is claimed. A batch\n"
        "interrupted part-way imports the runs that finished.\n"
        "skill-creator: the newest iteration-N/ (or the iteration folder given): each eval-<id>/ is a case,\n"
        "with_skill/ and without_skill/ its arms, each run-N/ a repeat; an item passes when every statement of its\n"
        "grading.json passed (\"expectations\" or \"assertion_results\"); timing.json gives tokens and time.\n"
        "Reports and Compare show skill-creator's own statement pass rate (passed statements over all, averaged\n"
        "per run) beside that case pass rate, and check it against benchmark.json's where there is one.\n\n"
        "Exit codes: 0 imported, 1 some batches of a runs/ folder not imported, 2 bad usage or neither kind of\n"
        "folder.\n");
    command.run = runImport;
    return command;
}

} // namespace sf::cli
