// The views on a run made by a real agent CLI (Claude Code): silent bypasses marked in the case matrix, whether and
// when the skill was loaded in the case detail, the activation beside the lift and the harness in Compare and Runs,
// and an item's CLI session opened in the Trace view.
#include "../core/report/AgentCliRun.h"
#include "MainWindow.h"
#include "SkippedChecks.h"
#include "compare/CaseDetailDialog.h"
#include "compare/CaseMatrixModel.h"
#include "compare/CompareView.h"
#include "jobs/JobListModel.h"
#include "project/Project.h"
#include "runs/RunGridModel.h"
#include "runs/RunsView.h"
#include "trace/TraceView.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>

using namespace sf;
using namespace sf::test;

namespace {

const QString kHaiku = QStringLiteral("anthropic:claude-haiku-4-5");
const QString kGemma = QStringLiteral("local:gemma-3-270m");
const QString kNeverLoaded = QStringLiteral("the skill was never loaded: this outcome says nothing about its content");

QModelIndex cellOf(const CaseMatrixModel &model, const QString &caseId, const QString &modelName, const QString &arm)
{
    const CaseMatrix &matrix = model.analysis()->matrix;
    return model.index(matrix.rowOf(caseId), CaseMatrixModel::FirstCellColumn + matrix.columnOf(modelName, arm));
}

const ItemResult *resultOf(const RunAnalysis &run, const QString &model, const QString &arm, const QString &caseId,
                           int repeat)
{
    for (const ItemResult &r : run.results) {
        if (r.key.model == model && r.key.arm == arm && r.key.caseId == caseId && r.key.repeat == repeat)
            return &r;
    }
    return nullptr;
}

} // namespace

