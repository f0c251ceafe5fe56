#include "SkippedChecks.h"
#include "SlurmTestCluster.h"

#include <QTest>

using namespace sf;
using namespace sf::test;

/// A job that runs past Slurm's time limit ends TIMEOUT and comes back as an error, not a verdict. Slurm's limit is
/// in whole minutes and enforced by a periodic check, so this takes about 70-80 s.
class TestSlurmTimeLimit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void timeLimit_jobEndsTimeout_asAnError()
    {
        QTemporaryDir dir;
        SlurmOptions options = testSlurmOptions(dir.filePath(QStringLiteral("shared")));
        options.time = QStringLiteral("1");
        SlurmJobRunner slurm(options);
        ClusterJob job;
        job.kind = QLatin1String(ClusterJob::kCommand);
        job.inputs = {{QStringLiteral("command"), QStringLiteral("sleep 300")},
                      {QStringLiteral("workspace"), dir.path()},
                      {QStringLiteral("timeout_ms"), 400000}};
        const ClusterJobResult r = slurm.run(job);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(QStringLiteral("TIMEOUT")), qPrintable(r.error));
        QCOMPARE(slurm.jobStates().begin()->second, QStringLiteral("timeout"));
    }
};

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (const QString why = missingSlurmCluster(); !why.isEmpty())
        return sf::test::skipAll(why);
    TestSlurmTimeLimit test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_slurm_time_limit.moc"
