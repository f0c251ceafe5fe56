#pragma once

#include "../../support/TestFiles.h"
#include "eval/RunAnalysis.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTest>

namespace sf::test {

/// The fixture runs of tests/fixtures/runs (make_fixture_runs.py there).
inline QString fixtureRun(const QString &version)
{
    return QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/runs/skill-%1").arg(version);
}

inline RunAnalysis loadRun(const QString &dir)
{
    auto loaded = analyzeRun(dir);
    if (auto *error = std::get_if<LoadError>(&loaded))
        qFatal("%s", qPrintable(error->toString()));
    return std::get<RunAnalysis>(std::move(loaded));
}

/// A key shaped like Anthropic's, planted in a copy of a fixture run: never to be seen in a report.
inline const QString kPlantedKey = QStringLiteral("sk-ant-api03-Zx9Qw7Lk2Vb8Nm4Pj6Hs1Df3Gt5Yr0Ue8Io2Wa4Sd6Fg");
inline const QString kPlantedToken = QStringLiteral("hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345");

/// Copies the v1 fixture run to @p dir and plants the key in a transcript message, the token in an answer, a
/// "Bearer" header in a verifier's evidence, and markup in a transcript that must come out escaped.
inline bool plantSecrets(const QString &dir)
{
    if (!copyTree(fixtureRun(QStringLiteral("v1")), dir))
        return false;
    const QString transcriptPath =
        dir + QStringLiteral("/transcripts/anthropic_claude-haiku-4-5__baseline__rmsnorm-basic__r1.json");
    QFile transcript(transcriptPath);
    if (!transcript.open(QIODevice::ReadOnly))
        return false;
    QByteArray text = transcript.readAll();
    transcript.close();
    const QByteArray planted = QByteArray(QByteArray("Write the kernel for case rmsnorm-basic. My key is ") +
                                          kPlantedKey.toUtf8() + QByteArray(" <script>alert(1)</script>"));
    text.replace(QByteArray("Write the kernel for case rmsnorm-basic."), planted);
    QFile::remove(transcriptPath);
    if (!transcript.open(QIODevice::WriteOnly) || transcript.write(text) != text.size())
        return false;
    transcript.close();
    QFile results(dir + QStringLiteral("/results.jsonl"));
    if (!results.open(QIODevice::ReadOnly))
        return false;
    QByteArray lines = results.readAll();
    results.close();
    const QByteArray answer = "I would use torch.nn.functional.rms_norm here.";
    const int first = lines.indexOf(answer);
    if (first < 0)
        return false;
    lines.replace(first, answer.size(), QByteArray(QByteArray("export HF_TOKEN=") + kPlantedToken.toUtf8()));
    lines.replace(
        QByteArray("no match for __global__"),
        QByteArray(QByteArray("Authorization: Bearer ") + kPlantedKey.toUtf8() + QByteArray(" no match for")));
    QFile::remove(results.fileName());
    return results.open(QIODevice::WriteOnly) && results.write(lines) == lines.size();
}

/// Runs @p program with @p arguments; its stdout, or a null array when it did not finish with exit code 0.
inline QByteArray runTool(const QString &program, const QStringList &arguments, QByteArray *errors = nullptr)
{
    QProcess process;
    process.start(program, arguments);
    if (!process.waitForFinished(120000) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        qWarning() << program << "failed:" << process.readAllStandardError();
        return {};
    }
    if (errors)
        *errors = process.readAllStandardError();
    return process.readAllStandardOutput();
}

} // namespace sf::test
