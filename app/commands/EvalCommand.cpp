#include "CommandRegistry.h"
#include "EvalTestsFirst.h"
#include "ExecutorOptions.h"
#include "LlmServices.h"
#include "StopOnSignal.h"
#include "ToolOptions.h"
#include "VerdictOptions.h"
#include "agents/Harness.h"
#include "cluster/EvalLaunch.h"
#include "eval/Contamination.h"
#include "eval/CostEffectiveness.h"
#include "eval/EffectiveConcurrency.h"
#include "eval/EvalSession.h"
#include "eval/RunSummary.h"
#include "eval/SandboxCommand.h"
#include "eval/TestSuite.h"
#include "llm/ModelName.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>
#include <QMap>
#include <QRegularExpression>
#include <algorithm>
#include <numeric>
#include <unistd.h>

namespace sf::cli {

namespace {

const QString kCommand = QStringLiteral("eval");

QString percent(double rate)
{
    return QStringLiteral("%1%").arg(qRound(rate * 100));
}

QString duration(qint64 ms)
{
    if (ms < 0)
        return QStringLiteral("?");
    const qint64 s = ms / 1000;
    return s >= 60 ? QStringLiteral("%1m%2s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'))
                   : QStringLiteral("%1s").arg(s);
}

// "done/total, pass rates so far per arm, ETA" on one line.
QString progressLine(const EvalRunner &runner, const RunStore &store)
{
    int passed[2] = {0, 0};
    int judged[2] = {0, 0};
    int errors = 0;
    for (const ItemResult &r : store.results()) {
        const int arm = r.key.arm == kWithSkillArm ? 1 : 0;
        if (r.isError()) {
            ++errors;
            continue;
        }
        ++judged[arm];
        passed[arm] += r.passed ? 1 : 0;
    }
    auto rate = [&](int arm) { return judged[arm] ? percent(double(passed[arm]) / judged[arm]) : QStringLiteral("-"); };
    QString line = QStringLiteral("[%1/%2] baseline %3, with_skill %4")
                       .arg(runner.done())
                       .arg(runner.total())
                       .arg(rate(0), rate(1));
    if (errors > 0)
        line += QStringLiteral(", %1 errors").arg(errors);
    line += QStringLiteral(", %1 running, ETA %2").arg(runner.inFlight()).arg(duration(runner.etaMs()));
    return line + QStringLiteral(", ") + runner.spend().describe(runner.spendingCap());
}

QString summaryTable(const RunSummary &summary)
{
    QString text = QStringLiteral("%1  %2  %3  %4  %5  %6  %7\n")
                       .arg(QStringLiteral("model").leftJustified(28), QStringLiteral("split").leftJustified(7),
                            QStringLiteral("arm").leftJustified(10), QStringLiteral("pass").leftJustified(14),
                            QStringLiteral("95% CI").leftJustified(12),
                            QStringLiteral("tokens (mean)").leftJustified(13), QStringLiteral("latency (mean)"));
    for (const ArmSummary &a : summary.arms) {
        QString pass =
            QStringLiteral("%1/%2 %3").arg(a.passRate.successes).arg(a.passRate.trials).arg(percent(a.passRate.rate));
        if (a.errors > 0)
            pass += QStringLiteral(" +%1err").arg(a.errors);
        text +=
            QStringLiteral("%1  %2  %3  %4  %5  %6  %7\n")
                .arg(a.model.leftJustified(28), a.split.leftJustified(7), a.arm.leftJustified(10),
                     pass.leftJustified(14),
                     QStringLiteral("%1-%2")
                         .arg(percent(a.passRate.ci.low), percent(a.passRate.ci.high))
                         .leftJustified(12),
                     QString::number(qRound64(a.tokens.mean)).leftJustified(13), duration(qRound64(a.latencyMs.mean)));
        if (a.triggerRate)
            text +=
                QStringLiteral("    skill loaded in %1/%2 items (%3, 95% CI %4-%5)%6\n")
                    .arg(a.triggerRate->successes)
                    .arg(a.triggerRate->trials)
                    .arg(percent(a.triggerRate->rate), percent(a.triggerRate->ci.low), percent(a.triggerRate->ci.high))
                    .arg(a.triggerRate->successes < a.triggerRate->trials
                             ? QStringLiteral("; %1 silent bypass: never loaded, their outcome says nothing "
                                              "about the skill's content")
                                   .arg(a.triggerRate->trials - a.triggerRate->successes)
                             : QString());
    }
    for (const ArmComparison &c : summary.comparisons) {
        text +=
            QStringLiteral("lift %1 [%2]: %3%4 over %5 pairs (exact McNemar p = %6); %7 flipped to pass, %8 to fail\n")
                .arg(c.model, c.split, c.lift >= 0 ? QStringLiteral("+") : QString(), QString::number(c.lift, 'f', 2))
                .arg(c.table.pairs())
                .arg(QString::number(c.pValue, 'g', 3))
                .arg(c.table.onlySecond)
                .arg(c.table.onlyFirst);
        if (!c.flippedToPass.isEmpty())
            text += QStringLiteral("    to pass: %1\n").arg(c.flippedToPass.join(QStringLiteral(", ")));
        if (!c.flippedToFail.isEmpty())
            text += QStringLiteral("    to fail: %1\n").arg(c.flippedToFail.join(QStringLiteral(", ")));
    }
    return text;
}

QString verdictLines(const QList<Verdict> &verdicts, const VerdictThresholds &thresholds)
{
    QString text;
    for (const Verdict &v : verdicts)
        text += QStringLiteral("verdict %1 [%2]: %3\n").arg(v.model, v.split, v.reason());
    return text + QStringLiteral("  (%1)\n").arg(thresholds.describe());
}

QString costLines(const RunSummary &summary)
{
    QString text;
    for (const ArmCostEffectiveness &e : costEffectiveness(summary)) {
        QString figures = e.costNote();
        if (e.totalCost && *e.totalCost == 0)
            figures = QStringLiteral("free");
        else if (e.costPerPass)
            figures = QStringLiteral("$%1 per item, $%2 per passed case, %3 passes per $1")
                          .arg(QString::number(*e.meanCostPerItem, 'g', 3), QString::number(*e.costPerPass, 'g', 3),
                               QString::number(e.passesPerDollar.value_or(0), 'f', 1));
        else if (e.totalCost)
            figures = QStringLiteral("$%1 per item, no case passed").arg(QString::number(*e.meanCostPerItem, 'g', 3));
        if (e.totalCost && e.pricedAfterwards > 0)
            figures += QStringLiteral("; ") + e.costNote();
        text += QStringLiteral("cost %1 %2: %3\n").arg(e.model, e.arm, figures);
    }
    return text;
}

// What an item costs in the CLI's own start-up: from its start to its first model request, per model.
QString cliOverheadLines(const QList<ItemResult> &results, const RunManifest &manifest)
{
    if (manifest.harness.isEmpty())
        return {};
    QMap<QString, QList<qint64>> startups;
    for (const ItemResult &r : results) {
        if (r.cliStartupMs >= 0)
            startups[r.key.model].append(r.cliStartupMs);
    }
    QString text;
    const QString cli = Harness::label(manifest.harness.value(QStringLiteral("name")).toString());
    for (auto it = startups.cbegin(); it != startups.cend(); ++it) {
        const QList<qint64> &ms = it.value();
        const double mean = std::accumulate(ms.cbegin(), ms.cend(), 0.0) / double(ms.size());
        text += QStringLiteral("%1 start-up %2: %3 s on average before its first model request (%4 items)\n")
                    .arg(cli, it.key(), QString::number(mean / 1000.0, 'f', 1))
                    .arg(ms.size());
    }
    return text;
}

// Which items the built-in student had its tools in, and why: by default only the cases that need them get them.
QString studentToolsLine(const TestSuite &suite, const EvalConfig &config, const QList<ItemResult> &results)
{
    QHash<QString, ToolDecision> byCase;
    for (const TestCase &testCase : suite.cases)
        byCase.insert(testCase.id, studentToolsFor(testCase, config));
    QMap<QString, int> offeredWhy;
    int known = 0, offered = 0;
    for (const ItemResult &r : results) {
        if (!r.toolsOffered)
            continue; // an agent CLI's item, or one recorded before the choice was made per case
        ++known;
        if (*r.toolsOffered) {
            ++offered;
            ++offeredWhy[byCase.value(r.key.caseId).why];
        }
    }
    if (known == 0)
        return {};
    if (offered == 0)
        return QStringLiteral("student tools: in none of the %1 items (%2)\n")
            .arg(known)
            .arg(config.studentTools == ToolOffer::Never ? QStringLiteral("--no-tools")
                                                         : QStringLiteral("no case needs them; --tools offers them"));
    QStringList reasons;
    for (auto it = offeredWhy.cbegin(); it != offeredWhy.cend(); ++it)
        reasons << QStringLiteral("%1: %2").arg(it.value()).arg(it.key());
    QString line =
        QStringLiteral("student tools: in %1 of %2 items (%3)").arg(offered).arg(known).arg(reasons.join(u"; "));
    if (offered < known)
        line += QStringLiteral("; the other %1 answered in text").arg(known - offered);
    return line + u'\n';
}

// The gates look at held-out results when there are any: those are the cases the skill was not tuned on.
QStringList unmetGates(const RunSummary &summary, const QStringList &models, std::optional<double> minLift,
                       std::optional<double> minPassRate, std::optional<double> maxCostPerPass)
{
    QStringList unmet;
    for (const QString &model : models) {
        const QString split = summary.arm(model, kWithSkillArm, QStringLiteral("heldout")) ? QStringLiteral("heldout")
                                                                                           : QStringLiteral("all");
        if (minLift) {
            const ArmComparison *c = summary.comparison(model, split);
            if (!c || c->lift < *minLift)
                unmet.append(QStringLiteral("%1: lift %2 below --min-lift %3")
                                 .arg(model, c ? QString::number(c->lift, 'f', 2) : QStringLiteral("unknown"))
                                 .arg(*minLift));
        }
        if (minPassRate) {
            const ArmSummary *a = summary.arm(model, kWithSkillArm, split);
            if (!a || a->passRate.trials == 0 || a->passRate.rate < *minPassRate)
                unmet.append(QStringLiteral("%1: with_skill pass rate %2 below --min-pass-rate %3")
                                 .arg(model, a ? QString::number(a->passRate.rate, 'f', 2) : QStringLiteral("unknown"))
                                 .arg(*minPassRate));
        }
        if (maxCostPerPass) {
            const ArmCostEffectiveness *e =
                findCostEffectiveness(costEffectiveness(summary, split), model, kWithSkillArm);
            if (!e || !e->costPerPass || *e->costPerPass > *maxCostPerPass)
                unmet.append(QStringLiteral("%1: with_skill cost per passed case %2 above --max-cost-per-pass %3")
                                 .arg(model, e && e->costPerPass ? QString::number(*e->costPerPass, 'g', 4)
                                             : e && e->totalCost ? QStringLiteral("(no case passed)")
                                                                 : QStringLiteral("unknown (no price)"))
                                 .arg(*maxCostPerPass));
        }
    }
    return unmet;
}

/// Empty when every item of the run has a judged result; else why not, and the command that finishes the run.
// A model that cannot be called (no key, an unknown provider, the local model not installed) is said before the run,
// not found out from every one of its items ending in the same error.
bool allCallable(LlmServices &services, const EvalConfig &config)
{
    QStringList models = config.models;
    if (!config.judgeModel.isEmpty())
        models.append(config.judgeModel);
    for (const QString &model : std::as_const(models)) {
        if (const QString why = services.chat().whyUnavailable(model); !why.isEmpty()) {
            err(QStringLiteral("skillforge eval: %1: %2\n").arg(model, why));
            return false;
        }
    }
    return true;
}

QString unfinishedLine(const EvalRunner &runner, const RunStore &store)
{
    const ErrorItems errors = errorItems(store.results());
    const qsizetype notRun = runner.total() - store.results().size();
    if (errors.count == 0 && notRun <= 0 && runner.stopReason().isEmpty())
        return {};
    QString text;
    if (!runner.stopReason().isEmpty())
        text += QStringLiteral("stopped: %1\n").arg(runner.stopReason());
    QStringList parts;
    if (notRun > 0)
        parts << QStringLiteral("%1 not run").arg(notRun);
    if (errors.count > 0)
        parts
            << QStringLiteral("%1 ended in errors (the first: %2)").arg(errors.count).arg(errors.firstError.left(200));
    const QString resume =
        QStringLiteral("skillforge eval --resume %1").arg(store.dir()) +
        (runner.capReached() ? QStringLiteral(" --max-cost USD (a higher cap, or none)") : QString());
    return text + QStringLiteral("run not finished: of %1 items, %2; finish it with: %3\n")
                      .arg(runner.total())
                      .arg(parts.join(QStringLiteral(", ")), resume);
}

int runEval(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("skill"), QString());
    for (const auto &[name, value] : {std::pair{"tests", "FILE"},
                                      {"model", "M"},
                                      {"runs", "N"},
                                      {"mode", "MODE"},
                                      {"concurrency", "C"},
                                      {"out", "DIR"},
                                      {"resume", "DIR"},
                                      {"min-lift", "X"},
                                      {"min-pass-rate", "X"},
                                      {"max-cost-per-pass", "USD"},
                                      {"max-cost", "USD"},
                                      {"judge", "M"},
                                      {"max-turns", "N"},
                                      {"timeout", "S"},
                                      {"max-output-tokens", "N"},
                                      {"temperature", "T"},
                                      {"seed", "N"},
                                      {"harness", "H"},
                                      {"harness-cli", "CLI"},
                                      {"mcp-config", "FILE"},
                                      {"allowed-tools", "TOOLS"},
                                      {"teacher", "M"},
                                      {"test-count", "N"}})
        parser.addOption({QString::fromLatin1(name), QString(), QString::fromLatin1(value)});
    parser.addOption(QCommandLineOption(QStringLiteral("json")));
    addToolOptions(parser);
    parser.addOption(QCommandLineOption(QStringLiteral("override-case-repeats")));
    addVerdictOptions(parser);
    addExecutorOptions(parser);
    if (!parseArguments(parser, kCommand, arguments))
        return BadUsage;
    bool ok = true;
    const std::optional<double> minLift = numberOption(parser, kCommand, QStringLiteral("min-lift"), &ok);
    const std::optional<double> minPassRate =
        ok ? numberOption(parser, kCommand, QStringLiteral("min-pass-rate"), &ok) : std::nullopt;
    const std::optional<double> maxCostPerPass =
        ok ? numberOption(parser, kCommand, QStringLiteral("max-cost-per-pass"), &ok, 0) : std::nullopt;
    const std::optional<double> maxCost =
        ok ? numberOption(parser, kCommand, QStringLiteral("max-cost"), &ok, 0, 1e6) : std::nullopt;
    const std::optional<VerdictThresholds> thresholds =
        ok ? verdictThresholdsFromOptions(parser, kCommand) : std::nullopt;
    if (!ok || !thresholds)
        return BadUsage;

    EvalPlan plan;
    plan.maxCostUsd = maxCost;
    plan.skillDir = parser.positionalArguments().value(0);
    plan.suitePath = parser.value(QStringLiteral("tests"));
    plan.resumeDir = parser.value(QStringLiteral("resume"));
    if (parser.isSet(QStringLiteral("out")))
        plan.runsDir = parser.value(QStringLiteral("out"));
    EvalConfig &config = plan.config;
    if (plan.resumeDir.isEmpty()) {
        config.models = parser.values(QStringLiteral("model"));
        auto number = [&](const char *name, int *target, int minimum) {
            if (!parser.isSet(QLatin1String(name)))
                return true;
            *target = parser.value(QLatin1String(name)).toInt(&ok);
            if (!ok || *target < minimum) {
                err(QStringLiteral("skillforge eval: --%1 must be a whole number >= %2\n")
                        .arg(QLatin1String(name))
                        .arg(minimum));
                return false;
            }
            return true;
        };
        if (!number("runs", &config.runs, 1) || !number("concurrency", &config.concurrency, 1) ||
            !number("max-turns", &config.maxTurns, 1) || !number("timeout", &config.timeoutSeconds, 1) ||
            !number("max-output-tokens", &config.maxOutputTokens, 1))
            return BadUsage;
        config.runsForEveryCase = parser.isSet(QStringLiteral("override-case-repeats"));
        config.mode = parser.value(QStringLiteral("mode")).isEmpty() ? QStringLiteral("inline")
                                                                     : parser.value(QStringLiteral("mode"));
        if (config.mode != QLatin1String("inline") && config.mode != QLatin1String("agentic")) {
            err(QStringLiteral("skillforge eval: --mode must be inline or agentic\n"));
            return BadUsage;
        }
        if (parser.isSet(QStringLiteral("temperature"))) {
            config.temperature = parser.value(QStringLiteral("temperature")).toDouble(&ok);
            if (!ok || *config.temperature < 0) {
                err(QStringLiteral("skillforge eval: --temperature must be a number >= 0\n"));
                return BadUsage;
            }
        }
        if (parser.isSet(QStringLiteral("seed"))) {
            config.seed = parser.value(QStringLiteral("seed")).toLongLong(&ok);
            if (!ok) {
                err(QStringLiteral("skillforge eval: --seed must be a whole number\n"));
                return BadUsage;
            }
        }
        config.judgeModel = parser.value(QStringLiteral("judge"));
        if (parser.isSet(QStringLiteral("harness")))
            config.harness = parser.value(QStringLiteral("harness"));
        if (!Harness::all().contains(config.harness)) {
            err(QStringLiteral("skillforge eval: --harness must be one of %1\n").arg(Harness::all().join(u", ")));
            return BadUsage;
        }
        config.harnessCli = parser.value(QStringLiteral("harness-cli"));
        if (!config.harnessCli.isEmpty() && config.harnessCli != QLatin1String("path"))
            config.harnessCli = QFileInfo(config.harnessCli).absoluteFilePath();
        if (parser.isSet(QStringLiteral("mcp-config")))
            config.mcpConfig = QFileInfo(parser.value(QStringLiteral("mcp-config"))).absoluteFilePath();
        if (parser.isSet(QStringLiteral("allowed-tools")))
            config.allowedTools = parser.value(QStringLiteral("allowed-tools"))
                                      .split(QRegularExpression(QStringLiteral("[\\s,]+")), Qt::SkipEmptyParts);
        if (config.harness == Harness::Builtin &&
            (!config.harnessCli.isEmpty() || !config.mcpConfig.isEmpty() || !config.allowedTools.isEmpty())) {
            err(QStringLiteral("skillforge eval: --harness-cli, --mcp-config and --allowed-tools need --harness "
                               "claude-code or codex\n"));
            return BadUsage;
        }
        if (!config.mcpConfig.isEmpty() && !QFileInfo(config.mcpConfig).isFile()) {
            err(QStringLiteral("skillforge eval: --mcp-config %1: no such file\n").arg(config.mcpConfig));
            return BadUsage;
        }
        const std::optional<ToolOffer> tools = toolOfferFromOptions(parser);
        if (!tools) {
            err(QStringLiteral("skillforge eval: --tools and --no-tools contradict each other\n"));
            return BadUsage;
        }
        config.studentTools = *tools;
        if (plan.skillDir.isEmpty() || config.models.isEmpty()) {
            err(QStringLiteral(
                "skillforge eval: needs SKILL_DIR and at least one --model PROVIDER:MODEL (see --help)\n"));
            return BadUsage;
        }
    }

    // --executor slurm: command and cuda_kernel verifiers run as Slurm jobs; model calls stay here. A resumed run
    // uses the executor its run.json records, unless the command line says otherwise.
    const std::optional<ExecutorChoice> recorded =
        plan.resumeDir.isEmpty() ? std::nullopt : std::optional(recordedExecutor(plan.resumeDir));
    const auto chosen = executorFromOptions(parser, recorded);
    if (const QString *e = std::get_if<QString>(&chosen)) {
        err(QStringLiteral("skillforge eval: %1\n").arg(*e));
        return BadUsage;
    }
    const ExecutorChoice &executor = std::get<ExecutorChoice>(chosen);
    auto jobRunner = jobRunnerFor(parser, executor, evalAsksForGpu(executor));
    if (const QString *e = std::get_if<QString>(&jobRunner)) {
        err(QStringLiteral("skillforge eval: %1\n").arg(*e));
        return BadUsage;
    }
    const std::shared_ptr<JobRunner> &jobs = std::get<std::shared_ptr<JobRunner>>(jobRunner);
    routeHeavyWork(plan, jobs, executor);
    LlmServices services;
    // A new run's models are checked before anything is written; a resumed run's, once run.json is read.
    if (plan.resumeDir.isEmpty() && !allCallable(services, plan.config))
        return BadUsage;
    // A skill without tests: the teacher the user names writes them first; never a model of our choosing.
    if (plan.resumeDir.isEmpty() && plan.suitePath.isEmpty() && !hasSkillTestSuite(plan.skillDir)) {
        const QString teacher = parser.value(QStringLiteral("teacher"));
        if (teacher.isEmpty()) {
            err(QStringLiteral("skillforge eval: %1 carries no tests (neither evals/evals.json nor tests in "
                               "skill_meta.json): give --tests FILE, or --teacher MODEL to have a teacher write them "
                               "into its evals/ first\n")
                    .arg(plan.skillDir));
            return BadUsage;
        }
        const int count =
            parser.isSet(QStringLiteral("test-count")) ? parser.value(QStringLiteral("test-count")).toInt(&ok) : 6;
        if (!ok || count < 1 || count > 200) {
            err(QStringLiteral("skillforge eval: --test-count must be a number from 1 to 200\n"));
            return BadUsage;
        }
        const std::optional<QString> suite = writeTestsFirst(services, plan.skillDir, teacher, count);
        if (!suite)
            return CheckFailed;
        plan.suitePath = *suite;
    }
    // Commands (the command verifier, the student's run_command) only ever run contained; without the sandbox
    // they are refused and reported as not available.
    auto prepared = EvalSession::prepare(services.chat(), plan, sandboxCommandRunner());
    if (const QString *e = std::get_if<QString>(&prepared)) {
        err(QStringLiteral("skillforge eval: %1\n").arg(*e));
        return BadUsage;
    }
    EvalSession &session = *std::get<std::unique_ptr<EvalSession>>(prepared);
    if (!plan.resumeDir.isEmpty() && !allCallable(services, session.config()))
        return BadUsage;
    if (jobs)
        makeRoomForWaitingVerifiers(session);
    RunStore *store = &session.store();
    EvalRunner &runner = session.runner();
    const bool json = parser.isSet(QStringLiteral("json"));
    const bool tty = ::isatty(STDERR_FILENO);
    err(QStringLiteral("run %1: %2 items (%3 already done)\n")
            .arg(store->dir())
            .arg(runner.total())
            .arg(runner.done()));
    err(effectiveConcurrencyText(services.chat(), session.config()) + u'\n');
    if (const QJsonObject harness = store->manifest().harness; !harness.isEmpty())
        err(QStringLiteral("student harness: %1 %2 (%3)\n")
                .arg(Harness::label(harness.value(QStringLiteral("name")).toString()),
                     harness.value(QStringLiteral("version")).toString(),
                     harness.value(QStringLiteral("source")).toString()));
    if (recorded && *recorded == executor)
        err(QStringLiteral("heavy work on: %1, as run.json records\n").arg(executor.describe()));
    else if (recorded)
        err(QStringLiteral("heavy work on: %1, from the command line (run.json recorded %2)\n")
                .arg(executor.describe(), recorded->describe()));
    else if (jobs)
        err(QStringLiteral("heavy work on: %1\n").arg(executor.describe()));
    if (const QString note = missingJudgeNote(session.suite(), session.config().judgeModel,
                                              QStringLiteral("Choose one with --judge MODEL."));
        !note.isEmpty())
        err(QStringLiteral("note: ") + note + u'\n');
    for (const QString &note : session.suite().notes)
        err(QStringLiteral("note: ") + note + u'\n');
    QObject::connect(&runner, &EvalRunner::itemFinished, qApp, [&](const ItemResult &result) {
        if (tty)
            err(QStringLiteral("\r\033[K") + progressLine(runner, *store));
        else
            err(QStringLiteral("%1 %2 %3 #%4: %5%6\n")
                    .arg(result.key.model, result.key.arm, result.key.caseId)
                    .arg(result.key.repeat)
                    .arg(result.isError() ? QStringLiteral("error: ") + result.error
                                          : (result.passed ? QStringLiteral("pass") : QStringLiteral("fail")),
                         QStringLiteral("  ") + progressLine(runner, *store)));
    });
    QObject::connect(&runner, &EvalRunner::finished, qApp, [] { QCoreApplication::quit(); });
    // Ctrl-C or SIGTERM stops a local run in order: what finished stays recorded, and the last line says how to
    // resume it (a Slurm run cancels its jobs instead, ExecutorOptions).
    if (!jobs)
        stopOnSignal(&session, [&runner](const QString &signal) {
            runner.stop(QStringLiteral("interrupted by %1").arg(signal));
        });
    QMetaObject::invokeMethod(&session, &EvalSession::start, Qt::QueuedConnection);
    QCoreApplication::exec();
    waitIfInterrupted();
    if (tty)
        err(QStringLiteral("\n"));

    const RunSummary summary = summarizeRun(store->results());
    const QStringList unmet = unmetGates(summary, session.config().models, minLift, minPassRate, maxCostPerPass);
    const QList<Verdict> verdicts = decideVerdicts(summary, *thresholds);
    // Only the transcripts are read again: the contamination check needs no statistics.
    RunAnalysis written;
    written.dir = store->dir();
    written.manifest = store->manifest();
    written.results = store->results();
    const ContaminationReport contamination = checkContamination(written);
    if (json) {
        QJsonObject object{{QStringLiteral("run_dir"), store->dir()},
                           {QStringLiteral("run"), store->manifest().toJson()},
                           {QStringLiteral("summary"), summary.toJson()},
                           {QStringLiteral("verdicts"), verdictsJson(verdicts, *thresholds)},
                           {QStringLiteral("cost_effectiveness"), costEffectivenessJson(costEffectiveness(summary))},
                           {QStringLiteral("contamination"), contamination.toJson()},
                           {QStringLiteral("gates_unmet"), QJsonArray::fromStringList(unmet)}};
        out(QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented)));
    } else {
        out(summaryTable(summary));
        out(costLines(summary));
        out(cliOverheadLines(store->results(), store->manifest()));
        out(studentToolsLine(session.suite(), session.config(), store->results()));
        out(verdictLines(verdicts, *thresholds));
        out(QStringLiteral("contamination: %1\n").arg(contamination.summary()));
        out(QStringLiteral("results: %1\n").arg(store->dir()));
    }
    for (const QString &gate : unmet)
        err(QStringLiteral("gate not met: %1\n").arg(gate));
    if (const QString unfinished = unfinishedLine(runner, *store); !unfinished.isEmpty()) {
        // Last, so that it is what a user (or a script's log tail) sees: the verdict above lacks these items.
        err(unfinished);
        return Unfinished;
    }
    return unmet.isEmpty() ? Success : CheckFailed;
}

} // namespace

