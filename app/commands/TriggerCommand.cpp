#include "CommandRegistry.h"
#include "LlmServices.h"
#include "agents/HarnessModels.h"
#include "skill/SkillDocument.h"
#include "trigger/SkillCatalogue.h"
#include "trigger/TriggerMeasure.h"
#include "trigger/TriggerOptimizer.h"
#include "trigger/TriggerQuerySet.h"
#include "trigger/TriggerRunner.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

using namespace Qt::StringLiterals;

namespace sf::cli {

namespace {

const QString kCommand = u"trigger"_s;

QString percent(double rate)
{
    return QString::number(qRound(rate * 100)) + u'%';
}

QString proportionText(const stats::Proportion &p)
{
    if (!p.trials)
        return u"n/a"_s;
    return u"%1 [%2-%3] (%4/%5)"_s.arg(percent(p.rate), percent(p.ci.low), percent(p.ci.high))
        .arg(p.successes)
        .arg(p.trials);
}

/// The candidate skill, the queries and the catalogue, as both subcommands read them from the command line.
struct TriggerInputs
{
    QString skillDir;
    QString skillMdPath;
    SkillDocument skill;
    QList<TriggerQuery> queries;
    SkillCatalogue catalogue;
    QString catalogueSource;
};

/// The default query file: the skill's own evals/trigger_evals.json or evals/eval_set.json.
QString defaultQueriesOf(const QString &skillDir)
{
    for (const QString &name : {u"evals/trigger_evals.json"_s, u"evals/eval_set.json"_s}) {
        const QString path = QDir(skillDir).filePath(name);
        if (QFileInfo(path).isFile())
            return path;
    }
    return {};
}

/// Reads SKILL_DIR, --queries and --catalogue; prints why and returns false on bad input.
bool readInputs(const QCommandLineParser &parser, const QString &command, TriggerInputs *inputs)
{
    const auto usage = [&](const QString &why) {
        err(u"skillforge %1: %2 (see --help)\n"_s.arg(command, why));
        return false;
    };
    if (parser.positionalArguments().size() != 1)
        return usage(u"needs exactly one SKILL_DIR"_s);
    inputs->skillDir = QFileInfo(parser.positionalArguments().first()).absoluteFilePath();
    inputs->skillMdPath = QDir(inputs->skillDir).filePath(u"SKILL.md"_s);
    QFile skillMd(inputs->skillMdPath);
    if (!skillMd.open(QIODevice::ReadOnly))
        return usage(u"%1 is not a skill folder (it has no SKILL.md)"_s.arg(inputs->skillDir));
    inputs->skill = SkillDocument::parse(QString::fromUtf8(skillMd.readAll()));
    if (inputs->skill.description().trimmed().isEmpty())
        return usage(u"%1 has no description: there is nothing to trigger on"_s.arg(inputs->skillMdPath));
    const QString name = inputs->skill.name().isEmpty() ? QFileInfo(inputs->skillDir).fileName() : inputs->skill.name();

    QString queriesPath = parser.value(u"queries"_s);
    if (queriesPath.isEmpty())
        queriesPath = defaultQueriesOf(inputs->skillDir);
    if (queriesPath.isEmpty())
        return usage(u"needs --queries FILE (a list of {query, should_trigger})"_s);
    const auto read = triggerqueries::read(queriesPath);
    if (const LoadError *e = std::get_if<LoadError>(&read)) {
        err(u"skillforge %1: %2\n"_s.arg(command, e->toString()));
        return false;
    }
    inputs->queries = std::get<QList<TriggerQuery>>(read);

    QList<CatalogueEntry> others;
    QStringList warnings;
    const QString catalogue = parser.value(u"catalogue"_s);
    if (catalogue == u"bundled"_s) {
        others = SkillCatalogue::bundledDecoys();
        inputs->catalogueSource = u"%1 bundled decoys"_s.arg(others.size());
    } else if (!catalogue.isEmpty()) {
        auto folder = SkillCatalogue::readFolder(catalogue, inputs->skillDir, &warnings);
        if (const QString *e = std::get_if<QString>(&folder))
            return usage(*e);
        others = std::get<QList<CatalogueEntry>>(folder);
        inputs->catalogueSource = u"%1 skills from %2"_s.arg(others.size()).arg(QDir::toNativeSeparators(catalogue));
    } else {
        qsizetype besideIt = 0;
        others = SkillCatalogue::besideAndBundled(inputs->skillDir, &warnings, &besideIt);
        inputs->catalogueSource =
            u"%1 skills beside it and %2 bundled decoys"_s.arg(besideIt).arg(others.size() - besideIt);
    }
    inputs->catalogue = SkillCatalogue({name, inputs->skill.description().trimmed(), inputs->skillDir}, others);
    for (const QString &w : warnings + inputs->catalogue.warnings())
        err(u"note: %1\n"_s.arg(w));
    return true;
}

/// Reads --model, --runs, --concurrency, --max-cost, --max-tokens, --harness, --harness-cli, --timeout; finds the
/// CLI of an agent CLI harness (*cli); prints why and returns false on bad input.
bool readConfig(const QCommandLineParser &parser, const QString &command, LlmServices &services, TriggerConfig *config,
                std::optional<AgentCliBinary> *cli)
{
    const auto usage = [&](const QString &why) {
        err(u"skillforge %1: %2\n"_s.arg(command, why));
        return false;
    };
    config->models = parser.values(u"model"_s);
    if (config->models.isEmpty())
        return usage(u"needs at least one --model M (see --help)"_s);
    bool ok = true;
    config->runs = int(numberOption(parser, command, u"runs"_s, &ok, 1, 1000).value_or(3));
    config->concurrency = int(numberOption(parser, command, u"concurrency"_s, &ok, 1, 256).value_or(4));
    config->maxCostUsd = numberOption(parser, command, u"max-cost"_s, &ok, 0, 1e6);
    config->maxTokens = int(numberOption(parser, command, u"max-tokens"_s, &ok, 16, 100000).value_or(256));
    config->timeoutSeconds = int(numberOption(parser, command, u"timeout"_s, &ok, 5, 3600).value_or(120));
    if (!ok)
        return false;
    if (parser.isSet(u"harness"_s))
        config->harness = parser.value(u"harness"_s);
    if (!Harness::all().contains(config->harness))
        return usage(u"--harness must be one of %1"_s.arg(Harness::all().join(u", "_s)));
    config->harnessCli = parser.value(u"harness-cli"_s);
    if (!config->harnessCli.isEmpty() && config->harnessCli != u"path"_s)
        config->harnessCli = QFileInfo(config->harnessCli).absoluteFilePath();
    if (config->harness == Harness::Builtin && (!config->harnessCli.isEmpty() || parser.isSet(u"timeout"_s)))
        return usage(u"--harness-cli and --timeout need --harness claude-code or codex"_s);
    if (Harness::isAgentCli(config->harness)) {
        // Before the keys: a model the CLI cannot speak to is wrong whatever the keys.
        for (const QString &model : std::as_const(config->models)) {
            if (const QString why = whyModelUnfitForHarness(config->harness, model, services.chat().providers());
                !why.isEmpty())
                return usage(why);
        }
    }
    for (const QString &model : std::as_const(config->models)) {
        if (const QString why = services.chat().whyUnavailable(model); !why.isEmpty())
            return usage(why);
    }
    if (Harness::isAgentCli(config->harness)) {
        const Result<AgentCliBinary> found = findTriggerCli(*config, services.chat().providers());
        if (!found)
            return usage(found.error);
        *cli = *found.value;
    }
    return true;
}

/// Who ran the trials, for the JSON output: the builtin harness, or the CLI's name, version, source and path.
QJsonObject harnessOf(const std::optional<AgentCliBinary> &cli)
{
    return cli ? harnessJson(*cli) : QJsonObject{{u"name"_s, Harness::Builtin}};
}

/// Who ran the trials, in words.
QString harnessText(const std::optional<AgentCliBinary> &cli)
{
    if (!cli)
        return u"%1 (one chat request per trial with an activate_skill tool)"_s.arg(Harness::label(Harness::Builtin));
    return u"%1 %2 (%3; its own skill discovery, one run per trial)"_s.arg(Harness::label(cli->harness), cli->version,
                                                                           cli->source);
}

QString estimateText(const TriggerEstimate &estimate)
{
    QString text = u"%1 trials of about %2 input and at most %3 output tokens each"_s.arg(estimate.trials)
                       .arg(estimate.inputTokensPerTrial)
                       .arg(estimate.outputTokensPerTrial);
    if (estimate.usd)
        text += u", at most $%1"_s.arg(*estimate.usd, 0, 'f', 4);
    else
        text += u"; no price for %1, so no cost bound"_s.arg(estimate.unpriced.join(u", "_s));
    return text;
}

QString measurementText(const TriggerMeasurement &m, const QList<TriggerQuery> &queries)
{
    QString text;
    for (const ModelTriggerRates &r : m.models) {
        text += u"%1\n  recall          %2\n  false positives %3\n  precision       %4\n  queries passed  %5/%6"_s
                    .arg(r.model, proportionText(r.recall), proportionText(r.falsePositiveRate),
                         proportionText(r.precision))
                    .arg(r.queriesPassed)
                    .arg(r.queries);
        if (r.errors)
            text += u"; %1 failed trials (counted in no rate)"_s.arg(r.errors);
        if (r.costKnown)
            text += u"; cost $%1"_s.arg(r.costUsd, 0, 'f', 4);
        text += u"\n"_s;
        for (const QueryOutcome &o : m.outcomes) {
            if (o.model != r.model)
                continue;
            const TriggerQuery &q = queries.at(o.queryIndex);
            QStringList instead;
            for (auto it = o.others.cbegin(); it != o.others.cend(); ++it)
                instead.append(u"%1 x%2"_s.arg(it.key().isEmpty() ? u"none"_s : it.key()).arg(it.value()));
            text += u"  %1 %2 %3/%4  %5%6\n"_s
                        .arg(o.passes(q.shouldTrigger) ? u"ok  "_s : u"FAIL"_s,
                             q.shouldTrigger ? u"should    "_s : u"should not"_s)
                        .arg(o.candidateLoads)
                        .arg(o.trials)
                        .arg(q.query.simplified().left(70),
                             instead.isEmpty() ? QString() : u"  (instead: %1)"_s.arg(instead.join(u", "_s)));
        }
    }
    return text;
}

/// What `trigger` and `trigger optimize` share: the skill, its queries, the students and how their trials run.
void addTrialOptions(QCommandLineParser &parser)
{
    parser.addPositionalArgument(u"skill-dir"_s, QString());
    parser.addOption({u"queries"_s, QString(), u"FILE"_s});
    parser.addOption({u"model"_s, QString(), u"M"_s});
    parser.addOption({u"runs"_s, QString(), u"N"_s});
    parser.addOption({u"catalogue"_s, QString(), u"DIR"_s});
    parser.addOption({u"concurrency"_s, QString(), u"C"_s});
    parser.addOption({u"max-cost"_s, QString(), u"USD"_s});
    parser.addOption({u"max-tokens"_s, QString(), u"N"_s});
    parser.addOption({u"harness"_s, QString(), u"H"_s});
    parser.addOption({u"harness-cli"_s, QString(), u"CLI"_s});
    parser.addOption({u"timeout"_s, QString(), u"S"_s});
    parser.addOption(QCommandLineOption(u"json"_s));
}

int runTrigger(const QStringList &arguments)
{
    QCommandLineParser parser;
    addTrialOptions(parser);
    if (!parseArguments(parser, kCommand, arguments))
        return BadUsage;
    TriggerInputs inputs;
    if (!readInputs(parser, kCommand, &inputs))
        return BadUsage;
    LlmServices services;
    TriggerConfig config;
    std::optional<AgentCliBinary> cli;
    if (!readConfig(parser, kCommand, services, &config, &cli))
        return BadUsage;

    const TriggerEstimate estimate = estimateTrigger(inputs.catalogue, inputs.queries, config);
    err(u"harness: %1\n"_s.arg(harnessText(cli)));
    err(u"catalogue: %1 skills (%2, candidate \"%3\")\n"_s.arg(inputs.catalogue.entries().size())
            .arg(inputs.catalogueSource, inputs.catalogue.candidate().name));
    err(u"estimate: %1\n"_s.arg(estimateText(estimate)));

    TriggerRunner runner(services.chat(), inputs.catalogue, inputs.queries, config);
    QString failure;
    QObject::connect(&runner, &TriggerRunner::failed, qApp, [&](const QString &message) {
        failure = message;
        QCoreApplication::quit();
    });
    QObject::connect(&runner, &TriggerRunner::finished, qApp, [] { QCoreApplication::quit(); });
    QMetaObject::invokeMethod(&runner, &TriggerRunner::start, Qt::QueuedConnection);
    QCoreApplication::exec();
    if (!failure.isEmpty()) {
        err(u"skillforge trigger: %1\n"_s.arg(failure));
        return CheckFailed;
    }
    if (runner.stopReason() == u"budget"_s)
        err(u"stopped: the next trial could have taken the spend past --max-cost; spent: %1\n"_s.arg(
            runner.spend().text()));

    const TriggerMeasurement m =
        measureTrigger(inputs.queries, inputs.catalogue.candidate().name, config.models, runner.trials());
    if (parser.isSet(u"json"_s)) {
        QJsonObject object = triggerMeasurementJson(m, inputs.queries);
        object.insert(u"skill"_s, inputs.catalogue.candidate().name);
        object.insert(u"description"_s, inputs.catalogue.candidate().description);
        object.insert(u"catalogue"_s, QJsonArray::fromStringList(inputs.catalogue.names()));
        object.insert(u"runs"_s, config.runs);
        object.insert(u"harness"_s, harnessOf(cli));
        object.insert(u"stop_reason"_s, runner.stopReason());
        object.insert(u"spent_usd"_s, runner.spend().total() ? QJsonValue(*runner.spend().total()) : QJsonValue());
        out(QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented)));
    } else {
        if (cli)
            out(u"harness: %1\n"_s.arg(harnessText(cli)));
        out(measurementText(m, inputs.queries));
    }
    bool anyAnswered = false;
    for (const ModelTriggerRates &r : m.models)
        anyAnswered = anyAnswered || r.queries > 0;
    return anyAnswered ? Success : CheckFailed;
}

