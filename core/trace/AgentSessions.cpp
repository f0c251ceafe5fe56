#include "trace/AgentSessions.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace sf {

using namespace Qt::StringLiterals;

namespace {

constexpr qint64 HeadBytes = 256 * 1024;

QString promptText(const QJsonValue &content)
{
    if (content.isString())
        return content.toString();
    for (const QJsonValue &part : content.toArray()) {
        const QJsonObject block = part.toObject();
        const QString type = block.value("type"_L1).toString();
        if (type == "text"_L1 || type == "input_text"_L1)
            return block.value("text"_L1).toString();
    }
    return QString();
}

/// Title and project from the first records of a session file.
void readHead(AgentSessionFile *session, bool codex)
{
    QFile file(session->path);
    if (!file.open(QIODevice::ReadOnly))
        return;
    const QList<QByteArray> lines = file.read(HeadBytes).split('\n');
    QString firstPrompt;
    for (const QByteArray &line : lines) {
        const QJsonObject record = QJsonDocument::fromJson(line).object();
        if (record.isEmpty())
            continue;
        const QString type = record.value("type"_L1).toString();
        if (codex) {
            const QJsonObject payload = record.value("payload"_L1).toObject();
            if (type == "session_meta"_L1)
                session->project = payload.value("cwd"_L1).toString();
            else if (firstPrompt.isEmpty() && type == "response_item"_L1 &&
                     payload.value("role"_L1).toString() == "user"_L1) {
                const QString text = promptText(payload.value("content"_L1));
                if (!text.startsWith(u'<')) // environment context and instructions come as tagged text
                    firstPrompt = text;
            }
            continue;
        }
        if (session->project.isEmpty())
            session->project = record.value("cwd"_L1).toString();
        if (type == "ai-title"_L1 || type == "custom-title"_L1 || type == "summary"_L1) {
            const QString title = record
                                      .value(type == "ai-title"_L1  ? "aiTitle"_L1
                                             : type == "summary"_L1 ? "summary"_L1
                                                                    : "customTitle"_L1)
                                      .toString();
            if (!title.isEmpty())
                session->title = title;
        } else if (firstPrompt.isEmpty() && type == "user"_L1 && !record.value("isMeta"_L1).toBool()) {
            const QString text = promptText(record.value("message"_L1).toObject().value("content"_L1));
            if (!text.startsWith(u'<'))
                firstPrompt = text;
        }
    }
    if (session->title.isEmpty())
        session->title = firstPrompt.simplified().left(120);
}

} // namespace

QString claudeProjectsDir()
{
    return QDir::home().filePath(u".claude/projects"_s);
}

QString codexSessionsDir()
{
    const QString home = qEnvironmentVariable("CODEX_HOME");
    return QDir(home.isEmpty() ? QDir::home().filePath(u".codex"_s) : home).filePath(u"sessions"_s);
}

QList<AgentSessionFile> listAgentSessions(const QString &claudeProjects, const QString &codexSessions)
{
    QList<AgentSessionFile> sessions;
    // Claude Code: <projects>/<encoded cwd>/<session>.jsonl; subagent files live one level deeper.
    const QDir claude(claudeProjects);
    for (const QFileInfo &project : claude.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        for (const QFileInfo &info : QDir(project.filePath()).entryInfoList({u"*.jsonl"_s}, QDir::Files)) {
            AgentSessionFile session{info.filePath(), u"Claude Code"_s, {}, {}, info.lastModified(), info.size()};
            readHead(&session, false);
            if (session.project.isEmpty())
                session.project = project.fileName();
            sessions.append(session);
        }
    }
    QDirIterator it(codexSessions, {u"rollout-*.jsonl"_s}, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QFileInfo info(it.next());
        AgentSessionFile session{info.filePath(), u"Codex"_s, {}, {}, info.lastModified(), info.size()};
        readHead(&session, true);
        sessions.append(session);
    }
    std::sort(sessions.begin(), sessions.end(),
              [](const AgentSessionFile &a, const AgentSessionFile &b) { return a.modified > b.modified; });
    return sessions;
}

} // namespace sf
