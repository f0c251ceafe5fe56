// The window's routes to a trace (issue 35, items 11 and 22): File → Import Trace… adds a trace to the project and
// shows it in the sidebar, the sample's trace is open on a first start whichever view opens, and the sidebar's
// context menu opens, reveals and compares.
#include "MainWindow.h"
#include "SkippedChecks.h"
#include "common/ProjectSidebar.h"
#include "common/ViewPage.h"
#include "jobs/JobListModel.h"
#include "project/ProjectTreeModel.h"
#include "project/SampleProject.h"
#include "trace/TraceView.h"

#include <QAction>
#include <QFileInfo>
#include <QMenu>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

using namespace sf;
using namespace Qt::StringLiterals;

class TestMainWindowTraces final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_project;

    /// The sidebar's row for the first item of @p kind.
    static QModelIndex firstItem(MainWindow &window, ProjectItem::Kind kind)
    {
        const QAbstractItemModel *tree = window.sidebar()->treeView()->model();
        for (int row = 0; row < tree->rowCount(); ++row) {
            const QModelIndex category = tree->index(row, 0);
            if (ProjectItem::Kind(category.data(ProjectTreeModel::KindRole).toInt()) == kind &&
                tree->rowCount(category) > 0)
                return tree->index(0, 0, category);
        }
        return {};
    }

    static QAction *action(QMenu *menu, const QString &text)
    {
        for (QAction *candidate : menu->actions()) {
            if (candidate->text() == text)
                return candidate;
        }
        return nullptr;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(u"skillforge-test-window-traces"_s);
        m_project = m_dir.filePath(u"sample"_s);
        QCOMPARE(SampleProject::ensureInstalled(m_project), QString());
    }

    void importTrace_inTheFileMenu_withAKeyOfItsOwn_addsTheTraceToTheSidebar()
    {
        JobListModel jobs;
        MainWindow window(&jobs);
        QCOMPARE(window.openProject(m_project, true), QString());
        auto *import = window.findChild<QAction *>(u"importTrace"_s);
        QVERIFY(import);
        QCOMPARE(import->shortcut(), QKeySequence(u"Ctrl+Shift+O"_s));
        for (const QAction *other : window.findChildren<QAction *>()) {
            if (other != import && !other->shortcut().isEmpty())
                QVERIFY2(other->shortcut() != import->shortcut(), qPrintable(other->text()));
        }

        // What the action does once the file is chosen.
        auto *trace = static_cast<TraceView *>(window.page(MainWindow::View::Trace));
        trace->importFile(QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/trace/claude-code/stripped.jsonl"));
        const QString copy = m_project + u"/traces/stripped.jsonl"_s;
        QTRY_COMPARE_WITH_TIMEOUT(
            window.sidebar()->treeView()->currentIndex().data(ProjectTreeModel::PathRole).toString(), copy, 10000);
        QVERIFY(QFileInfo::exists(copy));
        QCOMPARE(window.currentView(), MainWindow::View::Trace);
        QCOMPARE(trace->currentPath(), copy);
        QCOMPARE(window.project()->items(ProjectItem::Kind::Trace).size(), 2);
        QVERIFY(QFile::remove(copy));
    }

    void firstStart_opensTheSamplesTrace_withoutLeavingTheViewShown()
    {
        JobListModel jobs;
        MainWindow window(&jobs);
        QCOMPARE(window.openProject(m_project, true), QString());
        QVERIFY(window.openFirstItemFor(MainWindow::View::Compare));
        QVERIFY(window.openFirstTraceInBackground());
        QCOMPARE(window.currentView(), MainWindow::View::Compare);
        auto *trace = static_cast<TraceView *>(window.page(MainWindow::View::Trace));
        QTRY_VERIFY_WITH_TIMEOUT(trace->trace() != nullptr, 10000);
        QCOMPARE(QFileInfo(trace->currentPath()).fileName(), u"rmsnorm-flux-session.jsonl"_s);
    }

    void sidebarContextMenu_opensRevealsAndCompares()
    {
        JobListModel jobs;
        MainWindow window(&jobs);
        QCOMPARE(window.openProject(m_project, true), QString());
        ProjectSidebar *sidebar = window.sidebar();
        QCOMPARE(sidebar->contextMenuFor(sidebar->treeView()->model()->index(0, 0)), nullptr); // a category

        const QModelIndex run = firstItem(window, ProjectItem::Kind::Run);
        QVERIFY(run.isValid());
        const QString runDir = run.data(ProjectTreeModel::PathRole).toString();
        std::unique_ptr<QMenu> menu(sidebar->contextMenuFor(run));
        QVERIFY(menu);
        QSignalSpy revealed(sidebar, &ProjectSidebar::revealRequested);
        action(menu.get(), u"Reveal in File Manager"_s)->trigger();
        QCOMPARE(revealed.count(), 1);
        QCOMPARE(QFileInfo(revealed.first().first().toString()), QFileInfo(runDir));
        QVERIFY(action(menu.get(), u"Compare"_s));
        action(menu.get(), u"Compare"_s)->trigger();
        QCOMPARE(window.currentView(), MainWindow::View::Compare);
        QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(window.page(MainWindow::View::Compare)->shownRunDir()), QFileInfo(runDir),
                                  10000); // read off the UI thread

        // A trace's menu: no Compare; Open opens it, Reveal shows the folder it lies in.
        const QModelIndex traceItem = firstItem(window, ProjectItem::Kind::Trace);
        std::unique_ptr<QMenu> traceMenu(sidebar->contextMenuFor(traceItem));
        QVERIFY(!action(traceMenu.get(), u"Compare"_s));
        action(traceMenu.get(), u"Reveal in File Manager"_s)->trigger();
        QCOMPARE(QFileInfo(revealed.last().first().toString()), QFileInfo(m_project + u"/traces"_s));
        action(traceMenu.get(), u"Open"_s)->trigger();
        QCOMPARE(MainWindow::viewName(window.currentView()), MainWindow::viewName(MainWindow::View::Trace));
        auto *trace = static_cast<TraceView *>(window.page(MainWindow::View::Trace));
        QCOMPARE(trace->currentPath(), traceItem.data(ProjectTreeModel::PathRole).toString());
    }
};

SF_TEST_MAIN(TestMainWindowTraces)
#include "test_main_window_traces.moc"
