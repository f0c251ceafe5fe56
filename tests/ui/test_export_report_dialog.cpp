// The Export Report dialog as a user drives it: a fixture run exported through a job in the Jobs panel.
#include "../support/TestFiles.h"
#include "MainWindow.h"
#include "SkippedChecks.h"
#include "common/ViewPage.h"
#include "eval/Verdict.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"
#include "project/AppSettings.h"
#include "project/SampleProject.h"
#include "report/ExportReportDialog.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;

namespace {

QString fixtureRun(const QString &version)
{
    return QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/runs/skill-%1").arg(version);
}

QPushButton *button(QWidget *dialog, const QString &text)
{
    for (QPushButton *b : dialog->findChildren<QPushButton *>()) {
        if (b->text().remove(u'&') == text)
            return b;
    }
    return nullptr;
}

} // namespace

class TestExportReportDialog final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void exportHtml_runsAsAJob_andTheFileAppears()
    {
        QTemporaryDir project;
        const QString runDir = project.filePath(QStringLiteral("runs/20261121T100001Z-000001"));
        QVERIFY(test::copyTree(fixtureRun(QStringLiteral("v1")), runDir));
        JobListModel jobs;
        QAbstractItemModelTester tester(&jobs);
        ExportReportDialog dialog(&jobs);
        dialog.setRunDir(runDir);
        dialog.setFormat(ReportFormat::Html);
        // Beside the project's runs folder, named after the run.
        const QString expected = project.filePath(QStringLiteral("reports/20261121T100001Z-000001.html"));
        QCOMPARE(dialog.outputPath(), expected);
        dialog.show();

        QSignalSpy exported(&dialog, &ExportReportDialog::exported);
        QPushButton *exportButton = button(&dialog, QStringLiteral("Export"));
        QVERIFY(exportButton && exportButton->isEnabled());
        QTest::mouseClick(exportButton, Qt::LeftButton);
        QCOMPARE(jobs.rowCount(), 1);
        Job *job = jobs.jobAt(0);
        QVERIFY(job->title().contains(QStringLiteral("HTML")));
        QVERIFY(!exportButton->isEnabled()); // one export at a time
        QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 1, 60000);
        QCOMPARE(exported.first().first().toString(), expected);
        QCOMPARE(job->state(), Job::State::Finished);
        QVERIFY(QFile::exists(expected));
        QFile file(expected);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("Skill report: diffusers-cuda-rmsnorm"));
        QVERIFY(dialog.statusText().contains(QDir::toNativeSeparators(expected)));
        QPushButton *open = button(&dialog, QStringLiteral("Open"));
        QVERIFY(open && open->isVisible());
        QVERIFY(exportButton->isEnabled());
    }

    // The report's verdicts follow the thresholds the user set in Compare (stored in the settings), not the defaults.
    void exportJson_usesTheVerdictThresholdsInTheSettings()
    {
        const VerdictThresholds before = AppSettings().verdictThresholds();
        VerdictThresholds set;
        set.minLift = 0.05;
        set.minPairs = 3;
        QVERIFY(set.minPairs != VerdictThresholds().minPairs && set.minLift != VerdictThresholds().minLift);
        AppSettings().setVerdictThresholds(set);
        const auto restore = qScopeGuard([before] { AppSettings().setVerdictThresholds(before); });
        QTemporaryDir dir;
        JobListModel jobs;
        ExportReportDialog dialog(&jobs);
        dialog.setRunDir(fixtureRun(QStringLiteral("v1")));
        dialog.setFormat(ReportFormat::Json);
        const QString path = dir.filePath(QStringLiteral("report.json"));
        dialog.setOutputPath(path);
        QSignalSpy exported(&dialog, &ExportReportDialog::exported);
        dialog.startExport();
        QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 1, 60000);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonParseError error;
        const QJsonDocument report = QJsonDocument::fromJson(file.readAll(), &error);
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        const QJsonObject verdicts =
            report.object().value(QStringLiteral("run")).toObject().value(QStringLiteral("verdicts")).toObject();
        const QJsonObject thresholds = verdicts.value(QStringLiteral("thresholds")).toObject();
        QCOMPARE(thresholds.value(QStringLiteral("min_pairs")).toInt(-1), 3);
        QCOMPARE(thresholds.value(QStringLiteral("min_lift")).toDouble(-1), 0.05);
        QCOMPARE(verdicts.value(QStringLiteral("rule")).toString(), set.describe());
    }

    void exportMarkdownWithCompare_writesChartsBeside()
    {
        QTemporaryDir dir;
        JobListModel jobs;
        ExportReportDialog dialog(&jobs);
        dialog.setRunDir(fixtureRun(QStringLiteral("v2")));
        dialog.setCompareDir(fixtureRun(QStringLiteral("v1")));
        dialog.setFormat(ReportFormat::Markdown);
        const QString path = dir.filePath(QStringLiteral("compare.md"));
        dialog.setOutputPath(path);
        QSignalSpy exported(&dialog, &ExportReportDialog::exported);
        dialog.startExport();
        QTRY_COMPARE_WITH_TIMEOUT(exported.size(), 1, 60000);
        QVERIFY(QFile::exists(path));
        QVERIFY(QFile::exists(dir.filePath(QStringLiteral("compare-pass-rate.png"))));
        QVERIFY(dialog.statusText().contains(QStringLiteral("7 chart image")));
    }

    void brokenRunFolder_failsTheJob_andSaysWhy()
    {
        QTemporaryDir dir;
        JobListModel jobs;
        ExportReportDialog dialog(&jobs);
        dialog.setRunDir(dir.filePath(QStringLiteral("missing-run")));
        dialog.setOutputPath(dir.filePath(QStringLiteral("r.html")));
        QSignalSpy failed(&dialog, &ExportReportDialog::exportFailed);
        dialog.startExport();
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 30000);
        QCOMPARE(jobs.jobAt(0)->state(), Job::State::Failed);
        QVERIFY(dialog.statusText().contains(QStringLiteral("missing-run/run.json")));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("r.html"))));
    }

    void junitWithCompare_isRefusedBeforeAnyJob()
    {
        JobListModel jobs;
        ExportReportDialog dialog(&jobs);
        dialog.setRunDir(fixtureRun(QStringLiteral("v2")));
        dialog.setCompareDir(fixtureRun(QStringLiteral("v1")));
        dialog.setFormat(ReportFormat::JUnit);
        dialog.startExport();
        QCOMPARE(jobs.rowCount(), 0);
        QVERIFY(dialog.statusText().contains(QStringLiteral("one run")));
    }

    void fileMenu_exportReport_opensTheDialogOnTheProjectsRuns()
    {
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("sample"));
        QCOMPARE(SampleProject::ensureInstalled(project), QString());
        JobListModel jobs;
        MainWindow window(&jobs);
        QCOMPARE(window.openProject(project, true), QString());
        QAction *action = nullptr;
        for (QAction *menu : window.menuBar()->actions()) {
            if (menu->menu() && menu->text().remove(u'&') == u"File") {
                for (QAction *item : menu->menu()->actions()) {
                    if (item->text().remove(u'&') == QStringLiteral("Export Report…"))
                        action = item;
                }
            }
        }
        QVERIFY(action);
        action->trigger();
        auto *dialog = window.findChild<ExportReportDialog *>();
        QVERIFY(dialog && dialog->isVisible());
        // Nothing typed: the project's run is chosen, by name, and the report has a place to go.
        const QStringList runs = QDir(project + QStringLiteral("/runs")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        QCOMPARE(runs.size(), 1);
        QCOMPARE(QFileInfo(dialog->runDir()).fileName(), runs.first());
        auto *choice = dialog->findChild<QComboBox *>(QStringLiteral("runChoice"));
        QVERIFY(choice);
        QVERIFY2(choice->currentText().startsWith(QStringLiteral("diffusers-cuda-rmsnorm")), qPrintable(choice->currentText()));
        QVERIFY(dialog->compareDir().isEmpty());
        QVERIFY(dialog->outputPath().endsWith(runs.first() + QStringLiteral(".html")));
        QVERIFY(button(dialog, QStringLiteral("Export"))->isEnabled());
        dialog->close();

        // From the Runs view, the run it shows.
        const QString second = project + QStringLiteral("/runs/20300101T000000Z-abcdef");
        QVERIFY(test::copyTree(fixtureRun(QStringLiteral("v2")), second));
        window.showView(MainWindow::View::Runs);
        window.page(MainWindow::View::Runs)->openPath(project + QStringLiteral("/runs/") + runs.first());
        action->trigger();
        QTRY_VERIFY(window.findChildren<ExportReportDialog *>().size() == 1);
        dialog = window.findChild<ExportReportDialog *>();
        QCOMPARE(QFileInfo(dialog->runDir()).fileName(), runs.first());
        QCOMPARE(dialog->findChild<QComboBox *>(QStringLiteral("runChoice"))->count(), 2); // both runs listed
        dialog->close();
    }

    void exportRun_opensPrefilled_forTheCompareView()
    {
        JobListModel jobs;
        QWidget parent;
        ExportReportDialog *dialog = ExportReportDialog::exportRun(&jobs, fixtureRun(QStringLiteral("v2")),
                                                                   fixtureRun(QStringLiteral("v1")), {}, &parent);
        QVERIFY(dialog->isVisible());
        QVERIFY(dialog->outputPath().endsWith(QStringLiteral("skill-v2-vs-skill-v1.html")));
        QVERIFY(dialog->testAttribute(Qt::WA_DeleteOnClose));
        dialog->close();
    }
};

SF_TEST_MAIN(TestExportReportDialog)
#include "test_export_report_dialog.moc"
