#include "MainWindow.h"
#include "OffscreenScreen.h"
#include "SkippedChecks.h"
#include "TestFiles.h"
#include "common/JobsPanel.h"
#include "common/ProjectSidebar.h"
#include "compare/CompareView.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"
#include "kernels/KernelsView.h"
#include "project/ProjectTreeModel.h"
#include "project/SampleProject.h"
#include "runs/RunsView.h"
#include "skill/SkillView.h"
#include "trace/TraceView.h"

#include <QApplication>
#include <QDockWidget>
#include <QFile>
#include <QMenu>
#include <QPlainTextEdit>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace sf;

class TestMainWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_project;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("skillforge-test-window"));
        m_project = m_dir.filePath(QStringLiteral("sample"));
        QCOMPARE(SampleProject::ensureInstalled(m_project), QString());
    }

    void openProject_sample_fillsSidebarAndTitle()
    {
        JobListModel jobs;
        MainWindow window(&jobs);
        QCOMPARE(window.openProject(m_project, true), QString());
        QVERIFY(window.windowTitle().contains(window.project()->name()));
        QAbstractItemModel *tree = window.sidebar()->treeView()->model();
        QCOMPARE(tree->rowCount(), 5);
        QVERIFY(tree->rowCount(tree->index(0, 0)) >= 1); // the trace
    }

    void jobsDock_awayWhileEmpty_growsToShowNewJobsWhole_andGoesWhenCleared()
    {
        JobListModel jobs;
        MainWindow window(&jobs);
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *dock = window.findChild<QDockWidget *>(QStringLiteral("jobsDock"));
        auto *panel = window.findChild<JobsPanel *>();
        QVERIFY(dock && panel);
        QVERIFY(dock->isHidden()); // no job: no panel taking the views' height
        Job *first = jobs.add(new Job(QStringLiteral("First job")));
        Job *second = jobs.add(new Job(QStringLiteral("Second job")));
        QTRY_VERIFY(dock->isVisible());
        // Both rows whole, not one and a half.
        QTRY_VERIFY2(panel->view()->viewport()->height() >= 2 * panel->view()->sizeHintForRow(0),
                     qPrintable(QString::number(panel->view()->viewport()->height())));
        first->finish(QStringLiteral("done"));
        second->fail(QStringLiteral("broke"));
        jobs.clearFinished();
        QCOMPARE(jobs.rowCount(), 0);
        QVERIFY(dock->isHidden());
    }

    void openRecent_namesProjectsByTheirName_withTheFolderAsTooltip_andHelpHasTheGuide()
    {
        JobListModel jobs;
        MainWindow window(&jobs);
        QCOMPARE(window.openProject(m_project, true), QString());
        QMenu *recent = nullptr;
        for (QMenu *menu : window.findChildren<QMenu *>())
            if (menu->title() == u"Open &Recent")
                recent = menu;
        QVERIFY(recent);
        const QAction *first = recent->actions().value(0);
        QVERIFY(first);
        QCOMPARE(first->text(), window.project()->name()); // "RMSNorm kernels for diffusers", not a path
        const QString folder = QDir::toNativeSeparators(QFileInfo(m_project).absoluteFilePath());
        QCOMPARE(first->toolTip(), folder);
        QCOMPARE(first->statusTip(), folder);
        QVERIFY(recent->toolTipsVisible());
        // Help → Documentation, on F1.
        auto *documentation = window.findChild<QAction *>(QStringLiteral("documentation"));
        QVERIFY(documentation);
        QCOMPARE(documentation->shortcut(), QKeySequence(QKeySequence::HelpContents));
    }

    void openProject_brokenProjectFile_keepsCurrentProjectAndNamesLine()
    {
        QTemporaryDir broken;
        QFile file(broken.filePath(QStringLiteral("skillforge.json")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\n\"name\": }\n");
        file.close();
        JobListModel jobs;
        MainWindow window(&jobs);
        QCOMPARE(window.openProject(m_project, true), QString());
        const QString error = window.openProject(broken.path(), true);
        QVERIFY2(error.contains(QStringLiteral("skillforge.json:2:")), qPrintable(error));
        QCOMPARE(window.project()->rootPath(), QFileInfo(m_project).absoluteFilePath());
    }

    void selectingTrace_importsItAsAJobAndShowsTheTimeline()
    {
        JobListModel jobs;
        MainWindow window(&jobs);
        window.openProject(m_project, true);
        QVERIFY(window.openFirstItemFor(MainWindow::View::Trace));
        QCOMPARE(window.currentView(), MainWindow::View::Trace);
        auto *trace = static_cast<TraceView *>(window.page(MainWindow::View::Trace));
        QTRY_VERIFY_WITH_TIMEOUT(!trace->isBusy() && trace->trace() != nullptr, 10000);
        QVERIFY(trace->timeline()->model()->rowCount() > 0);
        QVERIFY(!trace->textEditor()->document()->isEmpty());
        QVERIFY(trace->textEditor()->isReadOnly());
        QCOMPARE(jobs.rowCount(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(jobs.jobAt(0)->state(), Job::State::Finished, 5000);
    }

    void editingSkill_saveWritesFileAndClearsModified()
    {
        JobListModel jobs;
        MainWindow window(&jobs);
        window.openProject(m_project, true);
        QVERIFY(window.openFirstItemFor(MainWindow::View::Skill));
        auto *skill = static_cast<SkillView *>(window.page(MainWindow::View::Skill));
        QVERIFY(skill->currentFile().endsWith(QStringLiteral("SKILL.md")));
        QPlainTextEdit *editor = skill->textEditor();
        editor->moveCursor(QTextCursor::End);
        editor->insertPlainText(QStringLiteral("\nAn added line.\n"));
        QVERIFY(skill->isModified());
        QVERIFY(window.isWindowModified());
        QVERIFY(skill->save());
        QVERIFY(!skill->isModified());
        QFile file(skill->currentFile());
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().endsWith("An added line.\n"));
        editor->undo();
        QVERIFY(skill->isModified());
    }

    void secondLaunch_restoresTheSidebarWidth()
    {
        int firstWidth = 0;
        {
            JobListModel jobs;
            MainWindow window(&jobs);
            QCOMPARE(window.openProject(m_project, true), QString());
            window.resize(1240, 760);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            firstWidth = window.sidebar()->width();
            QVERIFY2(firstWidth >= 200, qPrintable(QString::number(firstWidth)));
            window.close(); // saves geometry and dock state
        }
        JobListModel jobs;
        MainWindow again(&jobs);
        QCOMPARE(again.openProject(m_project, true), QString());
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QTRY_VERIFY2(qAbs(again.sidebar()->width() - firstWidth) <= 8,
                     qPrintable(QStringLiteral("%1 then %2").arg(firstWidth).arg(again.sidebar()->width())));
    }

    void openFirstItem_forCompare_selectsTheNewestRun_andStaysOnCompare()
    {
        JobListModel jobs;
        MainWindow window(&jobs);
        QCOMPARE(window.openProject(m_project, true), QString());
        QVERIFY(window.openFirstItemFor(MainWindow::View::Compare));
        QCOMPARE(window.currentView(), MainWindow::View::Compare);
        const QModelIndex current = window.sidebar()->treeView()->currentIndex();
        QCOMPARE(ProjectItem::Kind(current.data(ProjectTreeModel::KindRole).toInt()), ProjectItem::Kind::Run);
        QVERIFY(window.openFirstItemFor(MainWindow::View::Skill));
        QCOMPARE(ProjectItem::Kind(window.sidebar()->treeView()->currentIndex().data(ProjectTreeModel::KindRole).toInt()),
                 ProjectItem::Kind::Skill);
    }

    void evaluationFinished_showsItsRunInCompare_andListsItInTheSidebar()
    {
        QTemporaryDir dir;
        const QString project = dir.filePath(QStringLiteral("sample"));
        QCOMPARE(SampleProject::ensureInstalled(project), QString());
        JobListModel jobs;
        MainWindow window(&jobs);
        QCOMPARE(window.openProject(project, true), QString());
        auto *compare = static_cast<CompareView *>(window.page(MainWindow::View::Compare));
        QTRY_VERIFY_WITH_TIMEOUT(!compare->isBusy() && compare->shownRun(), 10000);
        // A run written while the window is open, older than the sample's: not the one Compare shows first.
        const QString run = QFileInfo(project + QStringLiteral("/runs/20261121T100001Z-000001")).absoluteFilePath();
        QVERIFY(test::copyTree(QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/runs/skill-v1"), run));
        Q_EMIT static_cast<RunsView *>(window.page(MainWindow::View::Runs))->evaluationFinished(false, run);
        QTRY_COMPARE_WITH_TIMEOUT(compare->shownRunDir(), run, 10000);
        const QAbstractItemModel *tree = window.sidebar()->treeView()->model();
        QModelIndex runs;
        for (int row = 0; row < tree->rowCount(); ++row) {
            if (ProjectItem::Kind(tree->index(row, 0).data(ProjectTreeModel::KindRole).toInt()) ==
                ProjectItem::Kind::Run)
                runs = tree->index(row, 0);
        }
        QStringList listed;
        for (int row = 0; row < tree->rowCount(runs); ++row)
            listed.append(tree->index(row, 0, runs).data(ProjectTreeModel::PathRole).toString());
        QVERIFY2(listed.contains(run), qPrintable(listed.join(u'\n')));
    }

    void viewNames_roundTrip()
    {
        for (const MainWindow::View view : MainWindow::AllViews)
            QCOMPARE(MainWindow::viewFromName(MainWindow::viewName(view)), view);
        QVERIFY(!MainWindow::viewFromName(QStringLiteral("nope")));
    }

    void kernelsView_reportsToolchainOrItsAbsence()
    {
        JobListModel jobs;
        MainWindow window(&jobs);
        window.openProject(m_project, true);
        window.showView(MainWindow::View::Kernels);
        auto *kernels = static_cast<KernelsView *>(window.page(MainWindow::View::Kernels));
        QTRY_VERIFY_WITH_TIMEOUT(kernels->toolchainText().startsWith(QStringLiteral("Compiler:")), 30000);
        QVERIFY(kernels->toolchainText().contains(QStringLiteral("GPU:")));
    }

    void runsView_sampleProject_listsItsShippedRun()
    {
        JobListModel jobs;
        MainWindow window(&jobs);
        window.openProject(m_project, true);
        QCOMPARE(static_cast<RunsView *>(window.page(MainWindow::View::Runs))->runCount(), 1);
    }
};

int main(int argc, char **argv)
{
    // The smallest screen supported (1280×800), not the offscreen platform's 800×800: windows are sized for it.
    QTemporaryDir screens;
    if (!test::useOffscreenScreen(QSize(1280, 800), screens.filePath(QStringLiteral("screens.json"))))
        return 2;
    QApplication app(argc, argv);
    TestMainWindow test;
    QTEST_SET_MAIN_SOURCE_PATH
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_main_window.moc"
