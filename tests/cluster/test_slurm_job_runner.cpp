#include "SkippedChecks.h"
#include "SlurmTestCluster.h"
#include "cluster/JobRunner.h"
#include "cluster/SlurmJobRunner.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTest>
#include <QtConcurrent>
#include <future>

using namespace sf;
using namespace sf::test;

namespace {

ClusterJob commandJob(const QString &command, const QString &workspace, int timeoutMs = 30000)
{
    ClusterJob job;
    job.kind = QLatin1String(ClusterJob::kCommand);
    job.inputs = {{QStringLiteral("command"), command},
                  {QStringLiteral("workspace"), workspace},
                  {QStringLiteral("timeout_ms"), timeoutMs}};
    job.timeLimitSeconds = timeoutMs / 1000;
    return job;
}

QJsonObject withoutTiming(QJsonObject output)
{
    output.remove(QStringLiteral("wall_ms"));
    return output;
}

} // namespace

/// SlurmJobRunner against a real single-node Slurm: the same results as LocalJobRunner, job arrays, refusals,
/// cancel and a node that goes down mid-run.
class TestSlurmJobRunner : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString shared() const { return m_dir.filePath(QStringLiteral("shared")); }

private Q_SLOTS:
    void commandJob_sameResultHereAndOnSlurm()
    {
        QTemporaryDir workspace;
        QFile input(workspace.filePath(QStringLiteral("in.txt")));
        QVERIFY(input.open(QIODevice::WriteOnly));
        input.write("forty-two\n");
        input.close();
        const ClusterJob job =
            commandJob(QStringLiteral("cat in.txt; echo made > out.txt; echo to-stderr >&2; exit 3"), workspace.path());
        LocalJobRunner local;
        const ClusterJobResult here = local.run(job);
        QVERIFY2(here.ok(), qPrintable(here.error));
        QVERIFY(QFile::remove(workspace.filePath(QStringLiteral("out.txt"))));

        SlurmJobRunner slurm(testSlurmOptions(shared()));
        QCOMPARE(slurm.check(false), QString());
        const ClusterJobResult there = slurm.run(job);
        QVERIFY2(there.ok(), qPrintable(there.error));
        QCOMPARE(withoutTiming(there.output), withoutTiming(here.output));
        QCOMPARE(there.output.value(QStringLiteral("exit_code")).toInt(), 3);
        QVERIFY(there.output.value(QStringLiteral("output")).toString().contains(QStringLiteral("forty-two")));
        QVERIFY(QFile::exists(workspace.filePath(QStringLiteral("out.txt")))); // it ran in the workspace
        QVERIFY2(there.where.contains(u'_'), qPrintable(there.where));         // an array task's id, "123_0"
        QCOMPARE(slurm.submissions(), 1);
    }

    void manyJobsAtOnce_goAsOneJobArray_eachResultItsOwn()
    {
        SlurmJobRunner slurm(testSlurmOptions(shared()));
        QTemporaryDir workspace;
        constexpr int n = 24;
        QThreadPool pool;
        pool.setMaxThreadCount(n);
        QList<QFuture<ClusterJobResult>> futures;
        for (int i = 0; i < n; ++i)
            futures << QtConcurrent::run(&pool, [&slurm, &workspace, i] {
                return slurm.run(commandJob(QStringLiteral("echo item-%1").arg(i), workspace.path()));
            });
        QSet<QString> arrays;
        for (int i = 0; i < n; ++i) {
            const ClusterJobResult r = futures[i].result();
            QVERIFY2(r.ok(), qPrintable(r.error));
            QCOMPARE(r.output.value(QStringLiteral("output")).toString().trimmed(), QStringLiteral("item-%1").arg(i));
            arrays.insert(r.where.section(u'_', 0, 0));
        }
        // They arrived within the batch window: a handful of arrays, not one job each.
        QVERIFY2(slurm.submissions() <= 3, qPrintable(QString::number(slurm.submissions())));
        QCOMPARE(arrays.size(), slurm.submissions());
        for (const auto &[id, state] : slurm.jobStates())
            QCOMPARE(state, QStringLiteral("done"));
    }

    void refusedSubmission_saysWhy_atOnce()
    {
        SlurmOptions options = testSlurmOptions(shared());
        options.partition = QStringLiteral("nosuch");
        SlurmJobRunner noPartition(options);
        QVERIFY2(noPartition.check(false).contains(QStringLiteral("no such partition")),
                 qPrintable(noPartition.check(false)));
        QTemporaryDir workspace;
        const ClusterJobResult r = noPartition.run(commandJob(QStringLiteral("true"), workspace.path()));
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(QStringLiteral("no such partition")), qPrintable(r.error));

        options = testSlurmOptions(shared());
        options.gres = QStringLiteral("gpu:3"); // the node has two
        SlurmJobRunner tooManyGpus(options);
        QVERIFY2(tooManyGpus.check(true).contains(QStringLiteral("no node in the partition has what was asked")),
                 qPrintable(tooManyGpus.check(true)));
        QCOMPARE(tooManyGpus.check(false), QString()); // jobs without a GPU are not asked for one
    }

    void gpuJob_getsTheGres()
    {
        SlurmOptions options = testSlurmOptions(shared());
        options.gres = QStringLiteral("gpu:1");
        SlurmJobRunner slurm(options);
        QCOMPARE(slurm.check(true), QString());
        QTemporaryDir workspace;
        ClusterJob job = commandJob(QStringLiteral("echo ran"), workspace.path());
        job.needsGpu = true;
        const ClusterJobResult r = slurm.run(job);
        QVERIFY2(r.ok(), qPrintable(r.error));
        const QString id = r.where.section(u'_', 0, 0);
        const QString shown =
            slurmTool(QStringLiteral("scontrol"), {QStringLiteral("show"), QStringLiteral("job"), id});
        QVERIFY2(shown.contains(QStringLiteral("gres:gpu:1")) || shown.contains(QStringLiteral("gres/gpu=1")),
                 qPrintable(shown));
    }

    void cancelAll_scancelsTheRunningJob()
    {
        SlurmJobRunner slurm(testSlurmOptions(shared()));
        QTemporaryDir workspace;
        auto future = std::async(std::launch::async, [&] {
            return slurm.run(commandJob(QStringLiteral("sleep 120"), workspace.path(), 200000));
        });
        auto running = [&] {
            for (const auto &[id, state] : slurm.jobStates())
                if (state == QLatin1String("running"))
                    return id;
            return QString();
        };
        QTRY_VERIFY_WITH_TIMEOUT(!running().isEmpty(), 20000);
        const QString id = running();
        slurm.cancelAll();
        const ClusterJobResult r = future.get();
        QVERIFY(!r.ok());
        QVERIFY2(r.error.startsWith(QStringLiteral("cancelled")), qPrintable(r.error));
        QTRY_VERIFY_WITH_TIMEOUT(
            slurmTool(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("all"),
                                                 QStringLiteral("-j"), id, QStringLiteral("-o"), QStringLiteral("%T")})
                .contains(QStringLiteral("CANCELLED")),
            10000);
    }

    void nodeGoesDownMidRun_jobIsAnErrorNamingNodeFail()
    {
        SlurmJobRunner slurm(testSlurmOptions(shared()));
        QTemporaryDir workspace;
        auto future = std::async(std::launch::async, [&] {
            return slurm.run(commandJob(QStringLiteral("sleep 120"), workspace.path(), 200000));
        });
        auto running = [&] {
            for (const auto &[id, state] : slurm.jobStates())
                if (state == QLatin1String("running"))
                    return true;
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(running(), 20000);
        slurmTool(QStringLiteral("scontrol"), {QStringLiteral("update"), QStringLiteral("nodename=localhost"),
                                               QStringLiteral("state=down"), QStringLiteral("reason=test")});
        const ClusterJobResult r = future.get();
        slurmTool(QStringLiteral("scontrol"),
                  {QStringLiteral("update"), QStringLiteral("nodename=localhost"), QStringLiteral("state=idle")});
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(QStringLiteral("NODE_FAIL")), qPrintable(r.error));
        QTRY_VERIFY_WITH_TIMEOUT(
            slurmTool(QStringLiteral("sinfo"), {QStringLiteral("-h"), QStringLiteral("-o"), QStringLiteral("%T")})
                    .trimmed() == QLatin1String("idle"),
            20000);
    }
};

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (const QString why = missingSlurmCluster(); !why.isEmpty())
        return sf::test::skipAll(why);
    TestSlurmJobRunner test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_slurm_job_runner.moc"