QString iterationText(const TriggerIteration &it)
{
    QString line = u"%1  train %2/%3"_s.arg(it.number, 2).arg(it.trainPassed).arg(it.trainTotal);
    if (it.heldOutTotal)
        line += u"  held out %1/%2"_s.arg(it.heldOutPassed).arg(it.heldOutTotal);
    for (const ModelTriggerRates &r : it.measurement.models)
        line += u"  %1: recall %2, false positives %3"_s.arg(r.model, percent(r.recall.rate),
                                                             percent(r.falsePositiveRate.rate));
    return line + u"  version %1"_s.arg(it.versionId);
}

QJsonObject iterationJson(const TriggerIteration &it, const QList<TriggerQuery> &queries)
{
    QJsonObject o{{u"iteration"_s, it.number},       {u"description"_s, it.description},
                  {u"version"_s, it.versionId},      {u"train_passed"_s, it.trainPassed},
                  {u"train_total"_s, it.trainTotal}, {u"test_passed"_s, it.heldOutPassed},
                  {u"test_total"_s, it.heldOutTotal}};
    const QJsonObject measured = triggerMeasurementJson(it.measurement, queries);
    o.insert(u"models"_s, measured.value("models"_L1));
    o.insert(u"results"_s, measured.value("queries"_L1));
    return o;
}

