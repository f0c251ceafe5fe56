#include "CommandRegistry.h"
#include "LlmServices.h"
#include "ToolOptions.h"
#include "agents/Harness.h"
#include "eval/RunSummary.h"
#include "eval/SandboxCommand.h"
#include "generate/RefineLoop.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace sf::cli {

namespace {

const QString kCommand = QStringLiteral("refine");

QString percent(double rate)
{
    return QString::number(qRound(rate * 100)) + u'%';
}

int runRefine(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("skill-dir"), QString());
    parser.addOption({QStringLiteral("teacher"), QString(), QStringLiteral("M")});
    parser.addOption({QStringLiteral("student"), QString(), QStringLiteral("M")});
    parser.addOption({QStringLiteral("tests"), QString(), QStringLiteral("FILE")});
    parser.addOption({QStringLiteral("iterations"), QString(), QStringLiteral("K"), QStringLiteral("3")});
    parser.addOption({QStringLiteral("target-lift"), QString(), QStringLiteral("X")});
    parser.addOption({QStringLiteral("target-pass-rate"), QString(), QStringLiteral("X")});
    parser.addOption({QStringLiteral("plateau"), QString(), QStringLiteral("D"), QStringLiteral("0.02")});
    parser.addOption({QStringLiteral("max-cost"), QString(), QStringLiteral("USD")});
    parser.addOption({QStringLiteral("runs"), QString(), QStringLiteral("N"), QStringLiteral("1")});
    parser.addOption({QStringLiteral("mode"), QString(), QStringLiteral("M"), QStringLiteral("inline")});
    parser.addOption({QStringLiteral("concurrency"), QString(), QStringLiteral("C"), QStringLiteral("4")});
    parser.addOption({QStringLiteral("out"), QString(), QStringLiteral("RUNS_DIR"), QStringLiteral("runs")});
    parser.addOption({QStringLiteral("budget-tokens"), QString(), QStringLiteral("N"), QStringLiteral("6000")});
    parser.addOption({QStringLiteral("profile"), QString(), QStringLiteral("P"), QStringLiteral("agentskills")});
    addToolOptions(parser);
    parser.addOption({QStringLiteral("harness"), QString(), QStringLiteral("H"), Harness::Builtin});
    parser.addOption({QStringLiteral("harness-cli"), QString(), QStringLiteral("CLI")});
    if (!parseArguments(parser, kCommand, arguments)) {
        return BadUsage;
    }
    auto usage = [](const QString &why) {
        err(QStringLiteral("skillforge refine: %1 (see --help)\n").arg(why));
        return BadUsage;
    };
    if (parser.positionalArguments().size() != 1) {
        return usage(QStringLiteral("needs exactly one SKILL_DIR"));
    }
    RefineRequest request;
    request.skillDir = QFileInfo(parser.positionalArguments().first()).absoluteFilePath();
    request.teacherModel = parser.value(QStringLiteral("teacher"));
    request.config.models = parser.values(QStringLiteral("student"));
    request.suitePath = parser.value(QStringLiteral("tests"));
    request.runsDir = parser.value(QStringLiteral("out"));
    if (request.teacherModel.isEmpty() || request.config.models.isEmpty()) {
        return usage(QStringLiteral("needs --teacher M and at least one --student M"));
    }
    if (!QFileInfo(QDir(request.skillDir).filePath(QStringLiteral("SKILL.md"))).isFile()) {
        return usage(QStringLiteral("%1 is not a skill folder (it has no SKILL.md)").arg(request.skillDir));
    }
    const auto profile = profileFromName(parser.value(QStringLiteral("profile")));
    if (!profile) {
        return usage(QStringLiteral("unknown profile \"%1\"").arg(parser.value(QStringLiteral("profile"))));
    }
    request.profile = *profile;
    request.config.mode = parser.value(QStringLiteral("mode"));
    if (request.config.mode != u"inline" && request.config.mode != u"agentic") {
        return usage(QStringLiteral("--mode must be inline or agentic"));
    }
    const std::optional<ToolOffer> tools = toolOfferFromOptions(parser);
    if (!tools) {
        return usage(QStringLiteral("--tools and --no-tools contradict each other"));
    }
    request.config.studentTools = *tools;
    // The students may be real agent CLIs, as in eval: each evaluation of the loop then runs them.
    request.config.harness = parser.value(QStringLiteral("harness"));
    if (!Harness::all().contains(request.config.harness)) {
        return usage(QStringLiteral("--harness must be one of %1").arg(Harness::all().join(u", ")));
    }
    request.config.harnessCli = parser.value(QStringLiteral("harness-cli"));
    if (!request.config.harnessCli.isEmpty() && request.config.harnessCli != u"path") {
        request.config.harnessCli = QFileInfo(request.config.harnessCli).absoluteFilePath();
    }
    bool ok = true;
    const auto whole = [&](const QString &name, int low) {
        bool parsed = false;
        const int value = parser.value(name).toInt(&parsed);
        if (!parsed || value < low) {
            err(QStringLiteral("skillforge refine: --%1 must be a whole number >= %2\n").arg(name).arg(low));
            ok = false;
        }
        return value;
    };
    request.criteria.maxIterations = whole(QStringLiteral("iterations"), 1);
    request.config.runs = whole(QStringLiteral("runs"), 1);
    request.config.concurrency = whole(QStringLiteral("concurrency"), 1);
    request.feedbackBudgetTokens = whole(QStringLiteral("budget-tokens"), 500);
    request.criteria.targetLift = numberOption(parser, kCommand, QStringLiteral("target-lift"), &ok, -1, 1);
    request.criteria.targetPassRate = numberOption(parser, kCommand, QStringLiteral("target-pass-rate"), &ok, 0, 1);
    request.criteria.maxCostUsd = numberOption(parser, kCommand, QStringLiteral("max-cost"), &ok, 0, 1e6);
    request.criteria.plateauDelta = numberOption(parser, kCommand, QStringLiteral("plateau"), &ok, 0, 1).value_or(0.02);
    if (!ok) {
        return BadUsage;
    }

