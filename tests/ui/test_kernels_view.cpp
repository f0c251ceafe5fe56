#include "SkippedChecks.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"
#include "kernels/KernelVerdictView.h"
#include "kernels/KernelsView.h"

#include <QAbstractSeries>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QFile>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {
KernelVerdict fixture(const QString &name)
{
    QFile file(QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/kernels/") + name);
    file.open(QIODevice::ReadOnly);
    return KernelVerdict::fromJson(QJsonDocument::fromJson(file.readAll()).object());
}
} // namespace

/// The kernel view on recorded verdicts: compiler errors in place, resources, correctness, timing, chart.
class TestKernelsView : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void passedVerdict_fillsResourceCorrectnessAndTimingTablesAndTheChart()
    {
        KernelVerdictView view;
        const KernelVerdict verdict = fixture(u"verdict_passed.json"_s);
        QVERIFY(verdict.passed());
        view.setVerdict(verdict);
        QVERIFY(view.statusText().contains(u"passed"_s));
        QCOMPARE(view.resourceTable()->rowCount(), 3);
        QVERIFY(view.resourceTable()->item(0, 0)->text().contains(u"rmsnormKernel"_s));
        QCOMPARE(view.correctnessTable()->rowCount(), 35); // 7 shapes x 5 seeds
        QCOMPARE(view.correctnessTable()->item(0, 2)->text(), u"pass"_s);
        QCOMPARE(view.timingTable()->rowCount(), 7);
        QCOMPARE(view.timingTable()->item(0, 0)->text(), u"flux-hidden"_s);
        QCOMPARE(view.timingTable()->item(0, 5)->text(), u"1.45×"_s);
        QCOMPARE(view.tabs()->currentIndex(), 3); // a passed, timed kernel opens on its timing

        const QList<QAbstractSeries *> series = view.chart()->series();
        QCOMPARE(series.size(), 2);
        auto *bars = qobject_cast<QBarSeries *>(series[0]);
        QVERIFY(bars);
        QCOMPARE(bars->barSets().first()->count(), 7);
        QVERIFY(std::abs(bars->barSets().first()->at(0) - 61.0 / 42.1) < 1e-9);
        auto *fractions = qobject_cast<QLineSeries *>(series[1]);
        QVERIFY(fractions);
        QCOMPARE(fractions->count(), 7);
        QVERIFY(fractions->at(0).y() > 0.2 && fractions->at(0).y() < 0.35);
    }

    void buildError_marksTheLineInTheSourceAndListsTheMessage()
    {
        KernelVerdictView view;
        view.setVerdict(fixture(u"verdict_build_error.json"_s));
        QVERIFY(view.statusText().contains(u"failed"_s));
        QCOMPARE(view.tabs()->currentIndex(), 0);
        const QList<QTextEdit::ExtraSelection> marks = view.sourceEditor()->extraSelections();
        QCOMPARE(marks.size(), 1);
        QCOMPARE(marks.first().cursor.blockNumber(), 8); // line 9
        QVERIFY(marks.first().format.toolTip().contains(u"undeclared_factor"_s));
        QCOMPARE(view.diagnosticsList()->count(), 1);
        QVERIFY(view.diagnosticsList()->item(0)->text().startsWith(u"broken_syntax.cu:9: error: "_s));
        view.diagnosticsList()->setCurrentRow(0);
        QCOMPARE(view.sourceEditor()->textCursor().blockNumber(), 8);
        QCOMPARE(view.correctnessTable()->rowCount(), 0);
        QCOMPARE(view.chart()->series().size(), 0);
    }

    void notRunVerdict_isShownAsSuchNotAsAPass()
    {
        KernelVerdict verdict = fixture(u"verdict_passed.json"_s);
        verdict.status = KernelVerdict::Status::NotRun;
        verdict.reason = u"no CUDA device (nvidia-smi was not found)"_s;
        verdict.setRunnerReport({});
        KernelVerdictView view;
        view.setVerdict(verdict);
        QVERIFY(view.statusText().contains(u"compiled, not run"_s));
        QVERIFY(!view.statusText().contains(u"passed"_s));
        QCOMPARE(view.resourceTable()->rowCount(), 3);
        QCOMPARE(view.timingTable()->rowCount(), 0);
    }

    void emptyTabs_sayWhy_fromWhatTheCheckGotTo()
    {
        KernelVerdictView view;
        // Nothing checked: every tab says so.
        QVERIFY2(view.correctnessNote().contains(u"Not checked yet"_s), qPrintable(view.correctnessNote()));
        QVERIFY(view.timingNote().contains(u"Not checked yet"_s));
        // Compiled, no GPU: the build's resources show, correctness and timing say why they are empty.
        KernelVerdict noGpu = fixture(u"verdict_passed.json"_s);
        noGpu.status = KernelVerdict::Status::NotRun;
        noGpu.reason = u"no CUDA device (nvidia-smi was not found)"_s;
        noGpu.setRunnerReport({});
        view.setVerdict(noGpu);
        QCOMPARE(view.resourcesNote(), QString());
        for (const QString &note : {view.correctnessNote(), view.timingNote()}) {
            QVERIFY2(note.startsWith(u"Not run: no CUDA device (nvidia-smi was not found)."_s), qPrintable(note));
            QVERIFY(note.contains(u"need a CUDA device"_s));
        }
        // A failed build: nothing built, nothing run.
        view.setVerdict(fixture(u"verdict_build_error.json"_s));
        QVERIFY2(view.correctnessNote().contains(u"the build failed"_s), qPrintable(view.correctnessNote()));
        QVERIFY(view.resourcesNote().contains(u"the build failed"_s));
        // nvcc missing: said once, as a sentence.
        KernelVerdict noNvcc;
        noNvcc.status = KernelVerdict::Status::NotRun;
        noNvcc.reason = u"not built: nvcc was not found on this machine"_s;
        view.setVerdict(noNvcc);
        QCOMPARE(view.resourcesNote(), u"Not built: nvcc was not found on this machine."_s);
        // Failed correctness: not timed, and the timing tab says so.
        KernelVerdict wrong = fixture(u"verdict_passed.json"_s);
        wrong.status = KernelVerdict::Status::Failed;
        wrong.reason = u"correctness failed on flux-hidden"_s;
        wrong.correctness[0].passed = false;
        wrong.timing.clear();
        view.setVerdict(wrong);
        QCOMPARE(view.correctnessNote(), QString());
        QVERIFY2(view.timingNote().contains(u"failed correctness"_s), qPrintable(view.timingNote()));
        // A full verdict: tables, no notes.
        view.setVerdict(fixture(u"verdict_passed.json"_s));
        QCOMPARE(view.correctnessNote() + view.timingNote() + view.resourcesNote(), QString());
    }

    void resourceTable_givesTheWidthToKernelNames_notToTheLastNumber()
    {
        KernelVerdict verdict = fixture(u"verdict_passed.json"_s);
        verdict.build.resources[0].function = u"void rmsnormKernel<__nv_bfloat16, 256, true>(const __nv_bfloat16 *)"_s;
        KernelVerdictView view;
        view.resize(900, 500);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setVerdict(verdict);
        view.tabs()->setCurrentIndex(1);
        QTableWidget *table = view.resourceTable();
        QHeaderView *header = table->horizontalHeader();
        QCOMPARE(header->sectionResizeMode(0), QHeaderView::Stretch);
        QVERIFY(!header->stretchLastSection());
        QTRY_VERIFY(header->sectionSize(0) > 2 * header->sectionSize(6));
        // "Spill loads (B)" is as wide as its heading, no wider.
        QVERIFY2(header->sectionSize(6) < table->viewport()->width() / 4,
                 qPrintable(QString::number(header->sectionSize(6))));
    }

    void afterABuildError_theSourceKeepsRoomToRead()
    {
        KernelVerdict verdict = fixture(u"verdict_build_error.json"_s);
        // A build that failed with many messages.
        for (int i = 0; i < 40; ++i)
            verdict.build.diagnostics.append(verdict.build.diagnostics.first());
        KernelVerdictView view;
        view.resize(1000, 520);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setVerdict(verdict);
        QCoreApplication::processEvents();
        const int line = view.sourceEditor()->fontMetrics().lineSpacing();
        QVERIFY2(view.sourceEditor()->height() >= KernelVerdictView::MinSourceLines * line,
                 qPrintable(QString::number(view.sourceEditor()->height())));
        QVERIFY(view.diagnosticsList()->isVisible());
        QVERIFY(view.diagnosticsList()->height() > 2 * line);
    }

    void kernelsView_listsTasksWithShapesAndRunsTheNullCheck()
    {
        KernelsView view;
        QCOMPARE(view.taskList()->count(), 9);
        view.selectTask(u"rmsnorm"_s);
        QCOMPARE(view.shapeTable()->rowCount(), 7);
        QCOMPARE(view.shapeTable()->item(0, 0)->text(), u"flux-hidden"_s);
        QTRY_VERIFY_WITH_TIMEOUT(view.nullCheckLabel()->text().contains(u"all fail this task"_s), 30000);
        view.showVerdict(fixture(u"verdict_build_error.json"_s));
        QVERIFY(view.verdictView()->statusText().contains(u"failed"_s));
    }

    void openingACandidate_showsItsSource_andTheCheckRowStaysPut()
    {
        KernelsView view;
        view.resize(1100, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // Fits a 1280x800 window with the Jobs panel showing three jobs (it was 689 px: the panel could not grow).
        QVERIFY2(view.minimumSizeHint().height() <= 480, qPrintable(QString::number(view.minimumSizeHint().height())));
        view.selectTask(u"rmsnorm"_s);
        const QString path = QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/kernels/rmsnorm/baseline.cu");
        QVERIFY(view.loadCandidate(path));
        QVERIFY(view.verdictView()->sourceEditor()->toPlainText().contains(u"rmsnorm"_s));
        QVERIFY2(view.verdictView()->statusText().contains(u"not checked yet"_s),
                 qPrintable(view.verdictView()->statusText()));
        QPushButton *check = nullptr;
        for (QPushButton *button : view.findChildren<QPushButton *>())
            if (button->text() == u"Check"_s)
                check = button;
        QVERIFY(check);
        const QPoint where = check->mapTo(&view, QPoint());
        for (const QString &task : {u"adaln"_s, u"softmax"_s, u"geglu"_s}) {
            view.selectTask(task);
            QCoreApplication::processEvents();
            QCOMPARE(check->mapTo(&view, QPoint()), where);
        }
    }

    void checkingACandidate_isAJobInTheJobsPanel()
    {
        JobListModel jobs;
        KernelsView view;
        view.setJobs(&jobs);
        view.selectTask(u"rmsnorm"_s);
        QVERIFY(view.loadCandidate(QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/kernels/rmsnorm/baseline.cu")));
        QSignalSpy finished(&view, &KernelsView::checkFinished);
        view.checkCandidate();
        QCOMPARE(jobs.rowCount(), 1);
        Job *job = jobs.jobAt(0);
        QVERIFY(job->title().contains(u"rmsnorm"_s));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 300000);
        QCOMPARE(job->state(), Job::State::Finished);
        QCOMPARE(job->detail(), finished.first().first().value<KernelVerdict>().statusText());
    }
};

SF_TEST_MAIN(TestKernelsView)
#include "test_kernels_view.moc"