int runTriggerOptimize(const QStringList &arguments)
{
    const QString command = u"trigger optimize"_s;
    QCommandLineParser parser;
    addTrialOptions(parser);
    parser.addOption({u"teacher"_s, QString(), u"T"_s});
    parser.addOption({u"iterations"_s, QString(), u"K"_s});
    parser.addOption({u"holdout"_s, QString(), u"F"_s});
    parser.addOption(QCommandLineOption(u"apply"_s));
    if (!parseArguments(parser, command, arguments))
        return BadUsage;
    TriggerInputs inputs;
    if (!readInputs(parser, command, &inputs))
        return BadUsage;
    LlmServices services;
    TriggerOptimizeRequest request;
    std::optional<AgentCliBinary> cli;
    if (!readConfig(parser, command, services, &request.config, &cli))
        return BadUsage;
    request.teacherModel = parser.value(u"teacher"_s);
    if (request.teacherModel.isEmpty()) {
        err(u"skillforge %1: needs --teacher T (see --help)\n"_s.arg(command));
        return BadUsage;
    }
    if (const QString why = services.chat().whyUnavailable(request.teacherModel); !why.isEmpty()) {
        err(u"skillforge %1: %2\n"_s.arg(command, why));
        return BadUsage;
    }
    bool ok = true;
    request.maxIterations = int(numberOption(parser, command, u"iterations"_s, &ok, 1, 50).value_or(5));
    request.holdout = numberOption(parser, command, u"holdout"_s, &ok, 0, 0.9).value_or(0.4);
    request.maxCostUsd = request.config.maxCostUsd;
    request.config.maxCostUsd.reset();
    if (!ok)
        return BadUsage;
    request.skillDir = inputs.skillDir;
    request.queries = inputs.queries;
    request.apply = parser.isSet(u"apply"_s);
    for (const CatalogueEntry &e : inputs.catalogue.entries()) {
        if (e.name != inputs.catalogue.candidate().name)
            request.others.append(e);
    }

    const TriggerOptimizeEstimate estimate = estimateOptimize(request, inputs.catalogue);
    err(u"harness: %1\n"_s.arg(harnessText(cli)));
    err(u"catalogue: %1 skills (%2, candidate \"%3\")\n"_s.arg(inputs.catalogue.entries().size())
            .arg(inputs.catalogueSource, inputs.catalogue.candidate().name));
    QString estimateLine =
        u"estimate: at most %1 evaluations (%2 trials) and %3 teacher calls"_s.arg(estimate.evaluations)
            .arg(estimate.trials)
            .arg(request.maxIterations);
    if (estimate.usd)
        estimateLine += u", at most $%1"_s.arg(*estimate.usd, 0, 'f', 4);
    else
        estimateLine += u"; no price for %1, so no cost bound"_s.arg(estimate.unpriced.join(u", "_s));
    if (request.maxCostUsd)
        estimateLine += u"; budget $%1"_s.arg(*request.maxCostUsd, 0, 'f', 4);
    err(estimateLine + u'\n');

    TriggerOptimizer optimizer(services.chat());
    QString reason, failure;
    QObject::connect(&optimizer, &TriggerOptimizer::stage, qApp, [](const QString &what) { err(what + u"...\n"_s); });
    QObject::connect(&optimizer, &TriggerOptimizer::iterationEvaluated, qApp,
                     [](const TriggerIteration &it) { err(u"iteration "_s + iterationText(it) + u'\n'); });
    QObject::connect(&optimizer, &TriggerOptimizer::finished, qApp, [&](const QString &why) {
        reason = why;
        QCoreApplication::quit();
    });
    QObject::connect(&optimizer, &TriggerOptimizer::failed, qApp, [&](const QString &message) {
        failure = message;
        QCoreApplication::quit();
    });
    QMetaObject::invokeMethod(
        qApp, [&] { optimizer.start(request); }, Qt::QueuedConnection);
    QCoreApplication::exec();
    if (!failure.isEmpty()) {
        err(u"skillforge %1: %2\n"_s.arg(command, failure));
        if (const QString reply = optimizer.failedReply(); !reply.isEmpty())
            err(u"The teacher's reply:\n%1\n"_s.arg(reply));
        return CheckFailed;
    }
    const TriggerIteration *best = optimizer.best();
    const QList<bool> &heldOut = optimizer.heldOut();
    if (parser.isSet(u"json"_s)) {
        QJsonArray history;
        for (const TriggerIteration &it : optimizer.iterations())
            history.append(iterationJson(it, request.queries));
        QJsonObject o{{u"exit_reason"_s, reason},
                      {u"original_description"_s, inputs.catalogue.candidate().description},
                      {u"best_description"_s, best ? best->description : QString()},
                      {u"best_iteration"_s, best ? best->number : -1},
                      {u"best_version"_s, best ? best->versionId : QString()},
                      {u"best_test_score"_s,
                       best ? QStringLiteral("%1/%2").arg(best->heldOutPassed).arg(best->heldOutTotal) : QString()},
                      {u"best_train_score"_s,
                       best ? QStringLiteral("%1/%2").arg(best->trainPassed).arg(best->trainTotal) : QString()},
                      {u"iterations_run"_s, int(optimizer.iterations().size()) - 1},
                      {u"holdout"_s, request.holdout},
                      {u"train_size"_s, int(heldOut.count(false))},
                      {u"test_size"_s, int(heldOut.count(true))},
                      {u"spent_usd"_s,
                       optimizer.spend().total() ? QJsonValue(*optimizer.spend().total()) : QJsonValue()},
                      {u"applied"_s, request.apply},
                      {u"harness"_s, harnessOf(cli)},
                      {u"history"_s, history}};
        out(QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented)));
    } else {
        out(u"Stopped: %1; spent: %2\n"_s.arg(reason, optimizer.spend().text()));
        for (const TriggerIteration &it : optimizer.iterations())
            out(u"  "_s + iterationText(it) + u'\n');
        if (best && best->number > 0) {
            out(u"Best: iteration %1 (version %2)\n- %3\n+ %4\n"_s.arg(best->number)
                    .arg(best->versionId, inputs.catalogue.candidate().description, best->description));
            out(request.apply ? u"SKILL.md now has the best description.\n"_s
                              : u"SKILL.md is unchanged; every proposal is a version in .versions/ (accept one by "
                                "restoring it, or run again with --apply).\n"_s);
        } else if (best) {
            out(u"Best: the original description; no proposal did better.\n"_s);
        }
    }
    return reason == u"cancelled"_s ? CheckFailed : Success;
}

} // namespace

