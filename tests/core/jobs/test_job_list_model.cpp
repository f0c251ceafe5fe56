#include "SkippedChecks.h"
#include "jobs/JobListModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace sf;

class TestJobListModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void add_newestJobFirstAndCountedActive()
    {
        JobListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.add(new Job(QStringLiteral("first")));
        model.add(new Job(QStringLiteral("second")));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0).data().toString(), QStringLiteral("second"));
        QCOMPARE(model.activeCount(), 2);
    }

    void progress_unknownThenKnown_reportsRoleAndEta()
    {
        JobListModel model;
        Job *job = model.add(new Job(QStringLiteral("import")));
        QVERIFY(!model.index(0).data(JobListModel::ProgressRole).isValid());
        QVERIFY(!job->etaMs().has_value());
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        job->setProgress(0.5);
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.index(0).data(JobListModel::ProgressRole).toDouble(), 0.5);
        job->setProgress(7.0);
        QCOMPARE(*job->progress(), 1.0);
    }

    void requestCancel_workerConfirms_endsCancelled()
    {
        JobListModel model;
        Job *job = model.add(new Job(QStringLiteral("build")));
        QObject::connect(job, &Job::cancelRequested, job, &Job::markCancelled);
        QSignalSpy active(&model, &JobListModel::activeCountChanged);
        job->requestCancel();
        QCOMPARE(job->state(), Job::State::Cancelled);
        QCOMPARE(model.activeCount(), 0);
        QCOMPARE(active.last().first().toInt(), 0);
    }

    void notCancellable_requestCancel_isIgnored()
    {
        Job job(QStringLiteral("save"));
        job.setCancellable(false);
        QSignalSpy requested(&job, &Job::cancelRequested);
        job.requestCancel();
        QCOMPARE(requested.count(), 0);
    }

    void endedJob_laterEndsAreIgnored()
    {
        Job job(QStringLiteral("x"));
        job.fail(QStringLiteral("disk full"));
        job.finish();
        QCOMPARE(job.state(), Job::State::Failed);
        QCOMPARE(job.detail(), QStringLiteral("disk full"));
    }

    void clearFinished_keepsRunningJobs()
    {
        JobListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.add(new Job(QStringLiteral("running")));
        model.add(new Job(QStringLiteral("done")))->finish();
        model.add(new Job(QStringLiteral("failed")))->fail(QStringLiteral("x"));
        model.clearFinished();
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.index(0).data().toString(), QStringLiteral("running"));
    }

    void schedulerJobs_singleJobByName_arraysCountedByState()
    {
        JobListModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        Job *job = model.add(new Job(QStringLiteral("evaluate")));
        QCOMPARE(model.index(0).data(JobListModel::SchedulerRole).toString(), QString());
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        job->setSchedulerJobs(QStringLiteral("Slurm"), {{QStringLiteral("41_0"), QStringLiteral("pending")}});
        QCOMPARE(changed.count(), 1);
        QCOMPARE(model.index(0).data(JobListModel::SchedulerRole).toString(), QStringLiteral("Slurm 41_0 pending"));
        job->setSchedulerJobs(QStringLiteral("Slurm"), {{QStringLiteral("41_0"), QStringLiteral("pending")}});
        QCOMPARE(changed.count(), 1); // nothing new, no repaint
        job->setSchedulerJobs(QStringLiteral("Slurm"), {{QStringLiteral("41_0"), QStringLiteral("done")},
                                                        {QStringLiteral("41_1"), QStringLiteral("running")},
                                                        {QStringLiteral("41_2"), QStringLiteral("running")},
                                                        {QStringLiteral("42_0"), QStringLiteral("timeout")}});
        QCOMPARE(model.index(0).data(JobListModel::SchedulerRole).toString(),
                 QStringLiteral("Slurm 41: 2 running, 1 done; Slurm 42_0 timeout"));
        const QString tip = model.index(0).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("Slurm 41_2: running")) && tip.contains(QStringLiteral("42_0: timeout")),
                 qPrintable(tip));
    }

    void schedulerJobs_manyArrays_oneLine_andARefusalIsShown()
    {
        JobListModel model;
        Job *job = model.add(new Job(QStringLiteral("evaluate")));
        job->setSchedulerJobs(QStringLiteral("Slurm"),
                              {{QStringLiteral("7"), QStringLiteral("failed")},
                               {QStringLiteral("8_0"), QStringLiteral("cancelled")},
                               {QStringLiteral("9_0"), QStringLiteral("done")}},
                              QStringLiteral("Slurm refused the job: no such partition on this cluster"));
        QCOMPARE(model.index(0).data(JobListModel::SchedulerRole).toString(),
                 QStringLiteral("Slurm 7–9 (3 job arrays): 1 done, 1 failed, 1 cancelled; Slurm refused the job: no "
                                "such partition on this cluster"));
        QVERIFY(model.index(0).data(JobListModel::SchedulerRefusedRole).toBool());
    }

    void formatDuration_readsLikeAClock()
    {
        QCOMPARE(JobListModel::formatDuration(42'000), QStringLiteral("42 s"));
        QCOMPARE(JobListModel::formatDuration(65'000), QStringLiteral("1:05"));
    }
};

SF_TEST_GUILESS_MAIN(TestJobListModel)
#include "test_job_list_model.moc"
