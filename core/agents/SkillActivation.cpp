#include "SkillActivation.h"

#include "Harness.h"
#include "trace/Trace.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <set>

namespace sf {

namespace {

using namespace Qt::StringLiterals;

const QString kSkillFile = u"SKILL.md"_s;

/// Every string in a tool's input, arrays and nested objects included (Codex's shell tools take an argv array).
void collectStrings(const QJsonValue &value, QStringList *out)
{
    if (value.isString()) {
        out->append(value.toString());
    } else if (value.isArray()) {
        for (const QJsonValue &element : value.toArray())
            collectStrings(element, out);
    } else if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            collectStrings(it.value(), out);
    }
}

/// Where a path in a command ends: at white space, a quote or a shell operator.
bool endsPath(QChar c)
{
    return c.isSpace() || u"'\"`;|&<>()$,"_s.contains(c);
}

/// The paths below @p folder (which ends with '/') that @p text names, relative to it; glob patterns and the
/// folder itself are not files.
QStringList pathsBelow(const QString &text, const QString &folder)
{
    QStringList paths;
    for (qsizetype at = text.indexOf(folder); at >= 0; at = text.indexOf(folder, at + 1)) {
        qsizetype end = at + folder.size();
        while (end < text.size() && !endsPath(text.at(end)))
            ++end;
        QString path = text.mid(at + folder.size(), end - at - folder.size());
        while (path.startsWith("./"_L1))
            path.remove(0, 2);
        while (path.endsWith(u'/'))
            path.chop(1);
        if (!path.isEmpty() && !path.contains(u'*') && !path.contains(u'?') && !path.contains(u'['))
            paths << path;
    }
    return paths;
}

/// Claude Code's tools that read files, and the input fields that name what they read.
QStringList claudeReadFields(const QString &tool)
{
    if (tool == "Read"_L1)
        return {u"file_path"_s};
    if (tool == "Glob"_L1 || tool == "Grep"_L1)
        return {u"path"_s, u"pattern"_s};
    if (tool == "Bash"_L1)
        return {u"command"_s};
    return {};
}

/// The skill a Skill tool call names: "skill" in 2.1.x, "command" before; a leading slash and a plugin or directory
/// scope ("plugin:name", "apps/web:name") do not change which skill it is.
bool skillCallNames(const QJsonObject &input, const QString &skillName)
{
    QString named = input.value("skill"_L1).toString(input.value("command"_L1).toString()).trimmed();
    if (named.startsWith(u'/'))
        named.remove(0, 1);
    return named == skillName || named.endsWith(u':' + skillName);
}

/// The 1-based assistant turn of the main thread that a step belongs to: for a subagent's step, the turn that
/// started the subagent.
int mainAssistantTurn(const Trace &trace, int thread, int step, const std::vector<int> &assistantOrdinal)
{
    for (int guard = 0; thread > 0 && guard < int(trace.threads.size()); ++guard) {
        const TraceThread &child = trace.threads[size_t(thread)];
        thread = child.parentThread;
        step = child.parentStep;
        if (thread < 0 || step < 0)
            return 0;
    }
    if (thread != 0 || step < 0 || size_t(step) >= trace.threads[0].steps.size())
        return 0;
    const int turn = trace.threads[0].steps[size_t(step)].turn;
    return turn >= 0 && size_t(turn) < assistantOrdinal.size() ? assistantOrdinal[size_t(turn)] : 0;
}

} // namespace

SkillActivation detectSkillActivation(const Trace &trace, const QString &harness, const QString &skillName)
{
    SkillActivation activation;
    const bool claudeCode = harness == Harness::ClaudeCode;
    if (!Harness::isAgentCli(harness) || skillName.isEmpty() || trace.threads.empty())
        return activation;
    const QString folder = (claudeCode ? u".claude/skills/"_s : u".agents/skills/"_s) + skillName + u'/';

    // Each main-thread turn's number among the assistant turns (model calls), counting from 1.
    std::vector<int> assistantOrdinal;
    int assistantTurns = 0;
    for (const TraceTurn &turn : trace.threads[0].turns)
        assistantOrdinal.push_back(turn.role == "assistant"_L1 ? ++assistantTurns : assistantTurns);

    std::set<QString> files;
    auto load = [&](int turn, const QString &how) { // the earliest load counts; turn 0: not known
        if (activation.loaded && (turn == 0 || (activation.atTurn != 0 && activation.atTurn <= turn)))
            return;
        activation.loaded = true;
        activation.atTurn = turn;
        activation.how = how;
    };
    for (int t = 0; t < int(trace.threads.size()); ++t) {
        const TraceThread &thread = trace.threads[size_t(t)];
        for (int s = 0; s < int(thread.steps.size()); ++s) {
            const TraceStep &step = thread.steps[size_t(s)];
            if (step.kind != StepKind::ToolCall)
                continue;
            if (step.paired >= 0 && thread.steps[size_t(step.paired)].isError)
                continue; // a call that failed read nothing
            const QString tool = step.toolName.toString();
            const QJsonObject input = QJsonDocument::fromJson(step.input.bytes().toByteArray()).object();
            const int turn = mainAssistantTurn(trace, t, s, assistantOrdinal);
            if (claudeCode && tool == "Skill"_L1) {
                if (skillCallNames(input, skillName)) {
                    files.insert(kSkillFile);
                    load(turn, u"Skill tool"_s);
                }
                continue;
            }
            QStringList texts;
            if (claudeCode) {
                for (const QString &field : claudeReadFields(tool))
                    texts << input.value(field).toString();
            } else if (tool != "apply_patch"_L1) { // a patch writes the files it names
                collectStrings(input, &texts);     // exec_command's cmd, shell's argv, ...
            }
            for (const QString &text : std::as_const(texts)) {
                for (const QString &path : pathsBelow(text, folder)) {
                    files.insert(path);
                    if (path == kSkillFile)
                        load(turn, u"read SKILL.md"_s);
                }
            }
        }
    }
    activation.filesRead = QStringList(files.begin(), files.end());
    return activation;
}

} // namespace sf