Command triggerOptimizeCommand()
{
    Command command;
    command.words = {kCommand, u"optimize"_s};
    command.summary = u"let a teacher rewrite a skill's description until it triggers when it should"_s;
    command.help =
        u"Usage: skillforge trigger optimize SKILL_DIR --queries FILE --model M... --teacher T [--iterations K]\n"
        "                                  [--holdout F] [--max-cost USD] [--runs N] [--catalogue DIR|bundled]\n"
        "                                  [--concurrency C] [--harness builtin|claude-code|codex\n"
        "                                  [--harness-cli CLI] [--timeout S]] [--apply] [--json]\n\n"
        "Measures the description as `skillforge trigger` does, shows the teacher the training queries that\n"
        "failed (held-out ones never), measures its proposal, and repeats: at most K proposals (default 5).\n"
        "A stratified held-out share F of the queries (default 0.4; each class at least one; queries with a\n"
        "\"split\" keep it) decides which description wins. The same catalogue is used in every trial.\n"
        "--harness, --harness-cli and --timeout choose where the trials run, as for `skillforge trigger`.\n\n"
        "  --max-cost USD   a hard budget over students and teacher: no iteration starts that could take the\n"
        "                   spend past it, and no request either (priced models only). The bound of the whole\n"
        "                   run is printed before it starts.\n"
        "  --apply          write the winning description into SKILL.md (default: SKILL.md is left as it was)\n\n"
        "Each proposal is a skill version (origin trigger:N) in the skill's .versions/; accept one by restoring\n"
        "it (the GUI's skill history, or --apply for the winner).\n\n"
        "Exit codes: 0 the loop ended (K proposals, every training query right, or the budget), 1 a model failed,\n"
        "2 bad usage or input.\n"_s;
    command.run = runTriggerOptimize;
    return command;
}

