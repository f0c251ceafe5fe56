// Reports of a large run: 20 models x 2 arms x 200 cases x 5 repeats = 40,000 items with small transcripts,
// written to a temporary run folder. Times opening it (analyzeRun: read, statistics, case matrix) and writing
// each report, with the file size and the process's peak resident memory after each step (the peak only grows,
// so each figure bounds everything before it). Also writes the HTML with every item's details, to show why the
// HTML report includes at most ReportOptions::maxItemDetails of them.
//   usage: bench_report [models cases repeats]
#include "eval/RunAnalysis.h"
#include "eval/RunStore.h"
#include "report/Report.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <cstdio>
#include <sys/resource.h>

using namespace sf;

namespace {

double peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_maxrss / 1024.0; // kilobytes on Linux
}

void report(const char *step, qint64 ms, qint64 bytes = -1)
{
    if (bytes >= 0)
        std::printf("%-44s %8lld ms  %9.1f MiB file  peak RSS %7.1f MiB\n", step, static_cast<long long>(ms),
                    bytes / 1048576.0, peakRssMiB());
    else
        std::printf("%-44s %8lld ms  %18s  peak RSS %7.1f MiB\n", step, static_cast<long long>(ms), "", peakRssMiB());
    std::fflush(stdout);
}

/// A finished run in @p dir: results.jsonl and one transcript per item, outcomes seeded so reruns agree.
bool writeRun(const QString &dir, int models, int cases, int repeats)
{
    RunManifest manifest;
    manifest.runId = QStringLiteral("20261130T000000Z-bench1");
    manifest.skillName = QStringLiteral("bench-skill");
    manifest.skillVersion = QStringLiteral("v3");
    manifest.skillHash = QStringLiteral("0123abcd");
    manifest.suitePath = QStringLiteral("tests/bench.json");
    manifest.suiteHash = QStringLiteral("feed01");
    for (int m = 0; m < models; ++m)
        manifest.models.append({QStringLiteral("provider%1:student-model-%2").arg(m % 3).arg(m),
                                QStringLiteral("provider%1").arg(m % 3),
                                QStringLiteral("student-model-%1-2026").arg(m)});
    manifest.parameters =
        QJsonObject{{QStringLiteral("runs"), repeats}, {QStringLiteral("mode"), QStringLiteral("inline")}};
    manifest.appVersion = QStringLiteral(SKILLFORGE_VERSION);
    manifest.host = QStringLiteral("bench");
    manifest.startedAt = QStringLiteral("2026-11-30T00:00:00Z");
    manifest.finishedAt = QStringLiteral("2026-11-30T02:00:00Z");
    manifest.status = QStringLiteral("finished");
    manifest.plannedItems = models * 2 * cases * repeats;
    QDir().mkpath(dir + QStringLiteral("/transcripts"));
    QFile runJson(dir + QStringLiteral("/run.json"));
    if (!runJson.open(QIODevice::WriteOnly))
        return false;
    runJson.write(QJsonDocument(manifest.toJson()).toJson());
    runJson.close();

    QFile results(dir + QStringLiteral("/results.jsonl"));
    if (!results.open(QIODevice::WriteOnly))
        return false;
    QRandomGenerator random(42);
    for (int c = 0; c < cases; ++c) {
        for (int r = 1; r <= repeats; ++r) {
            for (const RunModel &model : std::as_const(manifest.models)) {
                for (const QString &arm : {kBaselineArm, kWithSkillArm}) {
                    ItemResult item;
                    item.key = {model.name, arm, QStringLiteral("case-%1").arg(c, 3, 10, QLatin1Char('0')), r};
                    item.split = c % 5 == 4 ? QStringLiteral("heldout") : QStringLiteral("train");
                    const double p = (arm == kWithSkillArm ? 0.7 : 0.45) + 0.01 * (c % 10);
                    const bool error = random.bounded(1000) < 5;
                    item.passed = !error && random.generateDouble() < p;
                    if (error)
                        item.error = QStringLiteral("HTTP 529: overloaded");
                    else
                        item.verifiers = {{QStringLiteral("contains"),
                                           {},
                                           item.passed,
                                           true,
                                           item.passed ? QStringLiteral("found \"EPS\"")
                                                       : QStringLiteral("\"EPS\" not in the answer"),
                                           std::nullopt,
                                           {},
                                           {}}};
                    item.answer = item.passed ? QStringLiteral("Use RMSNorm with EPS = 1e-6 and a fused kernel.")
                                              : QStringLiteral("Use layer norm.");
                    item.resolvedModel = model.resolvedId;
                    item.provider = model.provider;
                    item.usage.uncachedInput = 900 + random.bounded(400) + (arm == kWithSkillArm ? 600 : 0);
                    item.usage.output = 200 + random.bounded(300);
                    item.costUsd = (item.usage.uncachedInput * 1.0 + item.usage.output * 5.0) / 1e6;
                    item.latencyMs = 800 + random.bounded(3000);
                    item.llmMs = item.latencyMs - 50;
                    item.turns = 1;
                    item.stopReason = error ? StopReason::Error : StopReason::Answered;
                    item.transcript = QStringLiteral("transcripts/%1.json").arg(item.key.fileName());
                    item.startedAt = QStringLiteral("2026-11-30T00:10:00Z");
                    results.write(QJsonDocument(item.toJson()).toJson(QJsonDocument::Compact) + '\n');
                    const QJsonArray messages{
                        QJsonObject{{QStringLiteral("role"), QStringLiteral("system")},
                                    {QStringLiteral("content"), QStringLiteral("You are a CUDA engineer.")}},
                        QJsonObject{{QStringLiteral("role"), QStringLiteral("user")},
                                    {QStringLiteral("content"), QStringLiteral("Normalize tensor %1 in bf16.").arg(c)}},
                        QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")},
                                    {QStringLiteral("content"), item.answer}}};
                    QFile transcript(dir + u'/' + item.transcript);
                    if (!transcript.open(QIODevice::WriteOnly))
                        return false;
                    transcript.write(QJsonDocument(QJsonObject{{QStringLiteral("messages"), messages}}).toJson());
                }
            }
        }
    }
    return true;
}

