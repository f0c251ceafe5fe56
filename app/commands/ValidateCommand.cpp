#include "CommandRegistry.h"
#include "common/Plural.h"
#include "skill/SkillFolder.h"
#include "skill/SkillValidator.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace sf::cli {

namespace {

QJsonObject toJson(const QString &dir, ValidationProfile profile, const QList<SkillProblem> &problems,
                   const SkillFolder &folder)
{
    QJsonArray list;
    int errors = 0;
    for (const SkillProblem &problem : problems) {
        errors += problem.isError() ? 1 : 0;
        list.append(QJsonObject{
            {QStringLiteral("file"), problem.file},
            {QStringLiteral("line"), problem.line},
            {QStringLiteral("column"), problem.column},
            {QStringLiteral("severity"), problem.isError() ? QStringLiteral("error") : QStringLiteral("warning")},
            {QStringLiteral("code"), problem.code},
            {QStringLiteral("message"), problem.message},
            {QStringLiteral("text"), problem.toString(dir)}});
    }
    QJsonArray files;
    int totalTokens = 0;
    for (const SkillFile &file : folder.files()) {
        totalTokens += file.tokens;
        files.append(QJsonObject{{QStringLiteral("path"), file.relativePath},
                                 {QStringLiteral("bytes"), file.bytes},
                                 {QStringLiteral("tokens"), file.tokens},
                                 {QStringLiteral("text"), file.isText}});
    }
    return QJsonObject{{QStringLiteral("skill"), dir},
                       {QStringLiteral("profile"), profileName(profile)},
                       {QStringLiteral("valid"), errors == 0},
                       {QStringLiteral("errors"), errors},
                       {QStringLiteral("warnings"), int(problems.size()) - errors},
                       {QStringLiteral("problems"), list},
                       {QStringLiteral("files"), files},
                       {QStringLiteral("total_tokens"), totalTokens}};
}

int runValidate(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("skill-dir"), QString());
    parser.addOption({QStringLiteral("profile"), QString(), QStringLiteral("P"), QStringLiteral("agentskills")});
    parser.addOption(QCommandLineOption(QStringLiteral("json")));
    if (!parseArguments(parser, QStringLiteral("validate"), arguments))
        return BadUsage;
    if (parser.positionalArguments().size() != 1) {
        err(QStringLiteral("skillforge validate: needs exactly one SKILL_DIR (see --help)\n"));
        return BadUsage;
    }
    const auto profile = profileFromName(parser.value(QStringLiteral("profile")));
    if (!profile) {
        QStringList names;
        for (ValidationProfile known : allProfiles())
            names.append(profileName(known));
        err(QStringLiteral("skillforge validate: unknown profile '%1' (known: %2)\n")
                .arg(parser.value(QStringLiteral("profile")), names.join(QStringLiteral(", "))));
        return BadUsage;
    }
    const QString dir = parser.positionalArguments().constFirst();
    const auto opened = SkillFolder::open(dir);
    if (const LoadError *error = std::get_if<LoadError>(&opened)) {
        err(QStringLiteral("skillforge validate: %1\n").arg(error->toString()));
        return BadUsage;
    }

    const QList<SkillProblem> problems = validateSkill(dir, *profile);
    const bool valid = !hasErrors(problems);
    if (parser.isSet(QStringLiteral("json"))) {
        const QJsonObject report = toJson(dir, *profile, problems, std::get<SkillFolder>(opened));
        out(QString::fromUtf8(QJsonDocument(report).toJson(QJsonDocument::Indented)));
    } else {
        for (const SkillProblem &problem : problems)
            out(problem.toString(dir) + u'\n');
        const auto errors =
            std::count_if(problems.begin(), problems.end(), [](const SkillProblem &p) { return p.isError(); });
        err(QStringLiteral("%1: %2 (%3, %4, profile %5)\n")
                .arg(dir, valid ? QStringLiteral("valid") : QStringLiteral("invalid"))
                .arg(plural(errors, QStringLiteral("1 error"), QStringLiteral("%n errors")),
                     plural(problems.size() - errors, QStringLiteral("1 warning"), QStringLiteral("%n warnings")),
                     profileName(*profile)));
    }
    return valid ? Success : CheckFailed;
}

} // namespace

Command validateCommand()
{
    Command command;
    command.words = {QStringLiteral("validate")};
    command.summary = QStringLiteral("check a skill folder against a validation profile");
    command.help = QStringLiteral(
        "Usage: skillforge validate SKILL_DIR [--profile agentskills|claude-code|claude-ai|upskill] [--json]\n\n"
        "Checks SKILL.md's front matter and body and the files it links, and prints each problem as\n"
        "FILE:LINE:COL: error|warning: text. Profiles:\n"
        "  agentskills  the open specification (default): name, description, license, allowed-tools,\n"
        "               metadata and compatibility only; name equals the folder\n"
        "  claude-code  also Claude Code's keys (when_to_use, hooks, model, ...); unknown keys warn\n"
        "  claude-ai    agentskills plus claude.ai's upload rules: no XML tags, no 'anthropic' or 'claude'\n"
        "               in the name, a third-person description\n"
        "  upskill      what huggingface/upskill reads\n"
        "Every profile also checks: body over 500 lines or about 5,000 tokens, links to missing files,\n"
        "references more than one level deep, an empty body, a description that never says when to use it.\n\n"
        "  --json   print the problems, each file's token estimate and the total as JSON\n\n"
        "Exit codes: 0 valid (warnings allowed), 1 invalid, 2 not a skill folder or bad usage.\n");
    command.run = runValidate;
    return command;
}

} // namespace sf::cli