Command triggerCommand()
{
    Command command;
    command.words = {kCommand};
    command.summary = u"measure whether students load a skill when they should, and only then"_s;
    command.help =
        u"Usage: skillforge trigger SKILL_DIR --queries FILE --model M... [--runs N] [--catalogue DIR|bundled]\n"
        "                         [--concurrency C] [--max-cost USD] [--max-tokens N]\n"
        "                         [--harness builtin|claude-code|codex [--harness-cli CLI] [--timeout S]] [--json]\n\n"
        "Asks each student every query --runs times (default 3). With the builtin harness (default) each\n"
        "trial is one chat request: the student sees the candidate among other skills, by name and\n"
        "description as agents list them, and an activate_skill tool whose name is an enum of the listed\n"
        "names. The catalogue is the same in every trial, so the result measures the description and\n"
        "nothing else.\n\n"
        "With --harness claude-code or codex each trial runs the real CLI once, in the sandbox, its only way\n"
        "out the model (through Skillforge): a fresh workspace with every skill of the catalogue installed\n"
        "as a project skill (.claude/skills/, .agents/skills/), the query as its prompt. What is measured is\n"
        "discovery in the real CLI: its own listing of the skills, its own instructions and tools (Claude\n"
        "Code's Skill tool; Codex reads SKILL.md), and whether the model's first action loads the candidate.\n"
        "A trial is one model request: the door refuses the next, so the trial ends once the model has acted.\n"
        "The CLI's built-in skills are listed too; loading one counts as loading none of the catalogue.\n"
        "Claude Code takes anthropic: and local: models; Codex openai:, generic: and local:.\n\n"
        "  --queries FILE   skill-creator's [{query, should_trigger}] (eval_set.json, trigger_evals.json);\n"
        "                   default: the skill's evals/trigger_evals.json or evals/eval_set.json\n"
        "  --catalogue DIR  the other skills listed: each folder of DIR with a SKILL.md, or 'bundled' for the\n"
        "                   bundled decoys; default: the skills beside SKILL_DIR plus the bundled decoys\n"
        "  --max-tokens N   the longest reply of a trial (default 256: a tool call, or the start of an\n"
        "                   answer; the cost bound counts all of it)\n"
        "  --harness-cli CLI  which CLI: the one scripts/setup installed (default, pinned), \"path\" for\n"
        "                   your own on PATH, or a file\n"
        "  --timeout S      wall time of a trial in a CLI, its start included (default 120)\n"
        "  --max-cost USD   a hard budget: no trial starts that could take the spend past it (priced models)\n"
        "  --json           per-query and per-model results as JSON\n\n"
        "Prints recall, false-positive rate and precision with Wilson 95% intervals, and per query the\n"
        "share of trials that loaded the candidate and which skill took it otherwise. A query passes at\n"
        "a share of 0.5 or more (should trigger) or below 0.5 (should not). Failed requests count in no\n"
        "rate and are reported, as are trials whose CLI failed or timed out. The output names the harness\n"
        "and the CLI's version.\n\n"
        "Exit codes: 0 measured, 1 no trial was answered, 2 bad usage or input (a model the CLI cannot use,\n"
        "no sandbox, no CLI).\n"_s;
    command.run = runTrigger;
    return command;
}

} // namespace sf::cli
