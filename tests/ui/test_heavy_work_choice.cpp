#include "ChatReplies.h"
#include "FakeSlurmTools.h"
#include "MainWindow.h"
#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "common/ExecutorChoiceBox.h"
#include "eval/EvalSession.h"
#include "jobs/JobListModel.h"
#include "kernels/KernelsView.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"
#include "project/AppSettings.h"
#include "project/Project.h"
#include "runs/EvalLaunchDialog.h"
#include "runs/RunsView.h"
#include "settings/PreferencesDialog.h"
#include "settings/SlurmPage.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>
#include <QTimer>

using namespace sf;
using namespace sf::test;

namespace {

void write(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
}

bool slurmEntryEnabled(const ExecutorChoiceBox &box)
{
    const auto *model = qobject_cast<QStandardItemModel *>(box.comboBox()->model());
    return model->item(1)->isEnabled();
}

QString slurmEntryTip(const ExecutorChoiceBox &box)
{
    return box.comboBox()->itemData(1, Qt::ToolTipRole).toString();
}

void screenshot(QWidget &widget, const QString &name)
{
    if (const QByteArray dir = qgetenv("SKILLFORGE_SCREENSHOT_DIR"); !dir.isEmpty())
        widget.grab().save(QString::fromUtf8(dir) + u'/' + name);
}

} // namespace

