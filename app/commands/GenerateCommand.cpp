#include "CommandRegistry.h"
#include "LlmServices.h"
#include "TeachChain.h"
#include "generate/SkillGenerator.h"
#include "generate/TraceCondenser.h"
#include "project/Project.h"
#include "trace/TraceImport.h"
#include "trace/TraceSelection.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <optional>

namespace sf::cli {

namespace {

// The project folder: the nearest folder at or above @p start that holds skillforge.json.
QString projectRootFrom(const QString &start)
{
    for (QDir dir(start);;) {
        if (dir.exists(Project::FileName)) {
            return dir.absolutePath();
        }
        if (!dir.cdUp()) {
            return {};
        }
    }
}

QString projectSkillsFolder()
{
    const QString root = projectRootFrom(QDir::currentPath());
    return root.isEmpty() ? QString() : QDir(root).filePath(QStringLiteral("skills"));
}

// The trace at @p path condensed for the teacher, the user's selected steps first when the project keeps
// a selection for it; an error message in *error otherwise.
std::optional<TraceExcerpt> traceExcerpt(const QString &path, int budgetTokens, QString *error)
{
    const Result<Trace> trace = importTrace(path);
    if (!trace) {
        *error = trace.error;
        return std::nullopt;
    }
    std::optional<TraceSelection> selection;
    const QString root = projectRootFrom(QFileInfo(path).absolutePath());
    if (!root.isEmpty()) {
        const QString selectionFile = TraceSelection::selectionPathFor(root, QFileInfo(path).absoluteFilePath());
        if (QFileInfo::exists(selectionFile)) {
            if (Result<TraceSelection> loaded = TraceSelection::load(selectionFile)) {
                selection = *loaded.value;
            }
        }
    }
    return TraceExcerpt{QFileInfo(path).fileName(),
                        condenseTrace(*trace.value, budgetTokens, selection ? &*selection : nullptr)};
}

QJsonObject toJson(const SkillGenerationResult &result)
{
    QJsonArray problems;
    for (const SkillProblem &problem : result.problems) {
        problems.append(problem.toString(result.skillDir));
    }
    return QJsonObject{
        {QStringLiteral("skill_dir"), result.skillDir},
        {QStringLiteral("name"), result.name},
        {QStringLiteral("version"), result.versionId},
        {QStringLiteral("valid"), !hasErrors(result.problems)},
        {QStringLiteral("problems"), problems},
        {QStringLiteral("repaired"), result.repaired},
        {QStringLiteral("reply_format"),
         result.replyFormat == ReplyFormat::Json ? QStringLiteral("json") : QStringLiteral("files")},
        {QStringLiteral("teacher_calls"), result.teacherCalls},
        {QStringLiteral("input_tokens"), result.usage.totalInput()},
        {QStringLiteral("output_tokens"), result.usage.output},
        {QStringLiteral("cost_usd"), result.cost.total() ? QJsonValue(*result.cost.total()) : QJsonValue()},
        {QStringLiteral("latency_ms"), result.latencyMs}};
}

int runGenerate(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("task"), QString(), QStringLiteral("TEXT")});
    parser.addOption({QStringLiteral("from"), QString(), QStringLiteral("TRACE|SKILL_DIR")});
    parser.addOption({QStringLiteral("budget-tokens"), QString(), QStringLiteral("N"), QStringLiteral("12000")});
    parser.addOption({QStringLiteral("teacher"), QString(), QStringLiteral("M")});
    parser.addOption({QStringLiteral("out"), QString(), QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("profile"), QString(), QStringLiteral("P"), QStringLiteral("agentskills")});
    parser.addOption({QStringLiteral("instructions"), QString(), QStringLiteral("TEXT")});
    parser.addOption({QStringLiteral("max-tokens"), QString(), QStringLiteral("N"), QStringLiteral("16000")});
    parser.addOption({QStringLiteral("reply-format"), QString(), QStringLiteral("F"), QStringLiteral("auto")});
    parser.addOption(QCommandLineOption(QStringLiteral("json")));
    parser.addOption(QCommandLineOption(QStringLiteral("eval")));
    parser.addOption(QCommandLineOption(QStringLiteral("refine")));
    parser.addOption({QStringLiteral("student"), QString(), QStringLiteral("M")});
    parser.addOption({QStringLiteral("runs"), QString(), QStringLiteral("N")});
    if (!parseArguments(parser, QStringLiteral("generate"), arguments)) {
        return BadUsage;
    }
    auto usage = [](const QString &why) {
        err(QStringLiteral("skillforge generate: %1 (see --help)\n").arg(why));
        return BadUsage;
    };
    if (!parser.positionalArguments().isEmpty()) {
        return usage(QStringLiteral("unexpected argument \"%1\"; the task goes after --task")
                         .arg(parser.positionalArguments().first()));
    }