    LlmServices services;
    RefineLoop loop(services.chat(), sandboxCommandRunner());
    int exitCode = CheckFailed;
    QObject::connect(&loop, &RefineLoop::stage, qApp, [](const QString &what) { err(what + QStringLiteral("...\n")); });
    QObject::connect(&loop, &RefineLoop::iterationEvaluated, qApp, [&loop](const RefineIteration &it) {
        QString line = QStringLiteral("iteration %1: lift %2 (with the skill %3, without %4)")
                           .arg(it.number)
                           .arg(liftInPoints(it.trainLift), percent(it.trainPassRate), percent(it.baselinePassRate));
        if (it.heldOutLift) {
            line += QStringLiteral("; held out: lift %1, with the skill %2")
                        .arg(liftInPoints(*it.heldOutLift), percent(*it.heldOutPassRate));
        }
        line += QStringLiteral("; cost %1").arg(it.costUsd ? formatUsd(*it.costUsd) : QStringLiteral("price unknown"));
        if (const std::optional<double> spent = loop.spentUsd())
            line += QStringLiteral(" (%1 spent so far, teacher included)").arg(formatUsd(*spent));
        err(line + QStringLiteral("; run %1\n").arg(QDir::toNativeSeparators(it.runDir)));
    });
    QObject::connect(&loop, &RefineLoop::finished, qApp, [&](const QString &reason) {
        const QList<RefineIteration> &iterations = loop.iterations();
        out(QStringLiteral("Stopped: %1\n").arg(reason));
        for (const RefineIteration &it : iterations) {
            QString line = QStringLiteral("  %1  version %2  lift %3  pass %4")
                               .arg(it.number)
                               .arg(it.versionId, liftInPoints(it.trainLift), percent(it.trainPassRate));
            if (it.heldOutLift)
                line += QStringLiteral("  held-out lift %1").arg(liftInPoints(*it.heldOutLift));
            line += QStringLiteral("  cost %1").arg(it.costUsd ? formatUsd(*it.costUsd) : QStringLiteral("unknown"));
            if (it.teacherCostUsd)
                line += QStringLiteral(" + teacher %1").arg(formatUsd(*it.teacherCostUsd));
            line += QStringLiteral("  run %1").arg(QDir::toNativeSeparators(it.runDir));
            if (it.number == loop.keptIteration())
                line += QStringLiteral("  <- kept");
            out(line + u'\n');
        }
        out(QStringLiteral("%1 The skill in %2 holds that version; every version, the others too, is in its "
                           ".versions/.\n")
                .arg(loop.keptText(), QDir::toNativeSeparators(request.skillDir)));
        exitCode = reason == u"cancelled" ? CheckFailed : Success;
        QCoreApplication::quit();
    });
    QObject::connect(&loop, &RefineLoop::failed, qApp, [&](const QString &message) {
        err(QStringLiteral("skillforge refine: %1\n").arg(message));
        if (const QString reply = loop.failedReply(); !reply.isEmpty()) {
            // What the teacher wrote instead of a skill, so the user can see why (and adjust the teacher or prompt).
            err(QStringLiteral("The teacher's reply:\n%1\n").arg(reply));
        }
        // Nothing retries here: the folder gets the best version measured, not the last one.
        loop.keepBest();
        if (!loop.keptText().isEmpty())
            err(loop.keptText() + u'\n');
        QCoreApplication::quit();
    });
    loop.start(request);
    QCoreApplication::exec();
    return exitCode;
}

} // namespace