/// "Run heavy work on: This machine / Slurm cluster" in the evaluation launch dialog, the Kernels view and the Runs
/// view that starts what the dialog describes: Slurm only where sbatch is found, and Slurm's refusal as a message in
/// the Jobs panel. Slurm's tools are scripts here (FakeSlurmTools); tests/cluster runs the real ones.
class TestHeavyWorkChoice final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    std::optional<Project> m_project;
    ScriptedHttpServer m_server;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_chat;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        auto created = Project::create(m_dir.filePath(QStringLiteral("project")), QStringLiteral("Slurm test"));
        QVERIFY(std::holds_alternative<Project>(created));
        m_project.emplace(std::get<Project>(created));
        write(m_project->skillsPath() + QStringLiteral("/rmsnorm/SKILL.md"),
              "---\nname: rmsnorm\ndescription: RMSNorm.\n---\nAnswer with MAGIC-EPS.\n");
        write(m_project->testsPath() + QStringLiteral("/basic.json"),
              R"([{"id": "a", "input": "first", "verifiers": [{"type": "command", "command": "true"}]}])");
        QVERIFY(m_server.listen());
        m_server.routeHandler("POST", "/v1/chat/completions", [](const RecordedRequest &) {
            return scriptedReply(QStringLiteral("MAGIC-EPS"), {10, 2, QStringLiteral("student"), 0});
        });
        qputenv("GENERIC_BASE_URL", m_server.baseUrl().toEncoded() + "/v1");
        m_engine = std::make_unique<HttpEngine>();
        m_providers = std::make_unique<ProviderRegistry>();
        m_chat = std::make_unique<ChatClient>(*m_engine, *m_providers, nullptr);
    }

    void init()
    {
        SlurmProfile profile;
        profile.partition = QStringLiteral("debug");
        profile.sharedDir = m_dir.filePath(QStringLiteral("shared"));
        AppSettings().setSlurmProfile(profile);
        AppSettings().setLastExecutor(QStringLiteral("local")); // a check or a Run below remembers its choice
    }

    void cleanupTestCase()
    {
        AppSettings().setSlurmProfile({});
        AppSettings().setLastExecutor(QStringLiteral("local"));
        m_chat.reset();
        m_providers.reset();
        m_engine.reset();
    }

    void launchDialog_withoutSbatch_slurmIsDisabled_andSaysWhy()
    {
        QTemporaryDir empty;
        ScopedPath path(empty.path());
        EvalLaunchDialog dialog(*m_project);
        ExecutorChoiceBox *box = dialog.executorBox();
        QVERIFY(!slurmEntryEnabled(*box));
        QVERIFY2(slurmEntryTip(*box).contains(QStringLiteral("sbatch is not on PATH")),
                 qPrintable(slurmEntryTip(*box)));
        box->select(ExecutorChoice::Kind::Slurm);
        QVERIFY(!dialog.executor().isSlurm());
    }

    void launchDialog_withSbatch_slurmWithTheProfile_isWhatRunsGetsAsked()
    {
        FakeSlurmTools slurm;
        ScopedPath path(slurm.path());
        EvalLaunchDialog dialog(*m_project);
        ExecutorChoiceBox *box = dialog.executorBox();
        QVERIFY(slurmEntryEnabled(*box));
        QCOMPARE(box->comboBox()->itemText(1), QStringLiteral("Slurm cluster (partition debug)"));
        QVERIFY(!dialog.executor().isSlurm()); // this machine until the user chooses otherwise
        box->comboBox()->setCurrentIndex(1);
        QVERIFY(dialog.executor().isSlurm());
        QCOMPARE(dialog.executor().slurm.partition, QStringLiteral("debug"));
        // Preferences changed the profile meanwhile: the run gets the new one, and the entry names it once told.
        SlurmProfile changed = AppSettings().slurmProfile();
        changed.partition = QStringLiteral("gpu");
        AppSettings().setSlurmProfile(changed);
        QCOMPARE(dialog.executor().slurm.partition, QStringLiteral("gpu"));
        box->refresh();
        QCOMPARE(box->comboBox()->itemText(1), QStringLiteral("Slurm cluster (partition gpu)"));
        QVERIFY(dialog.executor().isSlurm()); // refreshing keeps the choice
        QVERIFY2(dialog.summaryText().contains(
                     QStringLiteral("Slurm jobs (partition gpu) run the suite's 1 shell-command check;")),
                 qPrintable(dialog.summaryText()));
        QVERIFY(!dialog.summaryText().contains(QStringLiteral("cuda_kernel"))); // words, not ids (issue 35, item 14)
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        screenshot(dialog, QStringLiteral("eval-launch-slurm.png"));
    }

    void launchDialog_run_remembersSlurm_forTheNextDialog_butOnlyWhereSbatchIs()
    {
        {
            FakeSlurmTools slurm;
            ScopedPath path(slurm.path());
            EvalLaunchDialog first(*m_project);
            first.executorBox()->comboBox()->setCurrentIndex(1);
            first.accept();
            EvalLaunchDialog next(*m_project);
            QVERIFY(next.executor().isSlurm());
        }
        QTemporaryDir empty;
        ScopedPath path(empty.path());
        EvalLaunchDialog elsewhere(*m_project);
        QVERIFY(!elsewhere.executor().isSlurm());
    }

    // Issue 35, item 14: Slurm failed a whole evaluation of regex checks, after the dialog closed. The dialog says up
    // front that the suite has nothing for Slurm and sets Slurm aside; the Runs view runs such a suite here.
    void launchDialog_suiteWithOnlyTextChecks_setsSlurmAsideWithTheReason()
    {
        write(m_project->testsPath() + QStringLiteral("/text.json"),
              R"([{"id": "t", "input": "go", "verifiers": [{"type": "regex", "pattern": "MAGIC"}]}])");
        FakeSlurmTools slurm;
        ScopedPath path(slurm.path());
        AppSettings().setLastExecutor(QStringLiteral("slurm"));
        EvalLaunchDialog dialog(*m_project);
        auto *suite = dialog.findChild<QComboBox *>(QStringLiteral("suiteChoice"));
        QVERIFY(suite);
        suite->setCurrentIndex(suite->findText(QStringLiteral("basic.json")));
        QVERIFY(dialog.executor().isSlurm());
        suite->setCurrentIndex(suite->findText(QStringLiteral("text.json")));
        ExecutorChoiceBox *box = dialog.executorBox();
        QVERIFY(!slurmEntryEnabled(*box));
        QVERIFY2(slurmEntryTip(*box).contains(QStringLiteral("no shell-command or CUDA kernel checks")),
                 qPrintable(slurmEntryTip(*box)));
        QVERIFY(!dialog.executor().isSlurm());
        QVERIFY2(dialog.summaryText().contains(QStringLiteral("Nothing for Slurm")), qPrintable(dialog.summaryText()));
        // Slurm stays the user's choice: back with a suite that has work for it, and remembered by Run.
        dialog.accept();
        QCOMPARE(AppSettings().lastExecutor(), QStringLiteral("slurm"));
        suite->setCurrentIndex(suite->findText(QStringLiteral("basic.json")));
        QVERIFY(slurmEntryEnabled(*box));
        QVERIFY(dialog.executor().isSlurm());
        QFile::remove(m_project->testsPath() + QStringLiteral("/text.json"));
    }

    void runsView_slurmChosen_suiteWithNothingForIt_runsHere_withoutAskingSlurm()
    {
        write(m_project->testsPath() + QStringLiteral("/text.json"),
              R"([{"id": "t", "input": "go", "verifiers": [{"type": "regex", "pattern": "MAGIC"}]}])");
        FakeSlurmTools slurm;
        ScopedPath path(slurm.path());
        slurm.refuse("sbatch: error: Batch job submission failed: Requested node configuration is not available\n");
        JobListModel jobs;
        RunsView view;
        view.setProject(&*m_project);
        view.setEvalServices(m_chat.get(), &jobs);
        EvalPlan plan;
        plan.skillDir = m_project->skillsPath() + QStringLiteral("/rmsnorm");
        plan.suitePath = m_project->testsPath() + QStringLiteral("/text.json");
        QTemporaryDir runs; // the project's runs/ stays empty for the tests after this one
        plan.runsDir = runs.path();
        plan.config.models = {QStringLiteral("generic:s")};
        plan.config.runs = 1;
        plan.config.studentTools = sf::ToolOffer::Never;
        QVERIFY(view.startEvaluation(plan, ExecutorChoice::onSlurm(AppSettings().slurmProfile())));
        Job *job = jobs.jobAt(0);
        QVERIFY2(job->title().startsWith(QStringLiteral("Evaluate rmsnorm")) && !job->title().contains(u"Slurm"),
                 qPrintable(job->title()));
        QTRY_COMPARE_WITH_TIMEOUT(job->state(), Job::State::Finished, 15000);
        QVERIFY2(!slurm.calls().contains(QStringLiteral("sbatch")), qPrintable(slurm.calls()));
        QFile::remove(m_project->testsPath() + QStringLiteral("/text.json"));
    }

    void runsView_slurmRefuses_theJobsPanelSaysWhy_andNoRunIsMade()
    {
        FakeSlurmTools slurm;
        ScopedPath path(slurm.path());
        slurm.refuse("sbatch: error: Batch job submission failed: Invalid partition name specified\n");
        JobListModel jobs;
        RunsView view;
        view.setProject(&*m_project);
        view.setEvalServices(m_chat.get(), &jobs);
        EvalPlan plan;
        plan.skillDir = m_project->skillsPath() + QStringLiteral("/rmsnorm");
        plan.suitePath = m_project->testsPath() + QStringLiteral("/basic.json");
        plan.runsDir = m_project->runsPath();
        plan.config.models = {QStringLiteral("generic:s")};
        SlurmProfile profile = AppSettings().slurmProfile();
        profile.partition = QStringLiteral("nosuch");
        QVERIFY(view.startEvaluation(plan, ExecutorChoice::onSlurm(profile)));
        QCOMPARE(jobs.rowCount(), 1);
        Job *job = jobs.jobAt(0);
        QCOMPARE(job->title(), QStringLiteral("Evaluate rmsnorm on Slurm"));
        QVERIFY(job->detail().contains(QStringLiteral("sbatch --test-only")));
        QVERIFY(view.isBusy()); // asking Slurm: New Evaluation waits
        QTRY_COMPARE_WITH_TIMEOUT(job->state(), Job::State::Failed, 10000);
        QVERIFY2(job->detail().contains(QStringLiteral("no such partition")), qPrintable(job->detail()));
        QVERIFY(!view.isBusy());
        QVERIFY(QDir(m_project->runsPath()).entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty());
        QVERIFY(slurm.calls().contains(QStringLiteral("--partition=nosuch")));
    }

    void runsView_closedWhileItsJobsWait_scancelsThem_andLeavesNoThreadWaiting()
    {
        FakeSlurmTools slurm;
        ScopedPath path(slurm.path());
        slurm.setQueue("4242_0|PENDING|Priority\n4242_1|PENDING|Priority\n");
        JobListModel jobs;
        auto view = std::make_unique<RunsView>();
        view->setProject(&*m_project);
        view->setEvalServices(m_chat.get(), &jobs);
        EvalPlan plan;
        plan.skillDir = m_project->skillsPath() + QStringLiteral("/rmsnorm");
        plan.suitePath = m_project->testsPath() + QStringLiteral("/basic.json");
        plan.runsDir = m_project->runsPath();
        plan.config.models = {QStringLiteral("generic:s")};
        plan.config.runs = 1;
        plan.config.studentTools = sf::ToolOffer::Never;
        QVERIFY(view->startEvaluation(plan, ExecutorChoice::onSlurm(AppSettings().slurmProfile())));
        Job *job = jobs.jobAt(0);
        // Both arms answered; their command verifiers wait on Slurm jobs that stay pending.
        QTRY_VERIFY_WITH_TIMEOUT(job->schedulerSummary().contains(QStringLiteral("pending")), 15000);
        QVERIFY(view->isBusy());
        view.reset();
        QVERIFY2(slurm.calls().contains(QStringLiteral("scancel 4242")), qPrintable(slurm.calls()));
        QVERIFY(QThreadPool::globalInstance()->waitForDone(10000));
    }

    void kernelsView_withoutSbatch_slurmIsDisabled()
    {
        QTemporaryDir empty;
        ScopedPath path(empty.path());
        KernelsView view;
        QVERIFY(!slurmEntryEnabled(*view.executorBox()));
        QVERIFY(slurmEntryTip(*view.executorBox()).contains(QStringLiteral("sbatch is not on PATH")));
        QVERIFY(!view.executorBox()->choice().isSlurm());
    }

    void kernelsView_checkOnSlurm_followsTheJob_andCancelScancels()
    {
        FakeSlurmTools slurm;
        ScopedPath path(slurm.path());
        slurm.setQueue("4242_0|PENDING|Resources\n");
        JobListModel jobs;
        KernelsView view;
        view.setJobs(&jobs);
        view.setSlurmTuning({QCoreApplication::applicationFilePath(), 250});
        view.selectTask(QStringLiteral("rmsnorm"));
        QVERIFY(view.loadCandidate(QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/kernels/rmsnorm/baseline.cu")));
        view.executorBox()->comboBox()->setCurrentIndex(1);
        view.checkCandidate();
        QCOMPARE(jobs.rowCount(), 1);
        Job *job = jobs.jobAt(0);
        QVERIFY(job->title().endsWith(QStringLiteral("on Slurm")));
        QTRY_COMPARE_WITH_TIMEOUT(job->schedulerSummary(), QStringLiteral("Slurm 4242_0 pending"), 10000);
        // A kernel_check job with the GPU gres of the profile (none here) went through sbatch; the check waits on it.
        QVERIFY(view.isChecking());
        QVERIFY(slurm.calls().contains(QStringLiteral("--array=0-0")));
        view.resize(1100, 700);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        screenshot(view, QStringLiteral("kernels-slurm-pending.png"));
        job->requestCancel();
        QTRY_COMPARE_WITH_TIMEOUT(job->state(), Job::State::Cancelled, 10000);
        QVERIFY2(slurm.calls().contains(QStringLiteral("scancel 4242")), qPrintable(slurm.calls()));
        QVERIFY(!view.isChecking());
    }

    void kernelsView_slurmRefuses_theCheckFailsWithTheReason()
    {
        FakeSlurmTools slurm;
        ScopedPath path(slurm.path());
        slurm.refuse("sbatch: error: Batch job submission failed: Requested node configuration is not available\n");
        JobListModel jobs;
        KernelsView view;
        view.setJobs(&jobs);
        view.selectTask(QStringLiteral("rmsnorm"));
        QVERIFY(view.loadCandidate(QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/kernels/rmsnorm/baseline.cu")));
        view.executorBox()->comboBox()->setCurrentIndex(1);
        view.checkCandidate();
        Job *job = jobs.jobAt(0);
        QTRY_COMPARE_WITH_TIMEOUT(job->state(), Job::State::Failed, 10000);
        QVERIFY2(job->detail().startsWith(QStringLiteral("Slurm refused the job")), qPrintable(job->detail()));
        QVERIFY(!view.isChecking());
    }

    // A check remembers where it ran: the next Kernels view starts on Slurm, where sbatch is found.
    void kernelsView_checkOnSlurm_theNextViewStartsOnSlurm()
    {
        FakeSlurmTools slurm;
        ScopedPath path(slurm.path());
        slurm.refuse("sbatch: error: Batch job submission failed: Requested node configuration is not available\n");
        {
            KernelsView fresh;
            QVERIFY(!fresh.executorBox()->choice().isSlurm()); // init() left "local" as the last choice
        }
        JobListModel jobs;
        {
            KernelsView view;
            view.setJobs(&jobs);
            view.selectTask(QStringLiteral("rmsnorm"));
            QVERIFY(view.loadCandidate(QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/kernels/rmsnorm/baseline.cu")));
            view.executorBox()->comboBox()->setCurrentIndex(1);
            view.checkCandidate();
            QTRY_COMPARE_WITH_TIMEOUT(jobs.jobAt(0)->state(), Job::State::Failed, 10000); // refused; the choice stays
        }
        QCOMPARE(AppSettings().lastExecutor(), QStringLiteral("slurm"));
        KernelsView next;
        QVERIFY(next.executorBox()->choice().isSlurm());
        QCOMPARE(next.executorBox()->comboBox()->currentIndex(), 1);
    }

    // OK in Preferences (Edit → Preferences…) renames the Kernels view's Slurm entry after the new profile.
    void preferencesOk_refreshesTheKernelsViewsSlurmEntry()
    {
        FakeSlurmTools slurm;
        ScopedPath path(slurm.path());
        JobListModel jobs;
        MainWindow window(&jobs);
        auto *kernels = window.findChild<KernelsView *>();
        QVERIFY(kernels);
        QComboBox *entries = kernels->executorBox()->comboBox();
        QCOMPARE(entries->itemText(1), QStringLiteral("Slurm cluster (partition debug)"));
        QAction *preferences = nullptr;
        for (QAction *menu : window.menuBar()->actions()) {
            if (menu->menu() && menu->text().remove(u'&') == QStringLiteral("Edit")) {
                for (QAction *item : menu->menu()->actions()) {
                    if (item->text().remove(u'&') == QStringLiteral("Preferences…"))
                        preferences = item;
                }
            }
        }
        QVERIFY(preferences);
        bool edited = false;
        QTimer::singleShot(0, [&] {
            auto *dialog = qobject_cast<PreferencesDialog *>(QApplication::activeModalWidget());
            if (!dialog)
                return;
            auto *partition = dialog->slurmPage()->findChild<QLineEdit *>(QStringLiteral("partition"));
            if (partition) {
                partition->setText(QStringLiteral("gpu"));
                edited = true;
            }
            dialog->accept();
        });
        preferences->trigger();
        QVERIFY(edited);
        QCOMPARE(AppSettings().slurmProfile().partition, QStringLiteral("gpu"));
        QCOMPARE(entries->itemText(1), QStringLiteral("Slurm cluster (partition gpu)"));
    }
};

SF_TEST_MAIN(TestHeavyWorkChoice)
#include "test_heavy_work_choice.moc"