    SkillGenerationRequest request;
    request.task = parser.value(QStringLiteral("task"));
    request.teacherModel = parser.value(QStringLiteral("teacher"));
    request.instructions = parser.value(QStringLiteral("instructions"));
    if (request.teacherModel.isEmpty()) {
        return usage(QStringLiteral("needs --teacher PROVIDER:MODEL"));
    }
    TeachChain chain;
    chain.evaluate = parser.isSet(QStringLiteral("eval")) || parser.isSet(QStringLiteral("refine"));
    chain.refine = parser.isSet(QStringLiteral("refine"));
    chain.teacher = request.teacherModel;
    chain.students = parser.values(QStringLiteral("student"));
    if (chain.evaluate && chain.students.isEmpty())
        return usage(QStringLiteral("--eval and --refine need at least one --student PROVIDER:MODEL"));
    if (chain.evaluate && parser.isSet(QStringLiteral("json")))
        return usage(QStringLiteral("--json prints the generated skill alone; leave it out with --eval or --refine"));
    if (parser.isSet(QStringLiteral("runs"))) {
        bool runsOk = false;
        chain.runs = parser.value(QStringLiteral("runs")).toInt(&runsOk);
        if (!runsOk || chain.runs < 1)
            return usage(QStringLiteral("--runs must be a whole number of at least 1"));
    }
    const auto profile = profileFromName(parser.value(QStringLiteral("profile")));
    if (!profile) {
        return usage(QStringLiteral("unknown profile \"%1\"").arg(parser.value(QStringLiteral("profile"))));
    }
    request.profile = *profile;
    const auto replyFormat = replyFormatFromName(parser.value(QStringLiteral("reply-format")));
    if (!replyFormat) {
        return usage(QStringLiteral("--reply-format must be auto, files or json"));
    }
    request.replyFormat = *replyFormat;
    bool ok = false;
    request.maxTokens = parser.value(QStringLiteral("max-tokens")).toInt(&ok);
    if (!ok || request.maxTokens <= 0) {
        return usage(QStringLiteral("--max-tokens must be a positive number"));
    }
    const int budgetTokens = parser.value(QStringLiteral("budget-tokens")).toInt(&ok);
    if (!ok || budgetTokens < 500) {
        return usage(QStringLiteral("--budget-tokens must be a number of at least 500"));
    }
    const QStringList sources = parser.values(QStringLiteral("from"));
    QStringList traces;
    for (const QString &source : sources) {
        if (QFileInfo(source).isDir()) {
            if (!QFileInfo(QDir(source).filePath(QStringLiteral("SKILL.md"))).isFile()) {
                return usage(
                    QStringLiteral("--from %1 is a folder but not a skill folder (it has no SKILL.md)").arg(source));
            }
            if (!request.existingSkillDir.isEmpty()) {
                return usage(QStringLiteral("only one skill folder can be improved at a time"));
            }
            request.existingSkillDir = QFileInfo(source).absoluteFilePath();
        } else if (QFileInfo::exists(source)) {
            traces << source;
        } else {
            return usage(QStringLiteral("--from %1: no such trace file or skill folder").arg(source));
        }
    }
    // The budget is shared by the traces, each condensed to its part of it.
    for (const QString &path : std::as_const(traces)) {
        QString error;
        const auto excerpt = traceExcerpt(path, budgetTokens / int(traces.size()), &error);
        if (!excerpt) {
            err(QStringLiteral("skillforge generate: %1: %2\n").arg(path, error));
            return BadUsage;
        }
        request.traces.append(*excerpt);
    }
    if (request.task.trimmed().isEmpty() && request.existingSkillDir.isEmpty()) {
        return usage(QStringLiteral("needs --task TEXT, or --from SKILL_DIR to improve a skill"));
    }
    request.skillsFolder =
        parser.isSet(QStringLiteral("out")) ? parser.value(QStringLiteral("out")) : projectSkillsFolder();
    if (request.existingSkillDir.isEmpty()) {
        if (request.skillsFolder.isEmpty()) {
            return usage(
                QStringLiteral("no project here (no skillforge.json in this folder or above it): pass --out DIR"));
        }
        if (!QDir().mkpath(request.skillsFolder)) {
            err(QStringLiteral("skillforge generate: cannot create %1\n").arg(request.skillsFolder));
            return BadUsage;
        }
    }