Command refineCommand()
{
    Command command;
    command.words = {kCommand};
    command.summary = QStringLiteral("improve a skill with a teacher until students do well with it");
    command.help =
        QStringLiteral(
            "Usage: skillforge refine SKILL_DIR --teacher M --student M... [--tests FILE] [--iterations K]\n"
            "                         [--target-lift X] [--target-pass-rate X] [--plateau D] [--max-cost USD]\n"
            "                         [--runs N] [--mode inline|agentic] [--concurrency C] [--out RUNS_DIR]\n"
            "                         [--budget-tokens N] [--profile P] [--tools|--no-tools]\n"
            "                         [--harness builtin|claude-code|codex [--harness-cli CLI]]\n\n"
            "Evaluates the skill with each student (with and without it), shows the teacher the training\n"
            "cases they failed with the skill (each verifier's evidence, their answers, the lift so far;\n"
            "held-out cases are measured but never shown), lets the teacher write a new version, and\n"
            "evaluates again. It stops at the first of: --target-lift reached, --target-pass-rate reached,\n"
            "a plateau (lift changing by less than D, default 0.02, twice in a row), K improvements (default\n"
            "3: the teacher writes at most K new versions, so at most K + 1 evaluations), or --max-cost USD\n"
            "reached: the students' evaluations and the teacher's calls together, each request priced on its\n"
            "own; each evaluation is capped at what is left, and no iteration starts that is expected to pass\n"
            "it (needs a price for the teacher and every student). Lifts are shown in percentage points\n"
            "(--target-lift 0.3 is +30 pp). The skill folder is left at the best version measured (the\n"
            "held-out lift where the suite holds cases out), not merely the last, and the output says which\n"
            "and why. Each version is kept in the skill's .versions/ (origin refine:N) and each evaluation is\n"
            "a run in RUNS_DIR (default runs/). --harness runs the students in their real CLI, as\n"
            "`skillforge eval --harness` does (see its --help).\n\n") +
        toolOptionsHelp() +
        QStringLiteral("\nExit codes: 0 the loop ended on a criterion, 1 a model or evaluation failed, 2 bad "
                       "usage.\n");
    command.run = runRefine;
    return command;
}

} // namespace sf::cli
