#include "SkippedChecks.h"
#include "cluster/SlurmText.h"

#include <QTest>

using namespace sf::slurm;

/// What Slurm's tools print, read: squeue lines, sbatch's job id, states and refusals.
class TestSlurmText : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parseSqueue_readsArrayTasksAndSkipsJunk()
    {
        const QList<TaskState> states =
            parseSqueue(QStringLiteral("12_0|COMPLETED|None\n12_1|RUNNING|None\n\ngarbage\n13|PENDING|Resources\n"));
        QCOMPARE(states.size(), 3);
        QCOMPARE(states[0].id, QStringLiteral("12_0"));
        QCOMPARE(states[1].state, QStringLiteral("RUNNING"));
        QCOMPARE(states[2].reason, QStringLiteral("Resources"));
    }

    void parseSbatchJobId_plainAndMultiCluster()
    {
        QCOMPARE(parseSbatchJobId(QStringLiteral("42\n")), QStringLiteral("42"));
        QCOMPARE(parseSbatchJobId(QStringLiteral("42;cluster2\n")), QStringLiteral("42"));
        QCOMPARE(parseSbatchJobId(QStringLiteral("sbatch: error: nope")), QString());
    }

    void states_finalAndWords()
    {
        QVERIFY(!isFinalState(QStringLiteral("PENDING")));
        QVERIFY(!isFinalState(QStringLiteral("COMPLETING")));
        for (const char *s : {"COMPLETED", "FAILED", "TIMEOUT", "NODE_FAIL", "OUT_OF_MEMORY", "CANCELLED by 0"})
            QVERIFY2(isFinalState(QString::fromLatin1(s)), s);
        QCOMPARE(stateWord(QStringLiteral("PENDING")), QStringLiteral("pending"));
        QCOMPARE(stateWord(QStringLiteral("RUNNING")), QStringLiteral("running"));
        QCOMPARE(stateWord(QStringLiteral("COMPLETED")), QStringLiteral("done"));
        QCOMPARE(stateWord(QStringLiteral("TIMEOUT")), QStringLiteral("timeout"));
        QCOMPARE(stateWord(QStringLiteral("NODE_FAIL")), QStringLiteral("failed"));
        QCOMPARE(stateWord(QStringLiteral("CANCELLED by 0")), QStringLiteral("cancelled"));
    }

    void pendsForever_onlyForReasonsNoWaitCures()
    {
        QVERIFY(pendsForever(QStringLiteral("BadConstraints")));
        QVERIFY(pendsForever(QStringLiteral("PartitionConfig")));
        QVERIFY(pendsForever(QStringLiteral("InvalidAccount")));
        QVERIFY(!pendsForever(QStringLiteral("Resources")));
        QVERIFY(!pendsForever(QStringLiteral("Priority")));
        QVERIFY(!pendsForever(QStringLiteral("ReqNodeNotAvail, Reserved for maintenance")));
    }

    void refusalMessage_namesWhatToChange()
    {
        QVERIFY(refusalMessage(QStringLiteral("sbatch: error: Batch job submission failed: Invalid partition name "
                                              "specified\n"))
                    .contains(QStringLiteral("no such partition")));
        QVERIFY(refusalMessage(QStringLiteral("sbatch: error: Batch job submission failed: Requested node "
                                              "configuration is not available"))
                    .contains(QStringLiteral("a GPU asked of a partition without GPUs")));
        const QString unknown = refusalMessage(QStringLiteral("sbatch: error: something new"));
        QVERIFY(unknown.startsWith(QStringLiteral("Slurm refused the job: ")));
        QVERIFY(unknown.contains(QStringLiteral("something new")));
    }

    void shellQuote_survivesQuotes()
    {
        QCOMPARE(shellQuote(QStringLiteral("/a b/it's")), QStringLiteral("'/a b/it'\\''s'"));
    }
};

SF_TEST_GUILESS_MAIN(TestSlurmText)
#include "test_slurm_text.moc"
