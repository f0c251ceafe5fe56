#include "ChatReplies.h"
#include "RunOutcomes.h"
#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sf::test;

namespace {

constexpr auto kSecret = "sk-test-NEVER-ON-THE-CLUSTER-7781";

struct Result
{
    int exitCode = -1;
    QString out;
    QString err;
};

QString slurmConf()
{
    return QProcessEnvironment::systemEnvironment().value(QStringLiteral("SLURM_CONF"));
}

QString tool(const QString &program, const QStringList &arguments)
{
    QProcess process;
    process.start(program, arguments);
    process.waitForFinished(30000);
    return QString::fromUtf8(process.readAllStandardOutput());
}

} // namespace

/// `skillforge eval --executor slurm` against a scripted provider and a real single-node Slurm.
class TestCliEvalSlurm : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    ScriptedHttpServer m_server;
    QString m_skill;

    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_dir.filePath(QStringLiteral("home")));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir.filePath(QStringLiteral("home/config")));
        env.insert(QStringLiteral("GENERIC_BASE_URL"), m_server.baseUrl().toString() + QStringLiteral("/v1"));
        env.insert(QStringLiteral("GENERIC_API_KEY"), QString::fromLatin1(kSecret));
        return env;
    }

    void start(QProcess &process, const QStringList &arguments)
    {
        process.setProcessEnvironment(environment());
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE), arguments);
    }

    Result run(const QStringList &arguments)
    {
        QProcess process;
        QSignalSpy finished(&process, &QProcess::finished);
        start(process, arguments);
        if (!process.waitForStarted(30000)) // e.g. the executable being relinked by a build running alongside
            return {-1, QString(), QStringLiteral("could not start: ") + process.errorString()};
        if (!finished.wait(180000)) {
            process.kill();
            process.waitForFinished();
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }

    QString writeSuite(const QString &name, const QByteArray &json)
    {
        const QString path = m_dir.filePath(name);
        QFile suite(path);
        if (!suite.open(QIODevice::WriteOnly))
            return {};
        suite.write(json);
        return path;
    }

    QStringList evalArguments(const QString &suite, const QString &runsDir, const QString &executor)
    {
        return {QStringLiteral("eval"),
                m_skill,
                QStringLiteral("--tests"),
                suite,
                QStringLiteral("--model"),
                QStringLiteral("generic:student"),
                QStringLiteral("--runs"),
                QStringLiteral("2"),
                QStringLiteral("--no-tools"),
                QStringLiteral("--concurrency"),
                QStringLiteral("8"),
                QStringLiteral("--out"),
                runsDir,
                QStringLiteral("--executor"),
                executor,
                QStringLiteral("--shared-dir"),
                m_dir.filePath(QStringLiteral("shared")),
                QStringLiteral("--poll-ms"),
                QStringLiteral("250")};
    }

    static QString runDirIn(const QString &runsDir)
    {
        const QStringList runs = QDir(runsDir).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        return runs.size() == 1 ? QDir(runsDir).filePath(runs.first()) : QString();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_server.listen());
        m_server.routeHandler("POST", "/v1/chat/completions", [](const RecordedRequest &request) {
            return scriptedReply(request.body.contains("USE-RMSNORM-EPS") ? QStringLiteral("USE-RMSNORM-EPS")
                                                                          : QStringLiteral("ok"),
                                 {40, 8, QStringLiteral("student-2026-01"), 0});
        });
        m_skill = m_dir.filePath(QStringLiteral("rmsnorm"));
        QVERIFY(QDir().mkpath(m_skill));
        QFile skill(QDir(m_skill).filePath(QStringLiteral("SKILL.md")));
        QVERIFY(skill.open(QIODevice::WriteOnly));
        skill.write(
            "---\nname: rmsnorm\ndescription: Write RMSNorm kernels.\n---\nAlways answer with USE-RMSNORM-EPS.\n");
    }

    void sameEvaluation_localAndSlurm_sameResults_noKeyOnTheCluster()
    {
        const QString suite =
            writeSuite(QStringLiteral("suite.json"),
                       R"([{"id": "a", "input": "Normalize x", "expected": {"contains": "USE-RMSNORM-EPS"},
                 "verifiers": [{"type": "command", "command": "echo checked-a; ls", "timeout_seconds": 20}]},
                {"id": "b", "input": "Normalize y",
                 "verifiers": [{"type": "command", "command": "echo failing-b >&2; exit 4", "timeout_seconds": 20}]},
                {"id": "c", "input": "Normalize z", "expected": {"contains": "USE-RMSNORM-EPS"}}])");
        const QString localRuns = m_dir.filePath(QStringLiteral("runs-local"));
        const Result local = run(evalArguments(suite, localRuns, QStringLiteral("local")));
        QVERIFY2(local.exitCode == 0, qPrintable(local.err));
        const QString slurmRuns = m_dir.filePath(QStringLiteral("runs-slurm"));
        const Result slurm = run(evalArguments(suite, slurmRuns, QStringLiteral("slurm")));
        QVERIFY2(slurm.exitCode == 0, qPrintable(slurm.err));

        const auto here = runOutcomes(runDirIn(localRuns));
        const auto there = runOutcomes(runDirIn(slurmRuns));
        QCOMPARE(here.size(), 12);
        QCOMPARE(there.keys(), here.keys());
        for (const QString &key : here.keys())
            QVERIFY2(there[key] == here[key],
                     qPrintable(key + u'\n' + QString::fromUtf8(QJsonDocument(here[key]).toJson()) + u'\n' +
                                QString::fromUtf8(QJsonDocument(there[key]).toJson())));
        QVERIFY(std::any_of(there.cbegin(), there.cend(),
                            [](const QJsonObject &o) { return QJsonDocument(o).toJson().contains("checked-a"); }));

        // run.json says where the verifiers ran, with the Slurm options a resume needs (and no key).
        QFile manifest(QDir(runDirIn(slurmRuns)).filePath(QStringLiteral("run.json")));
        QVERIFY(manifest.open(QIODevice::ReadOnly));
        const QJsonObject executor =
            QJsonDocument::fromJson(manifest.readAll()).object().value(QStringLiteral("executor")).toObject();
        QCOMPARE(executor.value(QStringLiteral("name")).toString(), QStringLiteral("slurm"));
        QCOMPARE(executor.value(QStringLiteral("shared_dir")).toString(), m_dir.filePath(QStringLiteral("shared")));
        QCOMPARE(executor.value(QStringLiteral("slurm_conf")).toString(), slurmConf());

        // The 8 command verifiers went as job arrays, and nothing the controller knows of the provider went along.
        int jobFiles = 0;
        for (QDirIterator it(m_dir.filePath(QStringLiteral("shared")), QDir::Files, QDirIterator::Subdirectories);
             it.hasNext();) {
            QFile file(it.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray content = file.readAll();
            QVERIFY2(!content.contains(kSecret), qPrintable(file.fileName()));
            QVERIFY2(!content.contains("GENERIC_BASE_URL"), qPrintable(file.fileName()));
            jobFiles += QFileInfo(file.fileName()).fileName().startsWith(QStringLiteral("job-")) ? 1 : 0;
        }
        QCOMPARE(jobFiles, 8);
    }

    void nodeDownMidRun_errorItems_thenResumeFinishesThem()
    {
        const QString suite = writeSuite(QStringLiteral("slow.json"),
                                         R"([{"id": "s", "input": "Normalize x",
                 "verifiers": [{"type": "command", "command": "sleep 6; echo slept", "timeout_seconds": 60}]}])");
        const QString runs = m_dir.filePath(QStringLiteral("runs-node-down"));
        QProcess eval;
        QSignalSpy finished(&eval, &QProcess::finished);
        start(eval, evalArguments(suite, runs, QStringLiteral("slurm")));
        // The four items' command jobs are running on the node: it goes down under them.
        QTRY_VERIFY_WITH_TIMEOUT(
            tool(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("R"),
                                            QStringLiteral("-o"), QStringLiteral("%i")})
                    .split(u'\n', Qt::SkipEmptyParts)
                    .size() == 4,
            30000);
        tool(QStringLiteral("scontrol"), {QStringLiteral("update"), QStringLiteral("nodename=localhost"),
                                          QStringLiteral("state=down"), QStringLiteral("reason=test-node-died")});
        const bool ended = finished.wait(60000);
        tool(QStringLiteral("scontrol"),
             {QStringLiteral("update"), QStringLiteral("nodename=localhost"), QStringLiteral("state=idle")});
        QVERIFY(ended);
        const QString runDir = runDirIn(runs);
        auto items = runOutcomes(runDir);
        QCOMPARE(items.size(), 4);
        for (const QJsonObject &o : items) {
            QVERIFY2(o.value(QStringLiteral("error")).toString().contains(QStringLiteral("NODE_FAIL")),
                     qPrintable(QString::fromUtf8(QJsonDocument(o).toJson())));
        }
        QTRY_VERIFY_WITH_TIMEOUT(
            tool(QStringLiteral("sinfo"), {QStringLiteral("-h"), QStringLiteral("-o"), QStringLiteral("%T")})
                    .trimmed() == QLatin1String("idle"),
            20000);

        // No --executor: the run goes back to the cluster its run.json records, with the same shared folder.
        const QStringList resume{QStringLiteral("eval"), QStringLiteral("--resume"), runDir,
                                 QStringLiteral("--poll-ms"), QStringLiteral("250")};
        const Result resumed = run(resume);
        QVERIFY2(resumed.err.contains(QStringLiteral("heavy work on: Slurm")) &&
                     resumed.err.contains(QStringLiteral("as run.json records")),
                 qPrintable(resumed.err));
        QVERIFY2(resumed.exitCode == 0,
                 qPrintable(resumed.err + QStringLiteral("\nsqueue:\n") +
                            tool(QStringLiteral("squeue"), {QStringLiteral("-t"), QStringLiteral("all")}) +
                            tool(QStringLiteral("sinfo"), {})));
        items = runOutcomes(runDir);
        QCOMPARE(items.size(), 4);
        for (const QJsonObject &o : items) {
            QVERIFY2(o.value(QStringLiteral("error")).toString().isEmpty(),
                     qPrintable(QString::fromUtf8(QJsonDocument(o).toJson())));
            QVERIFY(QJsonDocument(o).toJson().contains("slept"));
        }
    }

    void interruptedEval_scancelsItsJobs()
    {
        const QString suite = writeSuite(QStringLiteral("long.json"),
                                         R"([{"id": "l", "input": "Normalize x",
                 "verifiers": [{"type": "command", "command": "sleep 120", "timeout_seconds": 300}]}])");
        QProcess eval;
        QSignalSpy finished(&eval, &QProcess::finished);
        start(eval, evalArguments(suite, m_dir.filePath(QStringLiteral("runs-interrupted")), QStringLiteral("slurm")));
        auto running = [] {
            return tool(QStringLiteral("squeue"), {QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("R"),
                                                   QStringLiteral("-o"), QStringLiteral("%A")})
                .split(u'\n', Qt::SkipEmptyParts);
        };
        QTRY_VERIFY_WITH_TIMEOUT(running().size() == 4, 60000);
        QStringList arrays = running();
        arrays.removeDuplicates();
        eval.terminate(); // SIGTERM, as Ctrl-C's SIGINT
        QVERIFY(finished.wait(30000));
        QCOMPARE(eval.exitCode(), 130);
        QVERIFY2(eval.readAllStandardError().contains("cancelling the Slurm jobs"), "no word of the cancel");
        // Nothing of it is left running, and each of its tasks ended CANCELLED.
        QTRY_VERIFY_WITH_TIMEOUT(running().isEmpty(), 20000);
        QStringList states =
            tool(QStringLiteral("squeue"),
                 {QStringLiteral("-h"), QStringLiteral("-t"), QStringLiteral("all"), QStringLiteral("-r"),
                  QStringLiteral("-j"), arrays.join(u','), QStringLiteral("-o"), QStringLiteral("%T")})
                .split(u'\n', Qt::SkipEmptyParts);
        states.removeDuplicates();
        QCOMPARE(states, QStringList{QStringLiteral("CANCELLED")});
    }

    void kernelCheck_localAndSlurmWithGres_sameVerdict()
    {
        const QString candidate = QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/gpu/candidates/noop.cu");
        const QStringList check{QStringLiteral("kernel"),
                                QStringLiteral("check"),
                                QStringLiteral("rmsnorm"),
                                QStringLiteral("--candidate"),
                                candidate,
                                QStringLiteral("--no-timing"),
                                QStringLiteral("--json")};
        const Result local = run(check);
        const Result slurm =
            run(check + QStringList{QStringLiteral("--executor"), QStringLiteral("slurm"), QStringLiteral("--gres"),
                                    QStringLiteral("gpu:1"), QStringLiteral("--shared-dir"),
                                    m_dir.filePath(QStringLiteral("shared-kernels")), QStringLiteral("--poll-ms"),
                                    QStringLiteral("250")});
        QVERIFY2(local.exitCode != 2, qPrintable(local.err));
        QCOMPARE(slurm.exitCode, local.exitCode);
        // Built once here and once on the node: only how long the build took and whether the cache had it differ.
        auto verdict = [](const QString &text) {
            QJsonObject json = QJsonDocument::fromJson(text.toUtf8()).object();
            QJsonObject build = json.value(QStringLiteral("build")).toObject();
            build.remove(QStringLiteral("build_ms"));
            build.remove(QStringLiteral("from_cache"));
            json.insert(QStringLiteral("build"), build);
            return json;
        };
        QVERIFY(!verdict(local.out).isEmpty());
        QCOMPARE(verdict(slurm.out), verdict(local.out));

        const Result tooMany = run(check + QStringList{QStringLiteral("--executor"), QStringLiteral("slurm"),
                                                       QStringLiteral("--gres"), QStringLiteral("gpu:3")});
        QCOMPARE(tooMany.exitCode, 2);
        QVERIFY2(tooMany.err.contains(QStringLiteral("a GPU asked of a partition without GPUs")),
                 qPrintable(tooMany.err));
    }

    void settingsProfile_isTheDefault_theCommandLineWins()
    {
        const QString confDir = m_dir.filePath(QStringLiteral("home/config/skillforge"));
        QVERIFY(QDir().mkpath(confDir));
        QFile conf(QDir(confDir).filePath(QStringLiteral("skillforge.conf")));
        QVERIFY(conf.open(QIODevice::WriteOnly));
        conf.write("[slurm]\npartition=nosuch\n");
        conf.close();
        const QStringList check{QStringLiteral("kernel"),
                                QStringLiteral("check"),
                                QStringLiteral("rmsnorm"),
                                QStringLiteral("--candidate"),
                                QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/gpu/candidates/noop.cu"),
                                QStringLiteral("--no-timing"),
                                QStringLiteral("--executor"),
                                QStringLiteral("slurm"),
                                QStringLiteral("--poll-ms"),
                                QStringLiteral("250")};
        const Result fromProfile = run(check);
        QCOMPARE(fromProfile.exitCode, 2);
        QVERIFY2(fromProfile.err.contains(QStringLiteral("no such partition")), qPrintable(fromProfile.err));
        const Result overridden = run(check + QStringList{QStringLiteral("--partition"), QStringLiteral("debug")});
        QVERIFY2(overridden.exitCode != 2, qPrintable(overridden.err));
        QVERIFY(conf.remove());
    }

    void refusedPartition_isBadUsage_beforeAnyModelCall()
    {
        const QString suite = m_dir.filePath(QStringLiteral("suite.json"));
        const qsizetype requests = m_server.requests().size();
        QStringList arguments =
            evalArguments(suite, m_dir.filePath(QStringLiteral("runs-refused")), QStringLiteral("slurm"));
        arguments << QStringLiteral("--partition") << QStringLiteral("nosuch");
        const Result r = run(arguments);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(QStringLiteral("no such partition")), qPrintable(r.err));
        QCOMPARE(m_server.requests().size(), requests);
    }
};

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (const QString conf = slurmConf(); conf.isEmpty() || !QFileInfo::exists(conf))
        return sf::test::skipAll(QStringLiteral("no Slurm cluster (SLURM_CONF '%1' does not exist)").arg(conf));
    TestCliEvalSlurm test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_cli_eval_slurm.moc"