qint64 fileSize(const QString &path)
{
    return QFileInfo(path).size();
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int models = args.size() > 3 ? args[1].toInt() : 20;
    const int cases = args.size() > 3 ? args[2].toInt() : 200;
    const int repeats = args.size() > 3 ? args[3].toInt() : 5;
    QTemporaryDir temp;
    const QString runDir = temp.filePath(QStringLiteral("run"));
    QElapsedTimer clock;
    clock.start();
    if (!writeRun(runDir, models, cases, repeats)) {
        std::fprintf(stderr, "could not write the synthetic run under %s\n", qPrintable(temp.path()));
        return 1;
    }
    std::printf("synthetic run: %d models x 2 arms x %d cases x %d repeats = %d items, results.jsonl %.1f MiB\n",
                models, cases, repeats, models * 2 * cases * repeats,
                fileSize(runDir + QStringLiteral("/results.jsonl")) / 1048576.0);
    report("write the run (not part of the figures)", clock.elapsed());

    // Reading alone, so that the rest of opening (summarizeRun's bootstrap intervals, the case matrix) is the
    // difference between this line and the next.
    clock.restart();
    if (!std::holds_alternative<RunStore>(RunStore::open(runDir, RunStore::Access::ReadOnly)))
        return 1;
    report("read only: RunStore::open (run.json, results)", clock.elapsed());

    clock.restart();
    auto opened = analyzeRun(runDir);
    if (auto *error = std::get_if<LoadError>(&opened)) {
        std::fprintf(stderr, "%s\n", qPrintable(error->toString()));
        return 1;
    }
    const RunAnalysis run = std::get<RunAnalysis>(std::move(opened));
    report("open: analyzeRun (read, statistics, matrix)", clock.elapsed());

    const auto write = [&](const char *step, ReportFormat format, ReportOptions options = {}) {
        const QString path =
            temp.filePath(QStringLiteral("report-%1.%2").arg(options.maxItemDetails).arg(reportExtension(format)));
        clock.restart();
        const QString error = ReportWriter(run, nullptr, options).write(format, path);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "%s\n", qPrintable(error));
            return false;
        }
        report(step, clock.elapsed(), fileSize(path));
        return true;
    };
    bool ok = write("HTML, details of 1000 items (the default)", ReportFormat::Html);
    ok = ok && write("JSON (everything)", ReportFormat::Json);
    ok = ok && write("CSV (one row per item)", ReportFormat::Csv);
    ok = ok && write("JUnit XML", ReportFormat::JUnit);
    ok = ok && write("PDF", ReportFormat::Pdf);
    ReportOptions all;
    all.maxItemDetails = run.results.size();
    ok = ok && write("HTML, details of every item", ReportFormat::Html, all);
    return ok ? 0 : 1;
}
