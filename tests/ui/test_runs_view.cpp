#include "ChatReplies.h"
#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "common/Theme.h"
#include "eval/EvalRunner.h"
#include "eval/EvalSession.h"
#include "eval/RunStore.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/LocalRuntime.h"
#include "llm/ProviderRegistry.h"
#include "project/AppSettings.h"
#include "project/Project.h"
#include "runs/EvalLaunchDialog.h"
#include "runs/RunGridModel.h"
#include "runs/RunsView.h"
#include "usage/Pricing.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace sf;
using namespace sf::test;

namespace {

ScriptedResponse reply(const QString &text, int delayMs, int promptTokens = 10)
{
    return scriptedReply(text, {promptTokens, 2, QStringLiteral("student"), delayMs});
}

void write(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
}

ItemResult result(const QString &arm, const QString &caseId, bool passed)
{
    ItemResult r;
    r.key = {QStringLiteral("generic:s"), arm, caseId, 1};
    r.passed = passed;
    r.stopReason = StopReason::Answered;
    return r;
}

} // namespace

/// The Runs view as a user drives it: launch an evaluation, watch the grid fill, read a transcript, cancel, resume.
class TestRunsView final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::optional<Project> m_project;
    std::unique_ptr<ScriptedHttpServer> m_server;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_chat;
    int m_delayMs = 0;
    bool m_secondCaseFaults = false; ///< the provider refuses the "second" case (HTTP 400)
    int m_promptTokens = 10;         ///< the input each reply says it read

    EvalPlan plan() const
    {
        EvalPlan p;
        p.skillDir = m_project->skillsPath() + QStringLiteral("/rmsnorm");
        p.suitePath = m_project->testsPath() + QStringLiteral("/basic.json");
        p.runsDir = m_project->runsPath();
        p.config.models = {QStringLiteral("generic:s")};
        p.config.runs = 2;
        p.config.concurrency = 2;
        p.config.studentTools = sf::ToolOffer::Never;
        return p;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        AppSettings().setLastStudentModels({}); // what an earlier run of these tests used is not a default here
        auto created = Project::create(m_dir.filePath(QStringLiteral("project")), QStringLiteral("Runs test"));
        QVERIFY(std::holds_alternative<Project>(created));
        m_project.emplace(std::get<Project>(created));
        write(m_project->skillsPath() + QStringLiteral("/rmsnorm/SKILL.md"),
              "---\nname: rmsnorm\ndescription: RMSNorm.\n---\nAnswer with MAGIC-EPS.\n");
        write(m_project->testsPath() + QStringLiteral("/basic.json"),
              R"([{"id": "a", "input": "first", "expected": {"contains": "MAGIC-EPS"}},
                  {"id": "b", "input": "second", "expected": {"contains": "MAGIC-EPS"}}])");
        m_server = std::make_unique<ScriptedHttpServer>();
        QVERIFY(m_server->listen());
        m_server->routeHandler("POST", "/v1/chat/completions", [this](const RecordedRequest &request) {
            if (m_secondCaseFaults && request.body.contains("second"))
                return ScriptedResponse::json(400, R"({"error":{"message":"context length exceeded"}})");
            return reply(request.body.contains("MAGIC-EPS") ? QStringLiteral("MAGIC-EPS") : QStringLiteral("no"),
                         m_delayMs, m_promptTokens);
        });
        qputenv("GENERIC_BASE_URL", m_server->baseUrl().toEncoded() + "/v1");
        m_engine = std::make_unique<HttpEngine>();
        m_providers = std::make_unique<ProviderRegistry>();
        m_chat = std::make_unique<ChatClient>(*m_engine, *m_providers, nullptr);
    }

    void cleanupTestCase()
    {
        m_chat.reset();
        m_providers.reset();
        m_engine.reset();
        m_server.reset();
    }

    void gridModel_fillsCellsAsResultsArrive()
    {
        RunGridModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QList<ItemKey> items{{QStringLiteral("generic:s"), kWithSkillArm, QStringLiteral("a"), 1},
                                   {QStringLiteral("generic:s"), kBaselineArm, QStringLiteral("a"), 1},
                                   {QStringLiteral("generic:s"), kBaselineArm, QStringLiteral("b"), 1},
                                   {QStringLiteral("generic:s"), kWithSkillArm, QStringLiteral("b"), 1}};
        model.reset(items, {result(kBaselineArm, QStringLiteral("a"), false)});
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.columnCount(), 2);
        // The GUI's words for the arms, as in Compare; the colours are Compare's pass and fail colours too.
        QCOMPARE(model.headerData(0, Qt::Horizontal, Qt::DisplayRole).toString(),
                 QStringLiteral("generic:s\nwithout skill"));
        QCOMPARE(model.headerData(1, Qt::Horizontal, Qt::DisplayRole).toString(),
                 QStringLiteral("generic:s\nwith skill"));
        QCOMPARE(model.index(0, 0).data(Qt::BackgroundRole).value<QColor>(), Theme::passShareBackground(0.0));
        QCOMPARE(model.index(0, 0).data(RunGridModel::StateRole).value<RunGridModel::CellState>(),
                 RunGridModel::CellState::Failed);
        QCOMPARE(model.index(0, 1).data(RunGridModel::StateRole).value<RunGridModel::CellState>(),
                 RunGridModel::CellState::Pending);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        model.setRunning(items[0]);
        QCOMPARE(model.index(0, 1).data(RunGridModel::StateRole).value<RunGridModel::CellState>(),
                 RunGridModel::CellState::Running);
        ItemResult error = result(kWithSkillArm, QStringLiteral("a"), false);
        error.error = QStringLiteral("HTTP 500");
        model.setResult(error);
        QCOMPARE(changed.count(), 2);
        QCOMPARE(model.index(0, 1).data(RunGridModel::StateRole).value<RunGridModel::CellState>(),
                 RunGridModel::CellState::Error);
        QCOMPARE(model.index(0, 1).data(Qt::ToolTipRole).toString(), QStringLiteral("HTTP 500"));
        QCOMPARE(model.resultAt(model.index(0, 1))->error, QStringLiteral("HTTP 500"));
        QVERIFY(!model.resultAt(model.index(1, 1)));
    }

    void launchDialog_plansFromTheProject_andSaysWhatTheRunWillTake()
    {
        EvalLaunchDialog dialog(*m_project, m_chat.get());
        const EvalPlan p = dialog.plan();
        QVERIFY(p.skillDir.endsWith(QStringLiteral("/rmsnorm")));
        // A suite that exists is chosen; the skill has no tests of its own, so none are offered.
        QCOMPARE(p.suitePath, QFileInfo(m_project->testsPath() + QStringLiteral("/basic.json")).absoluteFilePath());
        auto *suites = dialog.findChild<QComboBox *>(QStringLiteral("suiteChoice"));
        QCOMPARE(suites->count(), 1);
        QCOMPARE(p.runsDir, m_project->runsPath());
        // The embedded model first; the project names no other student here.
        QCOMPARE(p.config.models.value(0), LocalRuntime::qualifiedModelName());
        // 2 cases x the default 3 repeats x 2 arms x 1 model, and a time, before Run.
        const QString summary = dialog.summaryText();
        QVERIFY2(summary.contains(QStringLiteral("12 items")) && summary.contains(QStringLiteral("about ")),
                 qPrintable(summary));
        // What the concurrency becomes for the embedded model, and why.
        QVERIFY2(summary.contains(QStringLiteral("Concurrency 4: local 4")), qPrintable(summary));
        QVERIFY2(!summary.contains(QStringLiteral("--")), qPrintable(summary)); // GUI words, not flags
    }

    void launchDialog_casesWithTheirOwnRepeats_sayWhichWins_andTheUserChooses()
    {
        write(m_project->testsPath() + QStringLiteral("/own-repeats.json"),
              R"([{"id": "a", "input": "first", "repeats": 3, "expected": {"contains": "MAGIC-EPS"}},
                  {"id": "b", "input": "second", "expected": {"contains": "MAGIC-EPS"}}])");
        EvalLaunchDialog dialog(*m_project, m_chat.get());
        auto *suites = dialog.findChild<QComboBox *>(QStringLiteral("suiteChoice"));
        auto *repeats = dialog.findChild<QSpinBox *>(QStringLiteral("repeats"));
        auto *forEveryCase = dialog.findChild<QCheckBox *>(QStringLiteral("repeatsForEveryCase"));
        QVERIFY(repeats && forEveryCase);
        QVERIFY(forEveryCase->isHidden()); // basic.json: no case sets its own repeats
        const int ownRepeats = suites->findData(
            QFileInfo(m_project->testsPath() + QStringLiteral("/own-repeats.json")).absoluteFilePath());
        QVERIFY(ownRepeats >= 0);
        suites->setCurrentIndex(ownRepeats);
        repeats->setValue(1);
        QVERIFY(!forEveryCase->isHidden());
        QVERIFY2(forEveryCase->text().contains(QStringLiteral("1 case")), qPrintable(forEveryCase->text()));
        // a runs 3 times, b once: 4 per arm.
        QString summary = dialog.summaryText();
        QVERIFY2(summary.contains(QStringLiteral("8 items")) && summary.contains(QStringLiteral("win over Repeats")),
                 qPrintable(summary));
        QVERIFY(!dialog.plan().config.runsForEveryCase);
        forEveryCase->setChecked(true);
        summary = dialog.summaryText();
        QVERIFY2(summary.contains(QStringLiteral("4 items")) && summary.contains(QStringLiteral("every case")),
                 qPrintable(summary));
        QVERIFY(dialog.plan().config.runsForEveryCase);
        QCOMPARE(EvalRunner::matrix(std::get<TestSuite>(readTestSuite(dialog.plan().suitePath)), dialog.plan().config)
                     .size(),
                 4);
        QFile::remove(m_project->testsPath() + QStringLiteral("/own-repeats.json"));
    }

    void launchDialog_namesModelsThatCannotBeReached()
    {
        EvalLaunchDialog dialog(*m_project, m_chat.get());
        auto *models = dialog.findChild<QPlainTextEdit *>(QStringLiteral("studentModels"));
        qunsetenv("HF_TOKEN");
        models->setPlainText(QStringLiteral("generic:student\nhf:some/model"));
        const QString summary = dialog.summaryText();
        QVERIFY2(summary.contains(QStringLiteral("hf:some/model cannot be reached")) &&
                     summary.contains(QStringLiteral("HF_TOKEN")),
                 qPrintable(summary));
        QVERIFY(!summary.contains(QStringLiteral("generic:student cannot")));
    }

    void launchDialog_remembersTheModelsOfTheLastRun()
    {
        {
            EvalLaunchDialog dialog(*m_project, m_chat.get());
            QVERIFY(dialog.minimumWidth() >= 600);
            auto *models = dialog.findChild<QPlainTextEdit *>(QStringLiteral("studentModels"));
            QVERIFY(models);
            // One per line, commas too; blanks and repeats dropped.
            models->setPlainText(QStringLiteral("generic:student\n\ngeneric:other, generic:student\n"));
            QCOMPARE(dialog.plan().config.models, QStringList({QStringLiteral("generic:student"), QStringLiteral("generic:other")}));
            dialog.accept();
        }
        EvalLaunchDialog again(*m_project, m_chat.get());
        QCOMPARE(again.plan().config.models, QStringList({QStringLiteral("generic:student"), QStringLiteral("generic:other")}));
        AppSettings().setLastStudentModels({});
        EvalLaunchDialog fresh(*m_project, m_chat.get());
        QCOMPARE(fresh.plan().config.models.value(0), LocalRuntime::qualifiedModelName());
    }

    void withoutServices_theLaunchButtonsAreHidden()
    {
        RunsView view;
        view.setProject(&*m_project);
        for (QPushButton *button : view.findChildren<QPushButton *>())
            QVERIFY(button->isHidden());
    }

    void evaluation_fillsTheGrid_andAClickShowsTheTranscript()
    {
        JobListModel jobs;
        RunsView view;
        view.setProject(&*m_project);
        view.setEvalServices(m_chat.get(), &jobs);
        QSignalSpy finished(&view, &RunsView::evaluationFinished);
        m_delayMs = 0;
        QVERIFY(view.startEvaluation(plan()));
        QCOMPARE(jobs.rowCount(), 1);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        QCOMPARE(finished.first().first().toBool(), false);
        RunGridModel *grid = view.gridModel();
        QCOMPARE(grid->rowCount(), 4);    // 2 cases x 2 repeats
        QCOMPARE(grid->columnCount(), 2); // baseline, with_skill
        for (int row = 0; row < 4; ++row) {
            QCOMPARE(grid->index(row, 0).data(RunGridModel::StateRole).value<RunGridModel::CellState>(),
                     RunGridModel::CellState::Failed);
            QCOMPARE(grid->index(row, 1).data(RunGridModel::StateRole).value<RunGridModel::CellState>(),
                     RunGridModel::CellState::Passed);
        }
        QVERIFY2(view.summaryText().contains(QStringLiteral("+100 pts")), qPrintable(view.summaryText()));
        QVERIFY2(view.summaryText().contains(QStringLiteral("0/4 (0%)\t4/4 (100%)")), qPrintable(view.summaryText()));
        auto *table = view.findChild<QTableView *>(QStringLiteral("runGrid"));
        Q_EMIT table->clicked(grid->index(0, 1));
        QVERIFY2(view.transcriptText().contains(QStringLiteral("MAGIC-EPS")), qPrintable(view.transcriptText()));
        QVERIFY(view.transcriptText().contains(QStringLiteral("── assistant ──")));
        // The item and its checks in people's words: the arm as "with skill", the case's expected text as such.
        QVERIFY2(view.transcriptText().contains(QStringLiteral(" · with skill · ")), qPrintable(view.transcriptText()));
        QVERIFY(view.transcriptText().contains(QStringLiteral("] expected text: ")));
        QVERIFY(!view.transcriptText().contains(QStringLiteral("with_skill")));
        QVERIFY(!view.transcriptText().contains(QStringLiteral("expected.contains")));
        QCOMPARE(view.runCount(), 1);
    }

    void whileItRuns_theStatusCountsTheCellsThatSayRunning()
    {
        JobListModel jobs;
        RunsView view;
        view.setProject(&*m_project);
        view.setEvalServices(m_chat.get(), &jobs);
        QSignalSpy finished(&view, &RunsView::evaluationFinished);
        m_delayMs = 150;
        EvalPlan oneAtATime = plan();
        oneAtATime.config.concurrency = 1;
        QVERIFY(view.startEvaluation(oneAtATime));
        RunGridModel *grid = view.gridModel();
        QLabel *status = nullptr;
        for (QLabel *label : view.findChildren<QLabel *>())
            if (label->text().contains(QStringLiteral("items done")))
                status = label;
        QVERIFY(status);
        static const QRegularExpression running(QStringLiteral("(\\d+) running"));
        int checks = 0, sawOneRunning = 0;
        while (finished.isEmpty() && checks < 2000) {
            QTest::qWait(5);
            int cells = 0;
            for (int row = 0; row < grid->rowCount(); ++row)
                for (int column = 0; column < grid->columnCount(); ++column)
                    cells += grid->index(row, column).data(RunGridModel::StateRole).value<RunGridModel::CellState>() ==
                             RunGridModel::CellState::Running;
            if (!finished.isEmpty())
                break;
            const QRegularExpressionMatch said = running.match(status->text());
            QVERIFY2(said.hasMatch(), qPrintable(status->text()));
            QCOMPARE(said.captured(1).toInt(), cells);
            QVERIFY(cells <= 1);
            sawOneRunning += cells;
            ++checks;
        }
        QCOMPARE(finished.count(), 1);
        QVERIFY(sawOneRunning > 0);
    }

    void cancel_thenResume_completesTheMatrix()
    {
        JobListModel jobs;
        RunsView view;
        view.setProject(&*m_project);
        view.setEvalServices(m_chat.get(), &jobs);
        QSignalSpy finished(&view, &RunsView::evaluationFinished);
        m_delayMs = 300;
        QVERIFY(view.startEvaluation(plan()));
        RunGridModel *grid = view.gridModel();
        auto passedOrFailed = [grid] {
            int n = 0;
            for (int row = 0; row < grid->rowCount(); ++row)
                for (int column = 0; column < grid->columnCount(); ++column) {
                    const auto state =
                        grid->index(row, column).data(RunGridModel::StateRole).value<RunGridModel::CellState>();
                    n += state == RunGridModel::CellState::Passed || state == RunGridModel::CellState::Failed;
                }
            return n;
        };
        QTRY_VERIFY_WITH_TIMEOUT(passedOrFailed() >= 2, 20000);
        view.cancelEvaluation();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 5000);
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY(passedOrFailed() < 8);
        QPushButton *resume = nullptr;
        for (QPushButton *button : view.findChildren<QPushButton *>())
            if (button->text() == QLatin1String("Resume"))
                resume = button;
        QVERIFY(resume && resume->isEnabled());
        m_delayMs = 0;
        resume->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 20000);
        QCOMPARE(finished.last().first().toBool(), false);
        QCOMPARE(passedOrFailed(), 8);
        QVERIFY(!resume->isEnabled());
    }

    // Issue 46: a paid student's run shows what it spent in its job; New Evaluation's spending cap stops it, and
    // Resume finishes it.
    void spendingCap_stopsTheRunInTheJobsPanel_andResumeFinishesIt_withTheSpendShown()
    {
        QDir().mkpath(QFileInfo(Pricing::userFilePath()).absolutePath());
        write(Pricing::userFilePath(), R"({"prices": [{"pattern": "generic:s", "effective": "2025-01-01",
                                           "usdPerMillionTokens": {"input": 1, "output": 0}}]})");
        Pricing::reload();
        m_promptTokens = 100000; // $0.1000 an item
        m_delayMs = 0;
        const auto restore = qScopeGuard([this] {
            m_promptTokens = 10;
            QFile::remove(Pricing::userFilePath());
            Pricing::reload();
        });
        JobListModel jobs;
        RunsView view;
        view.setProject(&*m_project);
        view.setEvalServices(m_chat.get(), &jobs);
        QSignalSpy finished(&view, &RunsView::evaluationFinished);
        EvalPlan capped = plan();
        capped.maxCostUsd = 0.25;
        QVERIFY(view.startEvaluation(capped));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        QCOMPARE(jobs.rowCount(), 1);
        Job *job = jobs.jobAt(0);
        QCOMPARE(job->state(), Job::State::Failed);
        QCOMPARE(job->detail(), QStringLiteral("Spending cap reached: $0.2000 spent of a $0.2500 cap. Resume finishes "
                                               "the run, without a cap."));
        const QString runDir = finished.first().last().toString();
        QCOMPARE(std::get<RunStore>(RunStore::open(runDir, RunStore::Access::ReadOnly)).results().size(), 2);

        QPushButton *resume = nullptr;
        for (QPushButton *button : view.findChildren<QPushButton *>())
            if (button->text() == QLatin1String("Resume"))
                resume = button;
        QVERIFY(resume && resume->isEnabled());
        resume->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 20000);
        QCOMPARE(jobs.rowCount(), 2);
        Job *resumed = jobs.jobAt(0); // the newest job is listed first
        QCOMPARE(resumed->state(), Job::State::Finished);
        QCOMPARE(resumed->detail(), QStringLiteral("8 items, $0.8000 spent"));
    }

    void launchDialog_spendingCap_needsAPriceForEveryStudent()
    {
        EvalLaunchDialog dialog(*m_project, m_chat.get());
        auto *models = dialog.findChild<QPlainTextEdit *>();
        QVERIFY(models);
        models->setPlainText(QStringLiteral("generic:s"));
        auto *cap = dialog.findChild<QDoubleSpinBox *>(QStringLiteral("maxCost"));
        QVERIFY(cap);
        QCOMPARE(cap->text(), QStringLiteral("No cap"));
        QVERIFY(!dialog.plan().maxCostUsd);
        cap->setValue(2.5);
        QCOMPARE(dialog.plan().maxCostUsd, std::optional<double>(2.5));
        QVERIFY2(
            dialog.summaryText().contains(QStringLiteral("A spending cap needs a price for every student: no table "
                                                         "prices generic:s")),
            qPrintable(dialog.summaryText()));
        auto *buttons = dialog.findChild<QDialogButtonBox *>();
        QVERIFY(!buttons->button(QDialogButtonBox::Ok)->isEnabled());
    }

    void runWrittenByAnotherWriter_isWatched_andResumeWaits()
    {
        // Another writer (here a store holding the run's lock, as `skillforge eval` in a terminal would).
        RunManifest manifest;
        manifest.skillName = QStringLiteral("rmsnorm");
        manifest.models = {{QStringLiteral("generic:s"), QStringLiteral("generic"), {}}};
        manifest.status = QStringLiteral("running");
        manifest.plannedItems = 4;
        auto created = RunStore::create(m_project->runsPath(), manifest);
        QVERIFY(std::holds_alternative<RunStore>(created));
        RunStore writer = std::get<RunStore>(std::move(created));
        QCOMPARE(writer.append(result(kBaselineArm, QStringLiteral("a"), false)), QString());

        JobListModel jobs;
        RunsView view;
        view.setProject(&*m_project);
        view.setEvalServices(m_chat.get(), &jobs);
        view.openPath(writer.dir());
        QPushButton *resume = nullptr;
        for (QPushButton *button : view.findChildren<QPushButton *>())
            if (button->text() == QLatin1String("Resume"))
                resume = button;
        QVERIFY(resume);
        QVERIFY(!resume->isEnabled());
        QVERIFY2(resume->toolTip().contains(QStringLiteral("Being written by")), qPrintable(resume->toolTip()));
        QVERIFY2(view.summaryText().contains(QStringLiteral("Being written by")), qPrintable(view.summaryText()));
        QVERIFY(view.summaryText().contains(QStringLiteral("1 item so far")));

        // The user reads a cell while it grows; the view follows, and the cell stays the one selected.
        auto *grid = view.findChild<QTableView *>(QStringLiteral("runGrid"));
        QVERIFY(grid);
        grid->setCurrentIndex(view.gridModel()->index(0, 0));
        const QString readCell = grid->currentIndex().data(RunGridModel::ItemKeyRole).toString();
        QVERIFY(!readCell.isEmpty());
        QCOMPARE(writer.append(result(kWithSkillArm, QStringLiteral("a"), true)), QString());
        QTRY_VERIFY_WITH_TIMEOUT(view.summaryText().contains(QStringLiteral("2 items so far")), 5000);
        QCOMPARE(grid->currentIndex().data(RunGridModel::ItemKeyRole).toString(), readCell);

        // The writer is done: Resume is offered again, and the view stops watching.
        writer.releaseWriterLock();
        QTRY_VERIFY_WITH_TIMEOUT(resume->isEnabled(), 5000);
        QVERIFY(!view.summaryText().contains(QStringLiteral("Being written by")));
        QDir(writer.dir()).removeRecursively();
    }

    void finishedRunWithProviderErrors_resumeRetriesOnlyThose()
    {
        JobListModel jobs;
        RunsView view;
        view.setProject(&*m_project);
        view.setEvalServices(m_chat.get(), &jobs);
        QSignalSpy finished(&view, &RunsView::evaluationFinished);
        m_delayMs = 0;
        m_secondCaseFaults = true;
        QVERIFY(view.startEvaluation(plan()));
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        RunGridModel *grid = view.gridModel();
        auto count = [grid](RunGridModel::CellState wanted) {
            int n = 0;
            for (int row = 0; row < grid->rowCount(); ++row)
                for (int column = 0; column < grid->columnCount(); ++column)
                    n += grid->index(row, column).data(RunGridModel::StateRole).value<RunGridModel::CellState>() ==
                         wanted;
            return n;
        };
        QCOMPARE(count(RunGridModel::CellState::Error), 4); // case b: 2 repeats x 2 arms
        // The Jobs panel says how many items erred and points to Resume, which runs only those again.
        QCOMPARE(jobs.rowCount(), 1);
        Job *job = jobs.jobAt(0);
        QCOMPARE(job->state(), Job::State::Failed);
        QVERIFY2(job->detail().startsWith(QStringLiteral("4 of 8 items ended in errors (the first: ")) &&
                     job->detail().endsWith(QStringLiteral("Select the run and press Resume to run them again.")),
                 qPrintable(job->detail()));
        QPushButton *resume = nullptr;
        for (QPushButton *button : view.findChildren<QPushButton *>())
            if (button->text() == QLatin1String("Resume"))
                resume = button;
        QVERIFY(resume && resume->isEnabled()); // finished, but with items never judged

        m_secondCaseFaults = false;
        const qsizetype requestsBefore = m_server->requests().size();
        resume->click();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 20000);
        QCOMPARE(m_server->requests().size() - requestsBefore, 4);
        QCOMPARE(count(RunGridModel::CellState::Error), 0);
        QCOMPARE(count(RunGridModel::CellState::Passed), 4);
        QVERIFY(!resume->isEnabled());
    }
};

SF_TEST_MAIN(TestRunsView)
#include "test_runs_view.moc"
