#pragma once

// A run made by a real agent CLI (Claude Code 2.1.332), for the views and reports that show one: the v1 fixture run
// rewritten as CliStudentSession writes its items (skill activation per with-skill item, the CLI's session file
// kept in the run folder, the CLI's start-up time, a transcript of the CLI's settings instead of messages).
#include "ReportTestRuns.h"

#include <QDir>
#include <QJsonArray>

namespace sf::test {

inline const QString kCliVersion = QStringLiteral("2.1.332");
inline const QString kCliSource = QStringLiteral("pinned by setup: PyPI claude-agent-sdk 0.2.189");

/// Whether the with-skill item of @p model, @p caseId and @p repeat loaded the skill in the CLI run: claude-haiku
/// never loads it for rmsnorm-bf16 (a silent bypass) and loads it everywhere else (8 of 10); gemma loads it only for
/// rmsnorm-basic repeat 1 and rmsnorm-bf16 (3 of 10), so geglu-heldout is a bypass on both repeats.
inline bool cliRunLoadsSkill(const QString &model, const QString &caseId, int repeat)
{
    if (model.startsWith(QStringLiteral("anthropic:")))
        return caseId != QStringLiteral("rmsnorm-bf16");
    return caseId == QStringLiteral("rmsnorm-bf16") || (caseId == QStringLiteral("rmsnorm-basic") && repeat == 1);
}

/// The v1 fixture run at @p dir as a Claude Code run; false when a file could not be written.
inline bool makeAgentCliRun(const QString &dir)
{
    if (!copyTree(fixtureRun(QStringLiteral("v1")), dir))
        return false;
    const QDir run(dir);
    const auto readJson = [](const QString &path) {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object() : QJsonObject();
    };
    const auto writeFile = [](const QString &path, const QByteArray &bytes) {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile::remove(path);
        QFile file(path);
        return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
    };

    QJsonObject manifest = readJson(run.filePath(QStringLiteral("run.json")));
    QJsonObject parameters = manifest.value(QStringLiteral("parameters")).toObject();
    parameters.insert(QStringLiteral("harness"), QStringLiteral("claude-code"));
    manifest.insert(QStringLiteral("parameters"), parameters);
    manifest.insert(QStringLiteral("harness"),
                    QJsonObject{{QStringLiteral("name"), QStringLiteral("claude-code")},
                                {QStringLiteral("version"), kCliVersion},
                                {QStringLiteral("source"), kCliSource},
                                {QStringLiteral("path"), QStringLiteral("/cache/agent-clis/claude")}});
    if (!writeFile(run.filePath(QStringLiteral("run.json")), QJsonDocument(manifest).toJson()))
        return false;

    QFile results(run.filePath(QStringLiteral("results.jsonl")));
    if (!results.open(QIODevice::ReadOnly))
        return false;
    const QList<QByteArray> lines = results.readAll().split('\n');
    results.close();
    QFile session(QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/trace/claude-code/stripped.jsonl"));
    if (!session.open(QIODevice::ReadOnly))
        return false;
    const QByteArray sessionBytes = session.readAll();
    QByteArray rewritten;
    int startup = 1200;
    for (const QByteArray &line : lines) {
        if (line.trimmed().isEmpty())
            continue;
        QJsonObject item = QJsonDocument::fromJson(line).object();
        const QString model = item.value(QStringLiteral("model")).toString();
        const QString caseId = item.value(QStringLiteral("case")).toString();
        const int repeat = item.value(QStringLiteral("repeat")).toInt();
        const QString transcript = item.value(QStringLiteral("transcript")).toString();
        const QString sessionFile =
            QStringLiteral("artifacts/%1/cli-home/session.jsonl").arg(QFileInfo(transcript).completeBaseName());
        if (!writeFile(run.filePath(sessionFile), sessionBytes))
            return false;
        item.insert(QStringLiteral("harness_session"), sessionFile);
        item.insert(QStringLiteral("cli_startup_ms"), startup);
        startup += 10;
        if (item.value(QStringLiteral("arm")).toString() == QStringLiteral("with_skill")) {
            const bool loaded = cliRunLoadsSkill(model, caseId, repeat);
            item.insert(QStringLiteral("skill_loaded"), loaded);
            if (loaded) {
                item.insert(QStringLiteral("skill_loaded_at_turn"), model.startsWith(QStringLiteral("local:")) ? 2 : 1);
                QJsonArray files{QStringLiteral("SKILL.md")};
                if (caseId == QStringLiteral("rmsnorm-basic"))
                    files.append(QStringLiteral("references/bf16.md"));
                item.insert(QStringLiteral("skill_files_read"), files);
            }
        }
        rewritten += QJsonDocument(item).toJson(QJsonDocument::Compact) + '\n';

        // What the CLI's item keeps as its transcript: its settings and requests, not messages (they are in the
        // session file).
        QJsonObject cliTranscript = readJson(run.filePath(transcript));
        const QJsonArray messages = cliTranscript.take(QStringLiteral("messages")).toArray();
        cliTranscript.insert(QStringLiteral("harness"), QStringLiteral("claude-code"));
        cliTranscript.insert(QStringLiteral("cli_version"), kCliVersion);
        cliTranscript.insert(QStringLiteral("settings_fingerprint"), QStringLiteral("sha256:5e771n95"));
        cliTranscript.insert(QStringLiteral("prompt"), messages.at(1).toObject().value(QStringLiteral("content")));
        cliTranscript.insert(QStringLiteral("session"), sessionFile);
        if (!writeFile(run.filePath(transcript), QJsonDocument(cliTranscript).toJson()))
            return false;
    }
    return writeFile(run.filePath(QStringLiteral("results.jsonl")), rewritten);
}

} // namespace sf::test
