#pragma once

#include "Verifiers.h"
#include "llm/ChatTypes.h"

#include <QMap>
#include <QString>

namespace sf {

/// The skill under test as the student sees it.
struct SkillUnderTest
{
    QString name;
    QString description;
    QString body;                    ///< SKILL.md without its front matter
    QMap<QString, QByteArray> files; ///< every file of the skill folder, SKILL.md included
    QString dir;
    QString contentHash;
    QString version;

    /// Where the agentic listing says the skill lives; read_file under this prefix reads the skill's files.
    QString location() const { return QStringLiteral("skills/%1/").arg(name); }
};

/// Reads a skill folder (SKILL.md front matter, body and files) with its content hash and stored version.
std::variant<SkillUnderTest, QString> loadSkillUnderTest(const QString &skillDir);

/// What a tool needs: the workspace, the sandbox for run_command, and the skill (agentic with_skill only).
struct ToolContext
{
    QString workspace;
    CommandRunner runCommand;
    const SkillUnderTest *skill = nullptr;
    int commandTimeoutMs = 60000;
};

/// The answer to one tool call.
struct ToolOutcome
{
    QString content;
    bool isError = false;
    bool loadedSkill = false; ///< the call read the skill's SKILL.md (load_skill or read_file on it)
};

/// read_file, write_file, list_files, run_command; plus load_skill when @p withLoadSkill.
QList<ToolDefinition> studentTools(bool withLoadSkill);
/// Runs one tool call; blocking (run_command waits for the sandbox), so called on a worker thread.
ToolOutcome runStudentTool(const ToolCall &call, const ToolContext &context);

} // namespace sf
