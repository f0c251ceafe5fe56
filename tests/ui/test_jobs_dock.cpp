// The Jobs dock as a user meets it (issue 35, item 17): it does not flash for work that ends at once, stays away once
// closed while the status bar counts the jobs, comes back for a failure or when asked, and its rows are one line.
#include "SkippedChecks.h"
#include "common/JobsDock.h"
#include "common/JobsPanel.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"

#include <QAction>
#include <QApplication>
#include <QMainWindow>
#include <QStatusBar>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

using namespace sf;

namespace {

/// A window with the dock and its status bar button, as MainWindow sets them up.
struct Window
{
    JobListModel jobs;
    QMainWindow window;
    JobsDock *dock = new JobsDock(&jobs, &window);

    Window()
    {
        window.setCentralWidget(new QWidget);
        window.addDockWidget(Qt::BottomDockWidgetArea, dock);
        window.statusBar()->addPermanentWidget(dock->statusButton());
        window.resize(1000, 700);
        dock->hide();
        window.show();
    }
};

/// Long enough for the dock to have come if it were going to.
void waitPastTheDelay()
{
    QTest::qWait(JobsDock::ShowAfterMs + 300);
}

} // namespace

class TestJobsDock final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void aJobThatEndsAtOnce_doesNotBringTheDock_aLastingOneDoes()
    {
        Window w;
        QVERIFY(QTest::qWaitForWindowExposed(&w.window));
        Job *quick = w.jobs.add(new Job(QStringLiteral("Export report")));
        quick->finish(QStringLiteral("written"));
        waitPastTheDelay();
        QVERIFY(w.dock->isHidden());
        QCOMPARE(w.dock->statusButton()->text(), QStringLiteral("Jobs: 1 listed"));
        QVERIFY(w.dock->statusButton()->isVisible());
        w.jobs.add(new Job(QStringLiteral("Evaluate rmsnorm")));
        QTRY_VERIFY(w.dock->isVisible());
        QVERIFY(!w.dock->statusButton()->isVisible());
    }

    void closedByTheUser_staysClosed_theStatusBarCounts_andItsButtonBringsItBack()
    {
        Window w;
        QVERIFY(QTest::qWaitForWindowExposed(&w.window));
        Job *first = w.jobs.add(new Job(QStringLiteral("Evaluate rmsnorm")));
        QTRY_VERIFY(w.dock->isVisible());
        w.dock->close(); // its title bar's close button
        QVERIFY(w.dock->isHidden());
        QVERIFY(w.dock->closedByUser());
        w.jobs.add(new Job(QStringLiteral("Check rmsnorm.cu")));
        w.jobs.add(new Job(QStringLiteral("Import trace")));
        waitPastTheDelay();
        QVERIFY(w.dock->isHidden());
        QToolButton *button = w.dock->statusButton();
        QVERIFY(button->isVisible());
        QCOMPARE(button->text(), QStringLiteral("Jobs: 3 running"));
        first->finish(QStringLiteral("done"));
        QCOMPARE(button->text(), QStringLiteral("Jobs: 2 running"));
        button->click();
        QTRY_VERIFY(w.dock->isVisible());
        QVERIFY(!w.dock->closedByUser());
        QVERIFY(!button->isVisible());
    }

    void closedFromTheViewMenu_aFailureStillBringsItBack_once()
    {
        Window w;
        QVERIFY(QTest::qWaitForWindowExposed(&w.window));
        Job *job = w.jobs.add(new Job(QStringLiteral("Evaluate rmsnorm")));
        QTRY_VERIFY(w.dock->isVisible());
        w.dock->toggleViewAction()->trigger(); // View → Jobs
        QVERIFY(w.dock->isHidden());
        QVERIFY(w.dock->closedByUser());
        job->fail(QStringLiteral("the provider refused the key"));
        QTRY_VERIFY(w.dock->isVisible());
        w.dock->close();
        job->setDetail(QStringLiteral("still failed")); // the same failure again does not bring it back
        waitPastTheDelay();
        QVERIFY(w.dock->isHidden());
        w.dock->toggleViewAction()->trigger();
        QVERIFY(w.dock->isVisible());
        QVERIFY(!w.dock->closedByUser());
    }

    void rowsAreOneLineHigh_andThePanelNoTallerThanItsRows()
    {
        Window w;
        QVERIFY(QTest::qWaitForWindowExposed(&w.window));
        JobsPanel *panel = w.dock->panel();
        Job *job = w.jobs.add(new Job(QStringLiteral("Evaluate rmsnorm")));
        job->setDetail(QStringLiteral("8 of 72 items"));
        job->setProgress(0.11);
        const int line = panel->view()->fontMetrics().height();
        QVERIFY2(panel->view()->sizeHintForRow(0) < 2 * line,
                 qPrintable(QString::number(panel->view()->sizeHintForRow(0))));
        // One job: about a line and a half; three: about four lines (it took 140 px for one before).
        QVERIFY2(panel->sizeHint().height() < 3 * line, qPrintable(QString::number(panel->sizeHint().height())));
        w.jobs.add(new Job(QStringLiteral("Check rmsnorm.cu")));
        w.jobs.add(new Job(QStringLiteral("Import trace")));
        QVERIFY2(panel->sizeHint().height() < 6 * line, qPrintable(QString::number(panel->sizeHint().height())));
        QTRY_VERIFY(w.dock->isVisible());
        // All three rows whole once it has come.
        QTRY_VERIFY2(panel->view()->viewport()->height() >= 3 * panel->view()->sizeHintForRow(0),
                     qPrintable(QString::number(panel->view()->viewport()->height())));
        panel->view()->viewport()->repaint(); // the one-line delegate draws every part
        job->fail(QStringLiteral("broke"));
        panel->view()->viewport()->repaint();
    }

    void emptied_theDockGoes_andTheButtonToo()
    {
        Window w;
        QVERIFY(QTest::qWaitForWindowExposed(&w.window));
        Job *job = w.jobs.add(new Job(QStringLiteral("Evaluate rmsnorm")));
        QTRY_VERIFY(w.dock->isVisible());
        job->finish(QStringLiteral("done"));
        w.jobs.clearFinished();
        QVERIFY(w.dock->isHidden());
        QVERIFY(!w.dock->statusButton()->isVisible());
    }
};

SF_TEST_MAIN(TestJobsDock)

#include "test_jobs_dock.moc"
