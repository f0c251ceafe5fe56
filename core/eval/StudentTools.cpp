#include "StudentTools.h"

#include "skill/SkillDocument.h"
#include "skill/SkillFolder.h"
#include "skill/SkillVersionStore.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

namespace sf {

namespace {

constexpr qsizetype kMaxToolOutput = 20000; // characters of a file or command output handed back to the model

QByteArray schema(const char *json)
{
    return QByteArray(json);
}

ToolDefinition tool(const char *name, const char *description, const char *inputSchema)
{
    return {QString::fromLatin1(name), QString::fromLatin1(description), schema(inputSchema)};
}

ToolOutcome error(const QString &message)
{
    return {message, true, false};
}

QString cut(const QString &text)
{
    return text.size() <= kMaxToolOutput
               ? text
               : text.left(kMaxToolOutput) +
                     QStringLiteral("\n[cut: %1 more characters]").arg(text.size() - kMaxToolOutput);
}

} // namespace

std::variant<SkillUnderTest, QString> loadSkillUnderTest(const QString &skillDir)
{
    auto folder = SkillFolder::open(skillDir);
    if (const LoadError *e = std::get_if<LoadError>(&folder))
        return e->toString();
    const SkillFolder &skill = std::get<SkillFolder>(folder);
    QFile file(skill.skillMdPath());
    if (!file.open(QIODevice::ReadOnly))
        return QStringLiteral("%1: %2").arg(file.fileName(), file.errorString());
    const SkillDocument document = SkillDocument::parse(QString::fromUtf8(file.readAll()));
    SkillUnderTest s;
    s.dir = skill.path();
    s.name = document.name().isEmpty() ? skill.name() : document.name();
    s.description = document.description();
    s.body = document.body();
    const SkillVersionStore versions(skill.path());
    s.files = versions.currentFiles();
    s.contentHash = SkillVersionStore::contentHash(s.files);
    for (const SkillVersion &v : versions.versions()) {
        if (v.contentHash == s.contentHash) {
            s.version = v.id;
            break;
        }
    }
    return s;
}

QList<ToolDefinition> studentTools(bool withLoadSkill)
{
    QList<ToolDefinition> tools{
        tool(
            "read_file", "Read a text file of the workspace.",
            R"({"type":"object","properties":{"path":{"type":"string","description":"path relative to the workspace"}},"required":["path"]})"),
        tool(
            "write_file", "Write (create or replace) a text file in the workspace.",
            R"({"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"]})"),
        tool("list_files", "List the files of the workspace.", R"({"type":"object","properties":{}})"),
        tool("run_command",
             "Run a shell command in the workspace (no network; only the workspace is writable). Returns the exit "
             "code and output.",
             R"({"type":"object","properties":{"command":{"type":"string"}},"required":["command"]})")};
    if (withLoadSkill)
        tools.append(tool("load_skill", "Load a skill's instructions (SKILL.md) by name.",
                          R"({"type":"object","properties":{"name":{"type":"string"}},"required":["name"]})"));
    return tools;
}

ToolOutcome runStudentTool(const ToolCall &call, const ToolContext &context)
{
    QJsonParseError parseError;
    const QJsonObject args =
        QJsonDocument::fromJson(call.arguments.isEmpty() ? QByteArray("{}") : call.arguments, &parseError).object();
    if (parseError.error != QJsonParseError::NoError)
        return error(QStringLiteral("the arguments are not a JSON object: %1").arg(parseError.errorString()));
    const QString path = args.value(QStringLiteral("path")).toString();

    if (call.name == QLatin1String("load_skill")) {
        if (!context.skill || args.value(QStringLiteral("name")).toString() != context.skill->name)
            return error(QStringLiteral("no skill named \"%1\"").arg(args.value(QStringLiteral("name")).toString()));
        QString listing;
        for (auto it = context.skill->files.begin(); it != context.skill->files.end(); ++it)
            listing += QStringLiteral("- %1%2\n").arg(context.skill->location(), it.key());
        return {context.skill->body + QStringLiteral("\n\nFiles of this skill (read them with read_file):\n") + listing,
                false, true};
    }
    if (call.name == QLatin1String("read_file")) {
        if (context.skill && path.startsWith(context.skill->location())) {
            const QString relative = path.mid(context.skill->location().size());
            if (!context.skill->files.contains(relative))
                return error(QStringLiteral("\"%1\" does not exist").arg(path));
            return {cut(QString::fromUtf8(context.skill->files.value(relative))), false,
                    relative.compare(QLatin1String("SKILL.md"), Qt::CaseInsensitive) == 0};
        }
        const QString file = pathInWorkspace(context.workspace, path);
        QFile f(file);
        if (file.isEmpty())
            return error(QStringLiteral("\"%1\" is outside the workspace").arg(path));
        if (!f.open(QIODevice::ReadOnly))
            return error(QStringLiteral("\"%1\" does not exist").arg(path));
        return {cut(QString::fromUtf8(f.readAll())), false, false};
    }
    if (call.name == QLatin1String("write_file")) {
        const QString file = pathInWorkspace(context.workspace, path);
        if (file.isEmpty())
            return error(QStringLiteral("\"%1\" is outside the workspace").arg(path));
        QDir().mkpath(QFileInfo(file).absolutePath());
        QFile f(file);
        const QByteArray content = args.value(QStringLiteral("content")).toString().toUtf8();
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(content) != content.size())
            return error(QStringLiteral("cannot write \"%1\": %2").arg(path, f.errorString()));
        return {QStringLiteral("wrote %1 bytes to %2").arg(content.size()).arg(path), false, false};
    }
    if (call.name == QLatin1String("list_files")) {
        QStringList files;
        const QDir root(context.workspace);
        QDirIterator it(context.workspace, QDir::Files | QDir::NoDotAndDotDot, QDirIterator::Subdirectories);
        while (it.hasNext() && files.size() < 1000)
            files.append(root.relativeFilePath(it.next()));
        files.sort();
        return {files.isEmpty() ? QStringLiteral("(the workspace is empty)") : files.join(u'\n'), false, false};
    }
    if (call.name == QLatin1String("run_command")) {
        const QString command = args.value(QStringLiteral("command")).toString();
        if (command.trimmed().isEmpty())
            return error(QStringLiteral("no command given"));
        if (!context.runCommand)
            return error(QStringLiteral("commands cannot run here: no sandbox"));
        const CommandOutcome r = context.runCommand(command, context.workspace, context.commandTimeoutMs);
        if (!r.ran)
            return error(QStringLiteral("the command could not run: %1").arg(r.error));
        QString status = r.timedOut      ? QStringLiteral("timed out")
                         : r.outOfMemory ? QStringLiteral("killed: out of memory")
                                         : QStringLiteral("exit code %1").arg(r.exitCode);
        return {cut(status + u'\n' + r.output), r.timedOut || r.outOfMemory || r.exitCode != 0, false};
    }
    return error(QStringLiteral("unknown tool \"%1\"").arg(call.name));
}

} // namespace sf
