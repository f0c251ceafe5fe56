#pragma once

#include <QString>
#include <QStringList>

namespace sf {

/// Who drives the student model: Skillforge's own loop, or a real agent CLI run once per item.
namespace Harness {
inline const QString Builtin = QStringLiteral("builtin");
inline const QString ClaudeCode = QStringLiteral("claude-code");
inline const QString Codex = QStringLiteral("codex");

inline QStringList all()
{
    return {Builtin, ClaudeCode, Codex};
}
inline bool isAgentCli(const QString &harness)
{
    return harness == ClaudeCode || harness == Codex;
}
/// As people read it: "Skillforge's loop", "Claude Code", "Codex".
inline QString label(const QString &harness)
{
    if (harness == ClaudeCode)
        return QStringLiteral("Claude Code");
    if (harness == Codex)
        return QStringLiteral("Codex");
    return QStringLiteral("Skillforge's loop");
}
} // namespace Harness

} // namespace sf
