#include "FakeSlurmTools.h"
#include "SkippedChecks.h"
#include "cluster/SlurmJobFeed.h"
#include "cluster/SlurmJobRunner.h"
#include "common/JobsPanel.h"
#include "jobs/JobListModel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <future>

using namespace sf;
using namespace sf::test;

/// The Jobs panel's row of work sent to Slurm: job ids and states as the runner's polls see them, Cancel as
/// scancel, a refusal as a message. Slurm's tools are scripts here (FakeSlurmTools); the cluster tests use the real
/// ones.
class TestJobsPanelSlurm final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_shared;

    std::shared_ptr<SlurmJobRunner> runner()
    {
        SlurmOptions options;
        options.sharedDir = m_shared.path();
        options.program = QCoreApplication::applicationFilePath();
        options.pollMs = 250;
        options.batchWindowMs = 20;
        return std::make_shared<SlurmJobRunner>(options);
    }

    static ClusterJob commandJob()
    {
        ClusterJob job;
        job.kind = QLatin1String(ClusterJob::kCommand);
        job.inputs = {{QStringLiteral("command"), QStringLiteral("true")}};
        job.timeLimitSeconds = 60;
        return job;
    }

    static QString schedulerText(const JobListModel &model)
    {
        return model.index(0).data(JobListModel::SchedulerRole).toString();
    }

