#include "CliSession.h"

#include "llm/AnthropicMessagesFormat.h"

#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace sf {

namespace {

using namespace Qt::StringLiterals;

QJsonObject jsonObject(const QByteArray &line)
{
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(line, &error);
    return error.error == QJsonParseError::NoError ? doc.object() : QJsonObject();
}

/// The start of what a CLI printed, for an error message that shows it.
QString opening(const QByteArray &text)
{
    const QString start = QString::fromUtf8(text.trimmed().left(200)).simplified();
    return start.isEmpty() ? u"nothing"_s : u"\"%1\""_s.arg(start);
}

/// Codex's usage: input_tokens includes the cached ones, output_tokens the reasoning ones (as its rollout counts).
TokenUsage codexUsage(const QJsonObject &usage)
{
    TokenUsage result;
    const qint64 input = usage.value("input_tokens"_L1).toInteger();
    result.cacheRead = std::min(input, usage.value("cached_input_tokens"_L1).toInteger());
    result.uncachedInput = input - result.cacheRead;
    result.output = usage.value("output_tokens"_L1).toInteger();
    result.reasoning = usage.value("reasoning_output_tokens"_L1).toInteger();
    return result;
}

/// The newest of @p files by modification time; the later name when two were written in the same instant.
QString newest(const QFileInfoList &files)
{
    const QFileInfo *best = nullptr;
    for (const QFileInfo &file : files) {
        if (!best || file.lastModified() > best->lastModified() ||
            (file.lastModified() == best->lastModified() && file.fileName() > best->fileName()))
            best = &file;
    }
    return best ? best->absoluteFilePath() : QString();
}

} // namespace

Result<CliRunOutput> parseClaudeCodeResult(const QByteArray &stdoutJson)
{
    // One object; anything the CLI printed before it (a warning on stdout) is passed over.
    QJsonObject result = jsonObject(stdoutJson);
    if (result.value("type"_L1).toString() != "result"_L1) {
        result = {};
        const QList<QByteArray> lines = stdoutJson.split('\n');
        for (auto line = lines.crbegin(); line != lines.crend() && result.isEmpty(); ++line) {
            const QJsonObject object = jsonObject(*line);
            if (object.value("type"_L1).toString() == "result"_L1)
                result = object;
        }
    }
    if (result.isEmpty())
        return Result<CliRunOutput>::failure(u"Claude Code printed no JSON result, but %1"_s.arg(opening(stdoutJson)));

    CliRunOutput output;
    output.sessionId = result.value("session_id"_L1).toString();
    output.turns = result.value("num_turns"_L1).toInt();
    output.usage = AnthropicMessagesFormat::parseUsage(result.value("usage"_L1).toObject());
    const QJsonValue cost = result.value("total_cost_usd"_L1);
    if (cost.isDouble())
        output.costUsd = cost.toDouble();
    const QString subtype = result.value("subtype"_L1).toString();
    output.isError = result.value("is_error"_L1).toBool() || subtype.startsWith("error"_L1);
    const QString text = result.value("result"_L1).toString();
    if (!output.isError) {
        output.finalText = text;
        return Result<CliRunOutput>::success(output);
    }
    // An error result carries its message in "result", or in "errors" (error_during_execution, error_max_turns).
    QStringList errors;
    for (const QJsonValue &error : result.value("errors"_L1).toArray())
        errors << error.toString();
    errors.removeAll(QString());
    output.errorText = !text.isEmpty() ? text : !errors.isEmpty() ? errors.join(u"; ") : subtype;
    return Result<CliRunOutput>::success(output);
}

Result<CliRunOutput> parseCodexExecJson(const QByteArray &stdoutJsonl)
{
    CliRunOutput output;
    bool sawEvent = false;
    QString pendingError; // an error event that no completed turn followed (Codex reports retries this way too)
    for (const QByteArray &line : stdoutJsonl.split('\n')) {
        const QJsonObject event = jsonObject(line);
        const QString type = event.value("type"_L1).toString();
        if (type.isEmpty())
            continue;
        sawEvent = true;
        if (type == "thread.started"_L1) {
            output.sessionId = event.value("thread_id"_L1).toString();
        } else if (type == "turn.started"_L1) {
            ++output.turns;
        } else if (type == "turn.completed"_L1) {
            output.usage += codexUsage(event.value("usage"_L1).toObject());
            pendingError.clear();
        } else if (type == "turn.failed"_L1) {
            output.isError = true;
            output.errorText = event.value("error"_L1).toObject().value("message"_L1).toString(pendingError);
        } else if (type == "error"_L1) {
            pendingError = event.value("message"_L1).toString();
        } else if (type == "item.completed"_L1) {
            const QJsonObject item = event.value("item"_L1).toObject();
            if (item.value("type"_L1).toString() == "agent_message"_L1)
                output.finalText = item.value("text"_L1).toString();
        }
    }
    if (!sawEvent)
        return Result<CliRunOutput>::failure(u"Codex printed no JSON events, but %1"_s.arg(opening(stdoutJsonl)));
    if (!output.isError && !pendingError.isEmpty()) {
        output.isError = true;
        output.errorText = pendingError;
    }
    return Result<CliRunOutput>::success(output);
}

QString findClaudeCodeSession(const QString &configDir, const QString &sessionId)
{
    const QDir projects(QDir(configDir).filePath(u"projects"_s));
    const QFileInfoList folders = projects.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot);
    if (!sessionId.isEmpty()) {
        for (const QFileInfo &folder : folders) {
            const QFileInfo named(QDir(folder.absoluteFilePath()).filePath(sessionId + ".jsonl"_L1));
            if (named.isFile())
                return named.absoluteFilePath();
        }
    }
    // Sessions lie directly in their project's folder; subagents' files lie deeper and are not sessions.
    QFileInfoList sessions;
    for (const QFileInfo &folder : folders)
        sessions += QDir(folder.absoluteFilePath()).entryInfoList({u"*.jsonl"_s}, QDir::Files);
    return newest(sessions);
}

QString findCodexRollout(const QString &codexHome)
{
    QFileInfoList rollouts;
    QDirIterator it(QDir(codexHome).filePath(u"sessions"_s), {u"rollout-*.jsonl"_s}, QDir::Files,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        it.next();
        rollouts << it.fileInfo();
    }
    return newest(rollouts);
}

} // namespace sf
