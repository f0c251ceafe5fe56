// Measures the Compare view on a synthetic run of 20 models x 2 arms x 200 cases x 5 repeats (40,000 items):
// reading and analysing the run (core), the time from choosing the run to the view painted with its charts and
// case matrix filled, switching the matrix filter and sort, switching the chart metric and splits, exporting a
// chart, and the peak resident memory. Prints figures only; run it by hand (it is not a ctest test):
//   QT_QPA_PLATFORM=offscreen ./bench_compare_view [--models N] [--cases N] [--repeats N]
#include "charts/ChartPanel.h"
#include "charts/ComparisonCharts.h"
#include "compare/CaseMatrixModel.h"
#include "compare/CompareView.h"
#include "eval/RunAnalysis.h"
#include "eval/RunStore.h"
#include "project/Project.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <cstdio>
#include <sys/resource.h>

using namespace sf;

namespace {

double msSince(const QElapsedTimer &timer)
{
    return double(timer.nsecsElapsed()) / 1e6;
}

double peakRssMiB()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_maxrss) / 1024.0; // Linux reports KiB
}

/// Writes runs/<id>/ with run.json and results.jsonl for models x arms x cases x repeats; returns the run folder.
QString writeSyntheticRun(const QString &runsDir, int models, int cases, int repeats)
{
    RunManifest manifest;
    manifest.skillName = QStringLiteral("bench-skill");
    manifest.skillVersion = QStringLiteral("v1");
    manifest.suitePath = QStringLiteral("tests/bench-suite.json");
    manifest.startedAt = QStringLiteral("2026-11-29T10:00:00Z");
    manifest.finishedAt = QStringLiteral("2026-11-29T12:00:00Z");
    manifest.status = QStringLiteral("finished");
    manifest.plannedItems = models * 2 * cases * repeats;
    for (int m = 0; m < models; ++m)
        manifest.models.append({QStringLiteral("provider%1:model-%2").arg(m % 3).arg(m), QStringLiteral("bench"), {}});
    auto created = RunStore::create(runsDir, manifest);
    if (!std::holds_alternative<RunStore>(created)) {
        std::fprintf(stderr, "cannot create the run: %s\n", qPrintable(std::get<QString>(created)));
        return {};
    }
    const QString dir = std::get<RunStore>(created).dir();
    QFile file(dir + QStringLiteral("/results.jsonl"));
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    QRandomGenerator random(20261130);
    for (int m = 0; m < models; ++m) {
        const double base = 0.2 + 0.6 * m / std::max(1, models - 1);
        for (int c = 0; c < cases; ++c) {
            const double difficulty = (c % 10) / 20.0;
            for (int r = 1; r <= repeats; ++r) {
                for (const QString &arm : {kBaselineArm, kWithSkillArm}) {
                    ItemResult item;
                    item.key = {manifest.models[m].name, arm, QStringLiteral("case-%1").arg(c, 3, 10, QLatin1Char('0')),
                                r};
                    item.split = c % 5 == 4 ? QStringLiteral("heldout") : QStringLiteral("train");
                    const double p = std::clamp(base - difficulty + (arm == kWithSkillArm ? 0.15 : 0.0), 0.02, 0.98);
                    item.passed = random.generateDouble() < p;
                    if (random.bounded(100) == 0)
                        item.error = QStringLiteral("HTTP 529 overloaded");
                    item.verifiers.append({QStringLiteral("contains"), {}, item.passed, true,
                                           item.passed ? QStringLiteral("found") : QStringLiteral("missing"), {}, {}, {}});
                    item.answer = QStringLiteral("answer %1").arg(random.generate());
                    item.usage.uncachedInput = 800 + random.bounded(400) + (arm == kWithSkillArm ? 600 : 0);
                    item.usage.output = 200 + random.bounded(300);
                    item.costUsd = double(item.totalTokens()) * 2e-6;
                    item.latencyMs = 800 + random.bounded(2000);
                    item.stopReason = QStringLiteral("answered");
                    file.write(QJsonDocument(item.toJson()).toJson(QJsonDocument::Compact));
                    file.write("\n");
                }
            }
        }
    }
    return dir;
}