private Q_SLOTS:
    void statesDrivenByHand_showInTheRowAndItsTooltip()
    {
        JobListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        JobsPanel panel(&model);
        panel.resize(900, 200);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        Job *job = model.add(new Job(QStringLiteral("Evaluate rmsnorm on Slurm")));
        const QStringList states{QStringLiteral("pending"), QStringLiteral("running"), QStringLiteral("done"),
                                 QStringLiteral("failed"),  QStringLiteral("timeout"), QStringLiteral("cancelled")};
        for (const QString &state : states) {
            job->setSchedulerJobs(QStringLiteral("Slurm"), {{QStringLiteral("17_0"), state}});
            QCOMPARE(schedulerText(model), QStringLiteral("Slurm 17_0 ") + state);
            panel.view()->viewport()->repaint(); // the delegate draws every state (a crash or an assert would end here)
        }
        job->setSchedulerJobs(QStringLiteral("Slurm"), {{QStringLiteral("17_0"), QStringLiteral("done")},
                                                        {QStringLiteral("17_1"), QStringLiteral("timeout")}});
        QCOMPARE(schedulerText(model), QStringLiteral("Slurm 17: 1 done, 1 timeout"));
        QVERIFY(model.index(0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("Slurm 17_1: timeout")));
        Job *array = model.add(new Job(QStringLiteral("Evaluate diffusers-cuda on Slurm")));
        array->setProgress(0.25);
        array->setDetail(QStringLiteral("6 of 24 items"));
        array->setSchedulerJobs(QStringLiteral("Slurm"), {{QStringLiteral("18_0"), QStringLiteral("running")},
                                                          {QStringLiteral("18_1"), QStringLiteral("running")},
                                                          {QStringLiteral("18_2"), QStringLiteral("pending")}});
        QCOMPARE(model.index(0).data(JobListModel::SchedulerRole).toString(),
                 QStringLiteral("Slurm 18: 1 pending, 2 running"));
        if (const QByteArray dir = qgetenv("SKILLFORGE_SCREENSHOT_DIR"); !dir.isEmpty())
            panel.grab().save(QString::fromUtf8(dir) + QStringLiteral("/jobs-panel-slurm.png"));
    }

    void runnerPolls_feedTheRow_thenCancelInThePanel_scancels()
    {
        FakeSlurmTools slurm;
        ScopedPath path(slurm.path());
        slurm.setQueue("4242_0|PENDING|Priority\n");
        JobListModel model;
        JobsPanel panel(&model);
        panel.resize(900, 200);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        Job *job = model.add(new Job(QStringLiteral("Check noop.cu on Slurm")));
        const auto jobs = runner();
        followSlurmJobs(job, jobs);
        connect(job, &Job::cancelRequested, job, &Job::markCancelled);
        std::future<ClusterJobResult> result =
            std::async(std::launch::async, [jobs] { return jobs->run(commandJob()); });

        QTRY_COMPARE_WITH_TIMEOUT(schedulerText(model), QStringLiteral("Slurm 4242_0 pending"), 10000);
        slurm.setQueue("4242_0|RUNNING|None\n");
        QTRY_COMPARE_WITH_TIMEOUT(schedulerText(model), QStringLiteral("Slurm 4242_0 running"), 10000);
        const int pollsSoFar = jobs->polls();
        QVERIFY(slurm.calls().count(QStringLiteral("squeue ")) <= pollsSoFar); // the row asked Slurm nothing itself

        // The ✕ at the right of the row.
        const QRect row = panel.view()->visualRect(model.index(0));
        QTest::mouseClick(panel.view()->viewport(), Qt::LeftButton, {}, QPoint(row.right() - 17, row.top() + 18));
        QCOMPARE(job->state(), Job::State::Cancelled);
        QVERIFY2(slurm.calls().contains(QStringLiteral("scancel 4242")), qPrintable(slurm.calls()));
        QCOMPARE(result.wait_for(std::chrono::seconds(10)), std::future_status::ready);
        QVERIFY2(result.get().error.contains(QStringLiteral("cancelled")), "the waiting run() did not return");
        QTRY_COMPARE_WITH_TIMEOUT(schedulerText(model), QStringLiteral("Slurm 4242_0 cancelled"), 5000);
    }

    void refusedSubmission_isAMessageInTheRow_notAHang()
    {
        FakeSlurmTools slurm;
        ScopedPath path(slurm.path());
        slurm.refuse("sbatch: error: Batch job submission failed: Invalid partition name specified\n");
        JobListModel model;
        Job *job = model.add(new Job(QStringLiteral("Evaluate rmsnorm on Slurm")));
        const auto jobs = runner();
        followSlurmJobs(job, jobs);
        std::future<ClusterJobResult> result =
            std::async(std::launch::async, [jobs] { return jobs->run(commandJob()); });
        QCOMPARE(result.wait_for(std::chrono::seconds(10)), std::future_status::ready);
        QVERIFY(result.get().error.contains(QStringLiteral("no such partition")));
        QTRY_VERIFY_WITH_TIMEOUT(model.index(0).data(JobListModel::SchedulerRefusedRole).toBool(), 5000);
        QVERIFY2(schedulerText(model).contains(QStringLiteral("Slurm refused the job: no such partition")),
                 qPrintable(schedulerText(model)));
    }

    void jobGoneWhileTheRunnerPolls_isNoLongerTold()
    {
        FakeSlurmTools slurm;
        ScopedPath path(slurm.path());
        slurm.setQueue("4242_0|PENDING|Priority\n");
        JobListModel model;
        auto *job = new Job(QStringLiteral("short-lived"));
        const auto jobs = runner();
        followSlurmJobs(job, jobs);
        std::future<ClusterJobResult> result =
            std::async(std::launch::async, [jobs] { return jobs->run(commandJob()); });
        QTRY_COMPARE_WITH_TIMEOUT(job->schedulerJobs().size(), 1, 10000);
        delete job;
        slurm.setQueue("4242_0|RUNNING|None\n");
        const int polls = jobs->polls();
        QTRY_VERIFY_WITH_TIMEOUT(jobs->polls() > polls + 1, 5000); // more polls, more news, no one to tell
        QCoreApplication::processEvents();
        jobs->cancelAll();
        QCOMPARE(result.wait_for(std::chrono::seconds(10)), std::future_status::ready);
    }
};

SF_TEST_MAIN(TestJobsPanelSlurm)
#include "test_jobs_panel_slurm.moc"
