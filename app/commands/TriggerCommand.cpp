#include "CommandRegistry.h"
#include "LlmServices.h"
#include "skill/SkillDocument.h"
#include "trigger/SkillCatalogue.h"
#include "trigger/TriggerMeasure.h"
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
        // The skills beside it (a project's skills/) and the bundled set: the candidate competes with both.
        auto siblings =
            SkillCatalogue::readFolder(QFileInfo(inputs->skillDir).absolutePath(), inputs->skillDir, &warnings);
        if (const auto *list = std::get_if<QList<CatalogueEntry>>(&siblings))
            others = *list;
        const qsizetype besideIt = others.size();
        others += SkillCatalogue::bundledDecoys();
        inputs->catalogueSource =
            u"%1 skills beside it and %2 bundled decoys"_s.arg(besideIt).arg(others.size() - besideIt);
    }
    inputs->catalogue = SkillCatalogue({name, inputs->skill.description().trimmed()}, others);
    for (const QString &w : warnings + inputs->catalogue.warnings())
        err(u"note: %1\n"_s.arg(w));
    return true;
}

/// Reads --model, --runs, --concurrency, --max-cost; prints why and returns false on bad input.
bool readConfig(const QCommandLineParser &parser, const QString &command, LlmServices &services, TriggerConfig *config)
{
    config->models = parser.values(u"model"_s);
    if (config->models.isEmpty()) {
        err(u"skillforge %1: needs at least one --model M (see --help)\n"_s.arg(command));
        return false;
    }
    bool ok = true;
    config->runs = int(numberOption(parser, command, u"runs"_s, &ok, 1, 1000).value_or(3));
    config->concurrency = int(numberOption(parser, command, u"concurrency"_s, &ok, 1, 256).value_or(4));
    config->maxCostUsd = numberOption(parser, command, u"max-cost"_s, &ok, 0, 1e6);
    if (!ok)
        return false;
    services.loadKeys(3000);
    for (const QString &model : std::as_const(config->models)) {
        if (const QString why = services.chat().whyUnavailable(model); !why.isEmpty()) {
            err(u"skillforge %1: %2\n"_s.arg(command, why));
            return false;
        }
    }
    return true;
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
            text += u"; %1 failed requests (counted in no rate)"_s.arg(r.errors);
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

int runTrigger(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(u"skill-dir"_s, QString());
    parser.addOption({u"queries"_s, QString(), u"FILE"_s});
    parser.addOption({u"model"_s, QString(), u"M"_s});
    parser.addOption({u"runs"_s, QString(), u"N"_s});
    parser.addOption({u"catalogue"_s, QString(), u"DIR"_s});
    parser.addOption({u"concurrency"_s, QString(), u"C"_s});
    parser.addOption({u"max-cost"_s, QString(), u"USD"_s});
    parser.addOption(QCommandLineOption(u"json"_s));
    if (!parseArguments(parser, kCommand, arguments))
        return BadUsage;
    TriggerInputs inputs;
    if (!readInputs(parser, kCommand, &inputs))
        return BadUsage;
    LlmServices services;
    TriggerConfig config;
    if (!readConfig(parser, kCommand, services, &config))
        return BadUsage;

    const TriggerEstimate estimate = estimateTrigger(inputs.catalogue, inputs.queries, config);
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
        err(u"stopped: the next trial could have taken the spend past --max-cost ($%1 spent)\n"_s.arg(runner.spentUsd(),
                                                                                                      0, 'f', 4));

    const TriggerMeasurement m =
        measureTrigger(inputs.queries, inputs.catalogue.candidate().name, config.models, runner.trials());
    if (parser.isSet(u"json"_s)) {
        QJsonObject object = triggerMeasurementJson(m, inputs.queries);
        object.insert(u"skill"_s, inputs.catalogue.candidate().name);
        object.insert(u"description"_s, inputs.catalogue.candidate().description);
        object.insert(u"catalogue"_s, QJsonArray::fromStringList(inputs.catalogue.names()));
        object.insert(u"runs"_s, config.runs);
        object.insert(u"stop_reason"_s, runner.stopReason());
        object.insert(u"spent_usd"_s, runner.spentUsd());
        out(QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented)));
    } else {
        out(measurementText(m, inputs.queries));
    }
    bool anyAnswered = false;
    for (const ModelTriggerRates &r : m.models)
        anyAnswered = anyAnswered || r.queries > 0;
    return anyAnswered ? Success : CheckFailed;
}

} // namespace

Command triggerCommand()
{
    Command command;
    command.words = {kCommand};
    command.summary = u"measure whether students load a skill when they should, and only then"_s;
    command.help =
        u"Usage: skillforge trigger SKILL_DIR --queries FILE --model M... [--runs N] [--catalogue DIR|bundled]\n"
        "                         [--concurrency C] [--max-cost USD] [--json]\n\n"
        "Asks each student every query --runs times (default 3). Each trial is one chat request: the\n"
        "student sees the candidate among other skills, by name and description as agents list them, and\n"
        "an activate_skill tool whose name is an enum of the listed names. The catalogue is the same in\n"
        "every trial, so the result measures the description and nothing else.\n\n"
        "  --queries FILE   skill-creator's [{query, should_trigger}] (eval_set.json, trigger_evals.json);\n"
        "                   default: the skill's evals/trigger_evals.json or evals/eval_set.json\n"
        "  --catalogue DIR  the other skills listed: each folder of DIR with a SKILL.md, or 'bundled' for the\n"
        "                   bundled decoys; default: the skills beside SKILL_DIR plus the bundled decoys\n"
        "  --max-cost USD   a hard budget: no trial starts that could take the spend past it (priced models)\n"
        "  --json           per-query and per-model results as JSON\n\n"
        "Prints recall, false-positive rate and precision with Wilson 95% intervals, and per query the\n"
        "share of trials that loaded the candidate and which skill took it otherwise. A query passes at\n"
        "a share of 0.5 or more (should trigger) or below 0.5 (should not). Failed requests count in no\n"
        "rate and are reported.\n\n"
        "Exit codes: 0 measured, 1 no trial was answered, 2 bad usage or input.\n"_s;
    command.run = runTrigger;
    return command;
}

} // namespace sf::cli