    LlmServices services;
    SkillGenerator generator(services.chat());
    int exitCode = CheckFailed;
    std::optional<QString> written; // the skill's folder, for the steps after it
    QObject::connect(&generator, &SkillGenerator::stage, qApp,
                     [](const QString &what) { err(what + QStringLiteral("...\n")); });
    QObject::connect(&generator, &SkillGenerator::finished, qApp, [&](const SkillGenerationResult &result) {
        for (const QString &note : result.draftNotes) {
            err(QStringLiteral("note: %1\n").arg(note));
        }
        for (const SkillProblem &problem : result.problems) {
            err(problem.toString(result.skillDir) + u'\n');
        }
        if (parser.isSet(QStringLiteral("json"))) {
            out(QString::fromUtf8(QJsonDocument(toJson(result)).toJson(QJsonDocument::Indented)));
        } else {
            out(QStringLiteral("Wrote %1 (version %2)\n")
                    .arg(QDir::toNativeSeparators(result.skillDir), result.versionId));
        }
        err(QStringLiteral("[%1] %2 call(s), %3 input + %4 output tokens, %5, %6 ms\n")
                .arg(request.teacherModel)
                .arg(result.teacherCalls)
                .arg(result.usage.totalInput())
                .arg(result.usage.output)
                .arg(result.cost.text())
                .arg(result.latencyMs));
        exitCode = hasErrors(result.problems) ? CheckFailed : Success;
        written = result.skillDir;
        QCoreApplication::quit();
    });
    QObject::connect(&generator, &SkillGenerator::failed, qApp, [&](const QString &message) {
        err(QStringLiteral("skillforge generate: %1\n").arg(message));
        QCoreApplication::quit();
    });
    if (chain.evaluate)
        err(QStringLiteral("== Step 1 of %1: the skill (skillforge generate) ==\n").arg(chain.refine ? 3 : 2));
    generator.start(request);
    QCoreApplication::exec();
    if (!chain.evaluate)
        return exitCode;
    if (exitCode != Success || !written) {
        err(QStringLiteral("skillforge generate: stopped after step 1: the skill %1, so it is not evaluated\n")
                .arg(written ? QStringLiteral("still has errors (listed above)") : QStringLiteral("was not written")));
        return exitCode;
    }
    // The runs go where the project keeps them, beside its skills.
    if (const QString project = projectRootFrom(QDir(*written).absolutePath()); !project.isEmpty())
        chain.runsDir = QDir(project).filePath(QStringLiteral("runs"));
    return runTeachChain(*written, chain);
}

} // namespace

Command generateCommand()
{
    Command command;
    command.words = {QStringLiteral("generate")};
    command.summary = QStringLiteral("have a teacher model write or improve a skill");
    command.help = QStringLiteral(
        "Usage: skillforge generate --task TEXT --teacher PROVIDER:MODEL [--out DIR] [--profile P]\n"
        "                           [--instructions TEXT] [--max-tokens N] [--reply-format F] [--json]\n"
        "                           [--eval|--refine --student M... [--runs N]]\n"
        "       skillforge generate --from SKILL_DIR --teacher PROVIDER:MODEL [--task TEXT] [--instructions TEXT]\n"
        "       (--from TRACE may be given several times, with --budget-tokens N for all of them together)\n\n"
        "Asks the teacher to write a skill (SKILL.md, and references/ or scripts/ where useful) for TASK,\n"
        "checks it against the profile, and asks once more with the problems listed if it has errors.\n"
        "A new skill is written to DIR/<name>/ (default: the skills/ folder of the project in this\n"
        "folder or above it). With --from, the skill in SKILL_DIR is improved in place; its current\n"
        "content is kept as a version first. The prompt sent is stored with the version produced\n"
        "(.versions/<id>/prompt.json); the templates are built in (resources/prompts in the sources).\n\n"
        "  --from TRACE       an agent session in any format Skillforge imports; it is condensed to the\n"
        "                     budget (default 12000 tokens): the steps selected in the trace view first,\n"
        "                     then prompts, reasoning, commands, errors and their fixes, long outputs\n"
        "                     shortened in the middle\n"
        "  --profile P        agentskills (default), claude-code, claude-ai or upskill\n"
        "  --instructions T   your own directions to the teacher; they take precedence\n"
        "  --max-tokens N     the longest reply the teacher may write (default 16000)\n"
        "  --reply-format F   files: the teacher writes the files as text; json: its reply is held to a\n"
        "                     JSON Schema, which lets small models that cannot follow a written format\n"
        "                     still write a valid skill; auto (default): json for the local and ollama\n"
        "                     providers, files for the others\n"
        "  --json             print the result as JSON\n"
        "  --eval             then, as upskill's generate does, evaluate it: the teacher writes its tests into\n"
        "                     the skill's evals/ when it has none, and each --student M runs them with and\n"
        "                     without the skill (skillforge eval; --runs N repeats); the runs go to the\n"
        "                     project's runs/ folder (else ./runs)\n"
        "  --refine           then also refine it with the teacher against those students (skillforge refine)\n"
        "                     Each step prints under its own heading; the chain stops at the first that fails\n"
        "                     and says what was kept.\n\n"
        "Exit codes: 0 a valid skill was written (and, with --eval or --refine, every step ran), 1 the teacher\n"
        "failed or the skill still has errors (it is written anyway, with the errors listed), 2 bad usage, 3 the\n"
        "evaluation did not finish (its last line says how to resume it).\n");
    command.run = runGenerate;
    return command;
}

} // namespace sf::cli
