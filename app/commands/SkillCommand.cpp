#include "CommandRegistry.h"
#include "skill/SkillFolder.h"
#include "skill/SkillPackage.h"

#include <QCommandLineParser>
#include <QDir>

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

} // namespace

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
