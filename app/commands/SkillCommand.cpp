#include "CommandRegistry.h"
#include "VerdictOptions.h"
#include "eval/SkillOverview.h"
#include "project/Project.h"
#include "skill/SkillFolder.h"
#include "skill/SkillPackage.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace sf::cli {

namespace {

// Parses @p arguments; on failure prints why under @p words and returns false.
bool parse(QCommandLineParser &parser, const QStringList &arguments, const QString &words)
{
    if (!parseArguments(parser, words, arguments))
        return false;
    if (parser.positionalArguments().size() != 1) {
        err(QStringLiteral("skillforge %1: needs exactly one SKILL_DIR (see --help)\n").arg(words));
        return false;
    }
    return true;
}

// A shell leaves a quoted "~/..." alone; users still mean their home.
QString expandHome(const QString &path)
{
    return path == u"~" || path.startsWith(QStringLiteral("~/")) ? QDir::homePath() + path.mid(1) : path;
}

int runPack(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("skill-dir"), QString());
    parser.addOption({{QStringLiteral("o"), QStringLiteral("output")}, QString(), QStringLiteral("FILE")});
    if (!parse(parser, arguments, QStringLiteral("skill pack")))
        return BadUsage;
    const QString dir = parser.positionalArguments().constFirst();
    const auto opened = SkillFolder::open(dir);
    if (const LoadError *error = std::get_if<LoadError>(&opened)) {
        err(QStringLiteral("skillforge skill pack: %1\n").arg(error->toString()));
        return BadUsage;
    }
    const QString output =
        parser.isSet(QStringLiteral("output"))
            ? expandHome(parser.value(QStringLiteral("output")))
            : QDir::current().filePath(std::get<SkillFolder>(opened).name() + QStringLiteral(".skill"));
    const PackResult result = packSkill(dir, output);
    for (const SkillProblem &problem : result.problems)
        err(problem.toString(dir) + u'\n');
    if (!result.error.isEmpty()) {
        err(QStringLiteral("skillforge skill pack: %1\n").arg(result.error));
        return CheckFailed;
    }
    out(QStringLiteral("%1 (%2 files)\n").arg(QDir::toNativeSeparators(result.archivePath)).arg(result.entries.size()));
    return Success;
}

int runInstall(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("skill-dir"), QString());
    parser.addOption({QStringLiteral("to"), QString(), QStringLiteral("DIR")});
    parser.addOption(QCommandLineOption(QStringLiteral("force")));
    if (!parse(parser, arguments, QStringLiteral("skill install")))
        return BadUsage;
    if (parser.value(QStringLiteral("to")).isEmpty()) {
        err(QStringLiteral("skillforge skill install: needs --to DIR, e.g. ~/.claude/skills, .claude/skills or "
                           ".agents/skills\n"));
        return BadUsage;
    }
    const QString dir = parser.positionalArguments().constFirst();
    if (const auto opened = SkillFolder::open(dir); std::holds_alternative<LoadError>(opened)) {
        err(QStringLiteral("skillforge skill install: %1\n").arg(std::get<LoadError>(opened).toString()));
        return BadUsage;
    }
    QString installed;
    const QString error = installSkill(dir, expandHome(parser.value(QStringLiteral("to"))),
                                       parser.isSet(QStringLiteral("force")), &installed);
    if (!error.isEmpty()) {
        err(QStringLiteral("skillforge skill install: %1\n").arg(error));
        return CheckFailed;
    }
    out(QDir::toNativeSeparators(installed) + u'\n');
    return Success;
}

QJsonObject overviewJson(const SkillOverview &skill)
{
    QJsonObject object{{QStringLiteral("name"), skill.name},
                       {QStringLiteral("path"), skill.path},
                       {QStringLiteral("description"), skill.description},
                       {QStringLiteral("tokens"), skill.totalTokens}};
    if (!skill.problem.isEmpty())
        object.insert(QStringLiteral("problem"), skill.problem);
    QJsonArray files;
    for (const SkillFile &file : skill.files)
        files.append(QJsonObject{{QStringLiteral("path"), file.relativePath},
                                 {QStringLiteral("bytes"), file.bytes},
                                 {QStringLiteral("tokens"), file.tokens}});
    object.insert(QStringLiteral("files"), files);
    object.insert(QStringLiteral("test_cases"), skill.testCases < 0 ? QJsonValue() : QJsonValue(skill.testCases));
    if (skill.lastEvaluation) {
        const SkillEvaluation &last = *skill.lastEvaluation;
        QJsonArray verdicts;
        for (const Verdict &verdict : last.verdicts)
            verdicts.append(QJsonObject{{QStringLiteral("model"), verdict.model},
                                        {QStringLiteral("verdict"), verdict.code()},
                                        {QStringLiteral("reason"), verdict.reason()}});
        object.insert(QStringLiteral("last_evaluation"),
                      QJsonObject{{QStringLiteral("run"), last.runDir},
                                  {QStringLiteral("started_at"), last.startedAt},
                                  {QStringLiteral("skill_version"), last.skillVersion},
                                  {QStringLiteral("status"), last.status},
                                  {QStringLiteral("verdicts"), verdicts}});
    } else {
        object.insert(QStringLiteral("last_evaluation"), QJsonValue());
    }
    return object;
}