Command evalCommand()
{
    Command command;
    command.words = {kCommand};
    command.summary = QStringLiteral("measure a skill: models with and without it on a test suite");
    command.help =
        QStringLiteral(
            "Usage: skillforge eval SKILL_DIR [--tests FILE | --teacher M [--test-count N]] --model M...\n"
            "                       [--runs N [--override-case-repeats]]\n"
            "                       [--mode inline|agentic] [--concurrency C] [--out RUNS_DIR] [--resume RUN_DIR] "
            "[--json]\n"
            "                       [--min-lift X] [--min-pass-rate X] [--max-cost-per-pass USD] [--max-cost USD]\n"
            "                       [--judge M] [--tools|--no-tools]\n"
            "                       [--harness builtin|claude-code|codex [--harness-cli CLI] [--mcp-config FILE]\n"
            "                        [--allowed-tools T]]\n"
            "                       [--max-turns N] [--timeout S] [--max-output-tokens N] [--temperature T] [--seed "
            "N]\n"
            "                       [--executor local|slurm [--partition P] [--gres gpu:N] [--account A] [--time "
            "T]]\n\n"
            "Runs every test case on every model twice, without the skill (baseline) and with it, --runs times\n"
            "(or a case's own \"repeats\"), arms interleaved, and prints pass rates with Wilson 95% intervals, the\n"
            "lift with an exact McNemar test over paired cases, tokens and latency, and a verdict per model: keep,\n"
            "cut (no lift, or the skill hurts) or can't tell yet (with the paired cases that would likely decide it).\n"
            "Held-out cases are reported apart and decide the verdicts and gates when there are any.\n\n"
            "  --tests FILE        upskill's test JSON (a list or {\"cases\": [...]}) or skill-creator's evals.json;\n"
            "                      default: the skill's evals/evals.json, else the tests in its skill_meta.json\n"
            "  --mode MODE         inline: the skill's body in the system prompt (default); agentic: only its name\n"
            "                      and description, the model loads it with a tool (the run records whether it did)\n"
            "  --out RUNS_DIR      where the run folder goes (default ./runs): run.json, results.jsonl, transcripts/\n"
            "  --resume RUN_DIR    finish a run: the items missing from its results.jsonl run, and those that\n"
            "                      ended in an error (provider fault) run again, their new result superseding it\n"
            "  --runs N            repeats per case and arm (1); a case's own \"repeats\" wins over it, unless\n"
            "                      --override-case-repeats makes N apply to every case\n"
            "  --judge M           the model that grades llm_judge verifiers and skill-creator expectations\n"
            "  --teacher M         when the skill carries no tests: M writes --test-count N (6) of them into the\n"
            "                      skill's evals/evals.json first, and the run uses them\n") +
        toolOptionsHelp() +
        QStringLiteral(
            "  --harness H         who drives the student: builtin (Skillforge's loop, default), claude-code or\n"
            "                      codex: the real CLI once per item, in the sandbox, its only way out the model\n"
            "                      (through Skillforge); with the skill, the skill folder is installed where the CLI\n"
            "                      discovers project skills (.claude/skills/, .agents/skills/) and the run measures\n"
            "                      whether it was loaded. Claude Code takes anthropic: and local: models; Codex\n"
            "                      openai:, generic: and local:. --mode does not apply.\n"
            "  --harness-cli CLI   which CLI: the one scripts/setup installed (default, pinned), \"path\" for your\n"
            "                      own on PATH, or a file\n"
            "  --mcp-config FILE   an MCP configuration the skill relies on, given to the CLI in both arms\n"
            "  --allowed-tools T   tools the CLI may use without asking, in both arms (Claude Code)\n"
            "  --max-turns N       model calls per item (12); --timeout S: wall time per item (600)\n"
            "  --json              print the run and its statistics as JSON\n"
            "  --min-lift X        exit 1 unless every model's lift (held-out cases when there are any) is >= X\n"
            "  --min-pass-rate X   exit 1 unless every model's with-skill pass rate is >= X\n"
            "  --max-cost-per-pass USD  exit 1 unless every model's with-skill cost per passed case is <= USD\n"
            "  --max-cost USD      a spending cap over the whole run: no item starts once the spend so far, the\n"
            "                      items in flight and what the next item may cost (the dearest of the run's\n"
            "                      items of its model and arm so far) would pass USD; the run stops, and --resume\n"
            "                      RUN_DIR with a higher --max-cost (or none) carries on. Every student needs a\n"
            "                      price (skillforge prices show M). Each request is priced on its own: its own\n"
            "                      tier, its own cache buckets, its own fee\n") +
        verdictOptionsHelp() + executorOptionsHelp() +
        QStringLiteral(
            "  With slurm, command and cuda_kernel verifiers run as job arrays (a job that fails on its node is\n"
            "  an error item that --resume runs again); the student's own tool calls stay here. run.json records\n"
            "  the executor and its Slurm options: --resume uses them again, and options given override them.\n\n"
            "The embedded model's server is restarted when it crashes or stops answering (no answer to /health for\n"
            "10 s), and the requests it held are sent again to the new one; a server that fails 4 times within a\n"
            "minute stops the run, with its last output.\n\n"
            "Progress goes to stderr. Exit codes: 0 done (gates met), 1 a gate was not met, 2 bad usage or input,\n"
            "3 not finished: items ended in errors or the run was stopped; the last line gives the --resume "
            "command.\n");
    command.run = runEval;
    return command;
}

} // namespace sf::cli
