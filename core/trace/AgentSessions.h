#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

namespace sf {

/// One session file an agent left on this machine, as the session browser lists it.
struct AgentSessionFile
{
    QString path;
    QString agent;   ///< "Claude Code" or "Codex"
    QString title;   ///< the session's title record, else its first prompt
    QString project; ///< the working directory the agent ran in
    QDateTime modified;
    qint64 bytes = 0;
};

/// Where agents keep their sessions: ~/.claude/projects and $CODEX_HOME/sessions (default ~/.codex).
QString claudeProjectsDir();
QString codexSessionsDir();

/**
 * Lists the sessions under Claude Code's and Codex's folders, newest first. Only the head of each file
 * is read (for title and project), so listing thousands of sessions stays quick.
 */
QList<AgentSessionFile> listAgentSessions(const QString &claudeProjects, const QString &codexSessions);

} // namespace sf