int runList(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addOption(QCommandLineOption(QStringLiteral("json")));
    parser.addOption({QStringLiteral("runs"), QString(), QStringLiteral("DIR")});
    addVerdictOptions(parser);
    if (!parseArguments(parser, QStringLiteral("skill list"), arguments))
        return BadUsage;
    if (parser.positionalArguments().size() > 1) {
        err(QStringLiteral("skillforge skill list: name at most one folder (a project or a folder of skills)\n"));
        return BadUsage;
    }
    const std::optional<VerdictThresholds> thresholds =
        verdictThresholdsFromOptions(parser, QStringLiteral("skill list"));
    if (!thresholds)
        return BadUsage;
    const QString given = expandHome(parser.positionalArguments().value(0, QStringLiteral(".")));
    if (!QFileInfo(given).isDir()) {
        err(QStringLiteral("skillforge skill list: %1: no such folder\n").arg(given));
        return BadUsage;
    }
    // A project lists its skills/ and finds their runs in runs/; any other folder lists the skills in it.
    QString skillsDir = given;
    QString runsDir = parser.value(QStringLiteral("runs"));
    if (QFileInfo::exists(QDir(given).filePath(Project::FileName))) {
        auto project = Project::open(given);
        if (const LoadError *error = std::get_if<LoadError>(&project)) {
            err(QStringLiteral("skillforge skill list: %1\n").arg(error->toString()));
            return BadUsage;
        }
        skillsDir = std::get<Project>(project).skillsPath();
        if (runsDir.isEmpty())
            runsDir = std::get<Project>(project).runsPath();
    }
    const QList<SkillOverview> skills = overviewOfSkills(skillsDir, runsDir, *thresholds);
    if (parser.isSet(QStringLiteral("json"))) {
        QJsonArray list;
        for (const SkillOverview &skill : skills)
            list.append(overviewJson(skill));
        out(QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("folder"), QDir(skillsDir).absolutePath()},
                                                        {QStringLiteral("skills"), list}})
                                  .toJson(QJsonDocument::Indented)));
        return Success;
    }
    if (skills.isEmpty()) {
        out(QStringLiteral("No skills in %1 (a skill is a folder with a SKILL.md)\n")
                .arg(QDir::toNativeSeparators(QDir(skillsDir).absolutePath())));
        return Success;
    }
    QString text = QStringLiteral("%1 skill%2 in %3\n")
                       .arg(skills.size())
                       .arg(skills.size() == 1 ? QString() : QStringLiteral("s"),
                            QDir::toNativeSeparators(QDir(skillsDir).absolutePath()));
    for (const SkillOverview &skill : skills) {
        text += QStringLiteral("\n%1\n").arg(skill.name);
        for (const QString &line : skill.summaryText().split(u'\n'))
            text += QStringLiteral("  ") + line + u'\n';
    }
    out(text);
    return Success;
}

} // namespace

Command skillListCommand()
{
    Command command;
    command.words = {QStringLiteral("skill"), QStringLiteral("list")};
    command.summary = QStringLiteral("every skill in a project or folder: description, tokens, tests, last verdict");
    command.help =
        QStringLiteral(
            "Usage: skillforge skill list [PROJECT|FOLDER] [--runs DIR] [--json] [--verdict-min-lift X]\n"
            "                             [--verdict-min-pairs N]\n\n"
            "Lists every skill in a project (its skills/ folder) or in a folder of skills (default: the current one):\n"
            "its description, an estimate of the tokens each file costs in context, the test cases it carries\n"
            "(evals/evals.json or skill_meta.json) and its last evaluation with the verdict per model. A project's\n"
            "runs are in its runs/ folder; --runs DIR names another.\n") +
        verdictOptionsHelp() + QStringLiteral("\nExit codes: 0 listed, 2 bad usage.\n");
    command.run = runList;
    return command;
}

Command skillPackCommand()
{
    Command command;
    command.words = {QStringLiteral("skill"), QStringLiteral("pack")};
    command.summary = QStringLiteral("zip a skill folder into NAME.skill, as skill-creator packs it");
    command.help = QStringLiteral(
        "Usage: skillforge skill pack SKILL_DIR [-o FILE.skill]\n\n"
        "Validates the skill (agentskills profile) and, when it has no errors, zips it with every file under\n"
        "a top-level NAME/ folder. Left out: __pycache__/, node_modules/, *.pyc, .DS_Store, a root-level\n"
        "evals/ and .versions/. Prints the archive's path.\n\n"
        "  -o, --output FILE   where to write the archive (default: ./NAME.skill)\n\n"
        "Exit codes: 0 packed, 1 the skill is invalid or the archive could not be written, 2 bad usage or\n"
        "not a skill folder.\n");
    command.run = runPack;
    return command;
}

Command skillInstallCommand()
{
    Command command;
    command.words = {QStringLiteral("skill"), QStringLiteral("install")};
    command.summary = QStringLiteral("copy a skill folder into an agent's skills folder");
    command.help = QStringLiteral(
        "Usage: skillforge skill install SKILL_DIR --to DIR [--force]\n\n"
        "Copies the skill to DIR/NAME, leaving out what packing leaves out. Agents look in\n"
        "~/.claude/skills (Claude Code, every project), .claude/skills (this project) and .agents/skills;\n"
        "any folder works. The copy is made beside the target and renamed into place.\n\n"
        "  --to DIR   the skills folder (created when missing)\n"
        "  --force    replace DIR/NAME when it already exists (refused otherwise)\n\n"
        "Exit codes: 0 installed, 1 the target exists (without --force) or the copy failed, 2 bad usage or\n"
        "not a skill folder.\n");
    command.run = runInstall;
    return command;
}

} // namespace sf::cli