/// Runs the event loop until pending work and paints have landed.
void settle(QWidget &widget)
{
    for (int i = 0; i < 3; ++i)
        QApplication::processEvents();
    widget.repaint(); // a synchronous paint of the whole view, charts and the visible matrix rows included
    QApplication::processEvents();
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // figures appear as they are measured, even through a pipe
    QCommandLineParser parser;
    parser.addOption({QStringLiteral("models"), QStringLiteral("models"), QStringLiteral("N"), QStringLiteral("20")});
    parser.addOption({QStringLiteral("cases"), QStringLiteral("cases"), QStringLiteral("N"), QStringLiteral("200")});
    parser.addOption({QStringLiteral("repeats"), QStringLiteral("repeats"), QStringLiteral("N"), QStringLiteral("5")});
    parser.process(app);
    const int models = parser.value(QStringLiteral("models")).toInt();
    const int cases = parser.value(QStringLiteral("cases")).toInt();
    const int repeats = parser.value(QStringLiteral("repeats")).toInt();

    QTemporaryDir dir;
    QElapsedTimer timer;
    timer.start();
    const QString run = writeSyntheticRun(dir.filePath(QStringLiteral("runs")), models, cases, repeats);
    if (run.isEmpty())
        return 1;
    const qint64 bytes = QFileInfo(run + QStringLiteral("/results.jsonl")).size();
    std::printf("Synthetic run: %d models x 2 arms x %d cases x %d repeats = %d items, results.jsonl %.1f MiB "
                "(written in %.0f ms)\n",
                models, cases, repeats, models * 2 * cases * repeats, double(bytes) / 1048576.0, msSince(timer));
    const double rssBefore = peakRssMiB();

    timer.restart();
    auto analysis = analyzeRun(run);
    const double analyzeMs = msSince(timer);
    if (!std::holds_alternative<RunAnalysis>(analysis)) {
        std::fprintf(stderr, "%s\n", qPrintable(std::get<LoadError>(analysis).toString()));
        return 1;
    }
    std::printf("  analyzeRun (read, statistics, case matrix)     %8.1f ms\n", analyzeMs);
    analysis = LoadError{};

    auto project = Project::open(dir.path());
    if (!std::holds_alternative<Project>(project))
        return 1;
    CompareView view;
    view.resize(1600, 1000);
    view.show();
    if (!QTest::qWaitForWindowExposed(&view))
        return 1;
    QSignalSpy shown(&view, &CompareView::runsShown);
    timer.restart();
    view.setProject(&std::get<Project>(project));
    const double dispatchMs = msSince(timer);
    while (shown.isEmpty() || view.isBusy())
        QApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    settle(view);
    const double openMs = msSince(timer);
    std::printf("  choose the run -> view painted (read on a worker thread,\n"
                "    3 charts, %4d-row matrix, lift table)            %8.1f ms\n",
                view.matrixModel()->rowCount(), openMs);
    std::printf("  longest the UI thread was held while choosing   %8.1f ms (then the read runs on a worker)\n",
                dispatchMs);

    QComboBox *filter = view.filterCombo();
    for (int i = 0; i < filter->count(); ++i) {
        timer.restart();
        filter->setCurrentIndex(i);
        settle(view);
        std::printf("  filter \"%s\" (%4d rows shown)%*s %8.1f ms\n", qPrintable(filter->itemText(i)),
                    view.matrixView()->model()->rowCount(), int(17 - filter->itemText(i).size()), "", msSince(timer));
    }
    filter->setCurrentIndex(0);
    settle(view);
    for (const auto &[column, name] : {std::pair{int(CaseMatrixModel::CaseNameColumn), "case"},
                                       std::pair{int(CaseMatrixModel::FirstCellColumn) + 7, "a model's cell"},
                                       std::pair{int(CaseMatrixModel::FlipsColumn), "flips"}}) {
        timer.restart();
        view.matrixView()->sortByColumn(column, Qt::DescendingOrder);
        settle(view);
        std::printf("  sort by %-16s                        %8.1f ms\n", name, msSince(timer));
    }
    for (const auto metric : {charts::Metric::Tokens, charts::Metric::Cost, charts::Metric::Latency,
                              charts::Metric::PassRate}) {
        timer.restart();
        view.setMetric(metric);
        settle(view);
        std::printf("  bars show %-14s                        %8.1f ms\n", qPrintable(charts::metricName(metric)),
                    msSince(timer));
    }
    timer.restart();
    view.setSplit(CompareView::Split::Apart);
    settle(view);
    std::printf("  train and held-out apart (charts and matrix)    %8.1f ms\n", msSince(timer));
    timer.restart();
    const QString pngError = view.barChart()->savePng(dir.filePath(QStringLiteral("bars.png")));
    std::printf("  export the bar chart as PNG                     %8.1f ms %s\n", msSince(timer), qPrintable(pngError));
    timer.restart();
    const QString svgError = view.barChart()->saveSvg(dir.filePath(QStringLiteral("bars.svg")));
    std::printf("  export the bar chart as SVG                     %8.1f ms %s\n", msSince(timer), qPrintable(svgError));
    std::printf("Peak RSS: %.1f MiB (%.1f MiB before reading the run)\n", peakRssMiB(), rssBefore);
    return 0;
}