class TestAgentCliViews final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::optional<Project> m_project;
    QString m_run;
    std::shared_ptr<const RunAnalysis> m_analysis;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        auto created = Project::create(m_dir.filePath(QStringLiteral("project")), QStringLiteral("CLI runs"));
        QVERIFY(std::holds_alternative<Project>(created));
        m_project.emplace(std::get<Project>(created));
        m_run = m_project->runsPath() + QStringLiteral("/20261121T100001Z-000001");
        QVERIFY(makeAgentCliRun(m_run));
        m_analysis = std::make_shared<const RunAnalysis>(loadRun(m_run));
    }

    void caseMatrix_withSkillCellsThatNeverLoadedTheSkill_areMarkedSilentBypass()
    {
        CaseMatrixModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setAnalysis(m_analysis);
        // haiku never loaded it for rmsnorm-bf16: a hollow mark, in italics, and the tooltip says what that means.
        const QModelIndex bypass = cellOf(model, QStringLiteral("rmsnorm-bf16"), kHaiku, kWithSkillArm);
        QVERIFY2(bypass.data().toString().startsWith(QStringLiteral("○ ")), qPrintable(bypass.data().toString()));
        QCOMPARE(bypass.data(CaseMatrixModel::SilentBypassRole).toInt(), 2);
        QVERIFY(bypass.data(Qt::FontRole).value<QFont>().italic());
        const QString tip = bypass.data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(kNeverLoaded), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("Repeat 1: failed, skill never loaded")), qPrintable(tip));
        // Its baseline has no skill to load: no mark. Where it was loaded, the tooltip says when.
        const QModelIndex baseline = cellOf(model, QStringLiteral("rmsnorm-bf16"), kHaiku, kBaselineArm);
        QVERIFY(!baseline.data().toString().contains(QStringLiteral("○")));
        QCOMPARE(baseline.data(CaseMatrixModel::SilentBypassRole).toInt(), 0);
        const QModelIndex loaded = cellOf(model, QStringLiteral("rmsnorm-basic"), kHaiku, kWithSkillArm);
        QCOMPARE(loaded.data().toString(), QStringLiteral("2/2"));
        QVERIFY(loaded.data(Qt::ToolTipRole).toString().contains(QStringLiteral("skill loaded after model call 1")));
        // gemma loaded it in one of two repeats: half a mark, and how many.
        const QModelIndex partly = cellOf(model, QStringLiteral("rmsnorm-basic"), kGemma, kWithSkillArm);
        QVERIFY2(partly.data().toString().startsWith(QStringLiteral("◐ ")), qPrintable(partly.data().toString()));
        QVERIFY(partly.data(Qt::ToolTipRole).toString().contains(QStringLiteral("not loaded in 1 of 2 repeats")));
        QVERIFY(!partly.data(Qt::FontRole).value<QFont>().italic());

        // "Silent bypasses" shows the cases that have one; a run of the loop in inline mode has none.
        CaseMatrixFilter filter;
        filter.setSourceModel(&model);
        filter.setShow(CaseMatrixFilter::Show::SilentBypass);
        QCOMPARE(filter.rowCount(), 5);
        model.setAnalysis(std::make_shared<const RunAnalysis>(loadRun(fixtureRun(QStringLiteral("v1")))));
        QCOMPARE(filter.rowCount(), 0);
    }

    void caseDetail_saysWhetherAndWhenTheSkillWasLoaded_andOffersTheSession()
    {
        CaseDetailDialog dialog;
        QSignalSpy requested(&dialog, &CaseDetailDialog::traceRequested);
        dialog.showCase(m_analysis, kHaiku, QStringLiteral("rmsnorm-bf16"));
        const QString withSkill = dialog.withSkillText();
        QVERIFY2(withSkill.contains(QStringLiteral("Harness: Claude Code 2.1.332")), qPrintable(withSkill));
        QVERIFY2(withSkill.contains(QStringLiteral("Skill: never loaded — a silent bypass: this outcome says nothing "
                                                   "about the skill's content")),
                 qPrintable(withSkill));
        // The CLI's steps, from its own session file; the prompt it was given.
        QVERIFY2(withSkill.contains(QStringLiteral("Two files: main.cpp and util.cpp.")), qPrintable(withSkill));
        QVERIFY(withSkill.contains(QStringLiteral("Write the kernel for case rmsnorm-bf16.")));
        QVERIFY(!withSkill.contains(QStringLiteral("No transcript stored")));
        QVERIFY(!dialog.baselineText().contains(QStringLiteral("Skill:"))); // the baseline had no skill to load

        QVERIFY(!dialog.baselineSessionButton()->isHidden());
        QVERIFY(!dialog.withSkillSessionButton()->isHidden());
        dialog.withSkillSessionButton()->click();
        QCOMPARE(requested.count(), 1);
        const ItemResult *item =
            resultOf(*m_analysis, kHaiku, kWithSkillArm, QStringLiteral("rmsnorm-bf16"), dialog.repeat());
        QVERIFY(item);
        const QString session = requested.first().first().toString();
        QCOMPARE(session, QDir(m_run).absoluteFilePath(item->harnessSession));
        QVERIFY(QFileInfo(session).isAbsolute() && QFileInfo::exists(session));

        // Loaded: after which model call, and which files of the skill's folder were read.
        dialog.showCase(m_analysis, kHaiku, QStringLiteral("rmsnorm-basic"));
        dialog.setRepeat(1);
        QVERIFY2(dialog.withSkillText().contains(QStringLiteral(
                     "Skill: loaded after model call 1; files of its folder read: SKILL.md, references/bf16.md")),
                 qPrintable(dialog.withSkillText()));

        // A run of Skillforge's own loop has no CLI session to open.
        dialog.showCase(std::make_shared<const RunAnalysis>(loadRun(fixtureRun(QStringLiteral("v1")))), kHaiku,
                        QStringLiteral("rmsnorm-basic"));
        QVERIFY(dialog.baselineSessionButton()->isHidden());
        QVERIFY(dialog.withSkillSessionButton()->isHidden());
        QVERIFY(!dialog.withSkillText().contains(QStringLiteral("Harness:")));
    }

    void compareView_namesTheHarness_andHowOftenTheSkillWasLoaded_besideTheLift()
    {
        CompareView view;
        QSignalSpy shown(&view, &CompareView::runsShown);
        QSignalSpy requested(&view, &ViewPage::traceRequested);
        view.setProject(&*m_project);
        QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy() && shown.count() > 0, 10000);
        // The run's description line names who drove the student.
        bool described = false;
        for (const QLabel *label : view.findChildren<QLabel *>())
            described = described || (label->text().contains(QStringLiteral("40 items")) &&
                                      label->text().contains(QStringLiteral("Claude Code 2.1.332")));
        QVERIFY(described);
        // Beside the lift, per model: loaded in k of n with the Wilson interval (8/10: 49–94%, 3/10: 11–60%).
        QTableWidget *lift = view.liftTable();
        int column = -1;
        for (int c = 0; c < lift->columnCount(); ++c) {
            if (lift->horizontalHeaderItem(c)->text() == QStringLiteral("Skill loaded"))
                column = c;
        }
        QVERIFY(column >= 0);
        QVERIFY(!lift->isColumnHidden(column));
        QStringList loaded; // the rows over all cases, as the view opens
        for (int row = 0; row < lift->rowCount(); ++row) {
            const QTableWidgetItem *item = lift->item(row, column);
            loaded.append(lift->item(row, 1)->text() + u' ' + (item ? item->text() : QString()));
        }
        QVERIFY2(loaded.contains(kHaiku + QStringLiteral(" skill loaded in 8 of 10 (80%, 95% CI 49–94)")),
                 qPrintable(loaded.join(u'\n')));
        QVERIFY2(loaded.contains(kGemma + QStringLiteral(" skill loaded in 3 of 10 (30%, 95% CI 11–60)")),
                 qPrintable(loaded.join(u'\n')));
        QVERIFY2(view.verdictLabel()->text().contains(QStringLiteral("skill loaded in")),
                 qPrintable(view.verdictLabel()->text()));

        // The bypassed cell's detail offers the CLI's session; asking for it goes up to the window.
        const QModelIndex source = cellOf(*view.matrixModel(), QStringLiteral("rmsnorm-bf16"), kHaiku, kWithSkillArm);
        view.openCell(view.matrixFilter()->mapFromSource(source));
        QTRY_VERIFY(view.detailDialog()->isVisible());
        view.detailDialog()->withSkillSessionButton()->click();
        QCOMPARE(requested.count(), 1);
        QVERIFY(requested.first().first().toString().endsWith(QStringLiteral("/cli-home/session.jsonl")));
        view.detailDialog()->close();

        // A run of the loop: no such column.
        QTemporaryDir other;
        auto loop = Project::create(other.filePath(QStringLiteral("p")), QStringLiteral("Loop"));
        QVERIFY(copyTree(fixtureRun(QStringLiteral("v1")),
                         std::get<Project>(loop).runsPath() + QStringLiteral("/20261121T100001Z-000001")));
        view.setProject(&std::get<Project>(loop));
        QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy() && shown.count() > 1 && view.shownRun(), 10000);
        QVERIFY(lift->isColumnHidden(column));
        view.setProject(nullptr);
    }

    void runsView_showsTheHarness_andOpensAnItemsSessionInTheTraceView()
    {
        RunsView view;
        QSignalSpy requested(&view, &ViewPage::traceRequested);
        view.setProject(&*m_project);
        view.openPath(m_run);
        QVERIFY2(view.summaryText().contains(QStringLiteral("Claude Code 2.1.332 (%1)").arg(kCliSource)),
                 qPrintable(view.summaryText()));
        view.resize(1280, 800);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QTableView *grid = view.gridView();
        const QString key = ItemKey{kHaiku, kWithSkillArm, QStringLiteral("rmsnorm-bf16"), 1}.toString();
        QModelIndex cell;
        for (int row = 0; row < view.gridModel()->rowCount(); ++row) {
            for (int column = 0; column < view.gridModel()->columnCount(); ++column) {
                if (view.gridModel()->index(row, column).data(RunGridModel::ItemKeyRole).toString() == key)
                    cell = view.gridModel()->index(row, column);
            }
        }
        QVERIFY(cell.isValid());
        grid->scrollTo(cell);
        QVERIFY(view.sessionButton()->isHidden()); // nothing clicked yet
        QTest::mouseClick(grid->viewport(), Qt::LeftButton, {}, grid->visualRect(cell).center());
        QVERIFY2(view.transcriptText().contains(QStringLiteral("Skill: never loaded — a silent bypass")),
                 qPrintable(view.transcriptText()));
        QVERIFY(view.transcriptText().contains(QStringLiteral("Two files: main.cpp and util.cpp.")));
        QVERIFY(!view.sessionButton()->isHidden());
        view.sessionButton()->click();
        QCOMPARE(requested.count(), 1);
        const QString expected = QDir(m_run).absoluteFilePath(
            resultOf(*m_analysis, kHaiku, kWithSkillArm, QStringLiteral("rmsnorm-bf16"), 1)->harnessSession);
        QCOMPARE(requested.last().first().toString(), expected);
        // A double-click on the cell opens it too.
        QTest::mouseDClick(grid->viewport(), Qt::LeftButton, {}, grid->visualRect(cell).center());
        QCOMPARE(requested.count(), 2);
        QCOMPARE(requested.last().first().toString(), expected);
    }

    void mainWindow_opensARequestedSessionInTheTraceView()
    {
        JobListModel jobs;
        MainWindow window(&jobs);
        QCOMPARE(window.openProject(m_project->rootPath(), true), QString());
        window.showView(MainWindow::View::Runs);
        const QString session = QDir(m_run).absoluteFilePath(
            resultOf(*m_analysis, kHaiku, kWithSkillArm, QStringLiteral("rmsnorm-bf16"), 1)->harnessSession);
        auto *trace = static_cast<TraceView *>(window.page(MainWindow::View::Trace));
        QSignalSpy loaded(trace, &TraceView::loaded);
        Q_EMIT window.page(MainWindow::View::Runs)->traceRequested(session);
        QCOMPARE(window.currentView(), MainWindow::View::Trace);
        QCOMPARE(trace->currentPath(), session);
        QTRY_VERIFY_WITH_TIMEOUT(loaded.count() == 1, 20000);
        QVERIFY(trace->trace());
    }
};

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    TestAgentCliViews test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_agent_cli_views.moc"
