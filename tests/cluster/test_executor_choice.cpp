#include "SkippedChecks.h"
#include "cluster/EvalLaunch.h"
#include "cluster/ExecutorChoice.h"
#include "eval/RunStore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;

/// Where heavy work runs, as run.json records it and a resume reads it back; no cluster needed.
class TestExecutorChoice : public QObject
{
    Q_OBJECT

    static SlurmProfile someProfile()
    {
        SlurmProfile p;
        p.partition = QStringLiteral("gpu");
        p.gres = QStringLiteral("gpu:1");
        p.account = QStringLiteral("lab");
        p.time = QStringLiteral("30");
        p.slurmConf = QStringLiteral("/etc/slurm/slurm.conf");
        p.sharedDir = QStringLiteral("/shared/sf");
        p.sbatchArgs = {QStringLiteral("--qos=short"), QStringLiteral("--mem=4G")};
        return p;
    }

private Q_SLOTS:
    void slurmChoice_jsonRoundTrip_keepsEveryOption()
    {
        const ExecutorChoice choice = ExecutorChoice::onSlurm(someProfile());
        const QJsonObject json = choice.toJson();
        QCOMPARE(json.value(QStringLiteral("name")).toString(), QStringLiteral("slurm"));
        QCOMPARE(json.value(QStringLiteral("partition")).toString(), QStringLiteral("gpu"));
        QCOMPARE(json.value(QStringLiteral("shared_dir")).toString(), QStringLiteral("/shared/sf"));
        QCOMPARE(json.value(QStringLiteral("sbatch_options")).toArray().size(), 2);
        QCOMPARE(ExecutorChoice::fromJson(json), choice);
        QCOMPARE(choice.describe(),
                 QStringLiteral("Slurm (partition gpu, gres gpu:1, account lab, time 30, --qos=short --mem=4G)"));
    }

    void emptyOrUnknown_isLocal()
    {
        QVERIFY(!ExecutorChoice::fromJson({}).isSlurm());
        QVERIFY(!ExecutorChoice::fromJson({{QStringLiteral("name"), QStringLiteral("pbs")}}).isSlurm());
        QCOMPARE(ExecutorChoice::local().toJson(), (QJsonObject{{QStringLiteral("name"), QStringLiteral("local")}}));
        QCOMPARE(ExecutorChoice::local().describe(), QStringLiteral("this machine"));
    }

    void resolveProfile_relativePathsBecomeAbsolute_confFromTheEnvironment()
    {
        SlurmProfile p;
        p.sharedDir = QStringLiteral("shared-here");
        qputenv("SLURM_CONF", "conf/slurm.conf");
        const SlurmProfile resolved = resolveSlurmProfile(p);
        qunsetenv("SLURM_CONF");
        QCOMPARE(resolved.sharedDir, QDir::current().absoluteFilePath(QStringLiteral("shared-here")));
        QCOMPARE(resolved.slurmConf, QDir::current().absoluteFilePath(QStringLiteral("conf/slurm.conf")));
    }

    void routeHeavyWork_local_recordsLocalAndLeavesVerifiersHere()
    {
        EvalPlan plan;
        routeHeavyWork(plan, nullptr, ExecutorChoice::local());
        QCOMPARE(plan.executor.value(QStringLiteral("name")).toString(), QStringLiteral("local"));
        QVERIFY(!plan.verifierCommand);
        QVERIFY(!plan.kernelChecker);
    }

    void routeHeavyWork_withRunner_sendsVerifiersToIt()
    {
        EvalPlan plan;
        routeHeavyWork(plan, std::make_shared<LocalJobRunner>(), ExecutorChoice::onSlurm(someProfile()));
        QCOMPARE(ExecutorChoice::fromJson(plan.executor), ExecutorChoice::onSlurm(someProfile()));
        QVERIFY(plan.verifierCommand);
        QVERIFY(plan.kernelChecker);
    }

    void runManifest_recordsTheExecutor_andOldRunsReadAsLocal()
    {
        QTemporaryDir dir;
        RunManifest manifest;
        manifest.skillName = QStringLiteral("s");
        manifest.executor = ExecutorChoice::onSlurm(someProfile()).toJson();
        auto created = RunStore::create(dir.path(), manifest);
        QVERIFY(std::holds_alternative<RunStore>(created));
        const QString runDir = std::get<RunStore>(created).dir();
        std::get<RunStore>(created).releaseWriterLock();
        QCOMPARE(recordedExecutor(runDir), ExecutorChoice::onSlurm(someProfile()));

        // A run.json written before executors were recorded: no "executor" at all.
        QFile file(QDir(runDir).filePath(QStringLiteral("run.json")));
        QVERIFY(file.open(QIODevice::ReadOnly));
        QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
        file.close();
        QVERIFY(json.contains(QStringLiteral("executor")));
        json.remove(QStringLiteral("executor"));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(QJsonDocument(json).toJson());
        file.close();
        QCOMPARE(recordedExecutor(runDir), ExecutorChoice::local());
        QCOMPARE(recordedExecutor(dir.filePath(QStringLiteral("no-such-run"))), ExecutorChoice::local());
    }

    void evalAsksForGpu_onlyWithAGresOnSlurm()
    {
        QVERIFY(!evalAsksForGpu(ExecutorChoice::local()));
        QVERIFY(evalAsksForGpu(ExecutorChoice::onSlurm(someProfile())));
        QVERIFY(!evalAsksForGpu(ExecutorChoice::onSlurm({})));
    }

    void withoutSbatchOnPath_slurmIsUnavailable_andTheCheckSaysWhy()
    {
        const QByteArray path = qgetenv("PATH");
        QTemporaryDir empty;
        qputenv("PATH", empty.path().toUtf8());
        const QString why = whySlurmUnavailable();
        const QString check = checkSlurmProfile({});
        qputenv("PATH", path);
        QVERIFY2(why.contains(QStringLiteral("sbatch is not on PATH")), qPrintable(why));
        QVERIFY2(check.contains(QStringLiteral("sbatch is not on PATH")), qPrintable(check));
    }

    void missingSlurmConf_isRefusedBeforeSbatchRuns()
    {
        SlurmProfile p;
        p.slurmConf = QStringLiteral("/no/such/slurm.conf");
        const auto made = makeJobRunner(ExecutorChoice::onSlurm(p), false);
        QVERIFY(std::holds_alternative<QString>(made));
        QVERIFY2(std::get<QString>(made).contains(QStringLiteral("/no/such/slurm.conf")),
                 qPrintable(std::get<QString>(made)));
        QVERIFY(!std::get<std::shared_ptr<JobRunner>>(makeJobRunner(ExecutorChoice::local(), true)));
    }
};

SF_TEST_GUILESS_MAIN(TestExecutorChoice)
#include "test_executor_choice.moc"
