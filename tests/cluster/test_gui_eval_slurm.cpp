#include "ChatReplies.h"
#include "RunOutcomes.h"
#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "SlurmTestCluster.h"
#include "cluster/EvalLaunch.h"
#include "eval/SandboxCommand.h"
#include "jobs/JobListModel.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace sf;
using namespace sf::test;

/// The GUI's way to an evaluation on Slurm, end to end on the real single-node cluster: launchEvaluation() (what
/// the Runs view calls with the launch dialog's choice) with a Jobs panel row, against a scripted provider. The row
/// sees the Slurm job ids reach "done", and the results equal those of the same evaluation run here.
class TestGuiEvalSlurm final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    ScriptedHttpServer m_server;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_chat;

    EvalPlan plan(const QString &runs) const
    {
        EvalPlan p;
        p.skillDir = m_dir.filePath(QStringLiteral("rmsnorm"));
        p.suitePath = m_dir.filePath(QStringLiteral("suite.json"));
        p.runsDir = m_dir.filePath(runs);
        p.config.models = {QStringLiteral("generic:student")};
        p.config.runs = 2;
        p.config.concurrency = 4;
        p.config.studentTools = sf::ToolOffer::Never;
        return p;
    }

    /// Launches as the Runs view does, runs the session to its end; the run folder, or "" with a failure recorded.
    QString evaluate(const EvalPlan &p, const ExecutorChoice &executor, Job *job)
    {
        std::optional<std::variant<LaunchedEvaluation, QString>> launched;
        QObject context;
        launchEvaluation(
            *m_chat, p, executor, sandboxCommandRunner(), &context,
            [&launched](std::variant<LaunchedEvaluation, QString> result) { launched = std::move(result); }, job,
            {QStringLiteral(SKILLFORGE_EXECUTABLE), 250});
        if (!QTest::qWaitFor([&] { return launched.has_value(); }, 60000)) {
            qWarning("launchEvaluation never answered");
            return {};
        }
        if (const QString *error = std::get_if<QString>(&*launched)) {
            qWarning("launchEvaluation refused: %s", qPrintable(*error));
            return {};
        }
        LaunchedEvaluation &evaluation = std::get<LaunchedEvaluation>(*launched);
        QSignalSpy finished(&evaluation.session->runner(), &EvalRunner::finished);
        evaluation.session->start();
        if (!finished.wait(180000))
            return {};
        return evaluation.session->store().dir();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_server.listen());
        m_server.routeHandler("POST", "/v1/chat/completions", [](const RecordedRequest &request) {
            return scriptedReply(request.body.contains("USE-RMSNORM-EPS") ? QStringLiteral("USE-RMSNORM-EPS")
                                                                          : QStringLiteral("ok"),
                                 {40, 8, QStringLiteral("student-2026-01"), 0});
        });
        qputenv("GENERIC_BASE_URL", m_server.baseUrl().toEncoded() + "/v1");
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("rmsnorm"))));
        QFile skill(m_dir.filePath(QStringLiteral("rmsnorm/SKILL.md")));
        QVERIFY(skill.open(QIODevice::WriteOnly));
        skill.write(
            "---\nname: rmsnorm\ndescription: Write RMSNorm kernels.\n---\nAlways answer with USE-RMSNORM-EPS.\n");
        QFile suite(m_dir.filePath(QStringLiteral("suite.json")));
        QVERIFY(suite.open(QIODevice::WriteOnly));
        suite.write(R"([{"id": "a", "input": "Normalize x", "expected": {"contains": "USE-RMSNORM-EPS"},
                 "verifiers": [{"type": "command", "command": "echo checked-a", "timeout_seconds": 20}]},
                {"id": "b", "input": "Normalize y",
                 "verifiers": [{"type": "command", "command": "echo failing-b >&2; exit 4", "timeout_seconds": 20}]}])");
        m_engine = std::make_unique<HttpEngine>();
        m_providers = std::make_unique<ProviderRegistry>();
        m_chat = std::make_unique<ChatClient>(*m_engine, *m_providers, nullptr);
    }

    void cleanupTestCase()
    {
        m_chat.reset();
        m_providers.reset();
        m_engine.reset();
    }

    void launchedOnSlurm_jobsRowSeesIdsDone_resultsEqualALocalRun()
    {
        const QString here = evaluate(plan(QStringLiteral("runs-local")), ExecutorChoice::local(), nullptr);
        QVERIFY(!here.isEmpty());

        JobListModel jobs;
        Job *job = jobs.add(new Job(QStringLiteral("Evaluate rmsnorm on Slurm")));
        SlurmProfile profile;
        profile.slurmConf = slurmConf();
        profile.sharedDir = m_dir.filePath(QStringLiteral("shared"));
        const QString there = evaluate(plan(QStringLiteral("runs-slurm")), ExecutorChoice::onSlurm(profile), job);
        QVERIFY(!there.isEmpty());

        // The row learnt the job ids from the runner's own polls and saw every one of them end "done".
        QTRY_VERIFY_WITH_TIMEOUT(!job->schedulerJobs().isEmpty() &&
                                     std::all_of(job->schedulerJobs().cbegin(), job->schedulerJobs().cend(),
                                                 [](const SchedulerJob &j) { return j.state == u"done"; }),
                                 10000);
        QCOMPARE(job->scheduler(), QStringLiteral("Slurm"));
        static const QRegularExpression slurmTaskId(QStringLiteral("^\\d+_\\d+$"));
        for (const SchedulerJob &j : job->schedulerJobs())
            QVERIFY2(slurmTaskId.match(j.id).hasMatch(), qPrintable(j.id));
        QVERIFY(jobs.index(0).data(JobListModel::SchedulerRole).toString().startsWith(QStringLiteral("Slurm ")));

        const auto local = runOutcomes(here);
        const auto slurm = runOutcomes(there);
        QCOMPARE(local.size(), 8);
        QCOMPARE(slurm.keys(), local.keys());
        for (const QString &key : local.keys())
            QVERIFY2(slurm[key] == local[key],
                     qPrintable(key + u'\n' + QString::fromUtf8(QJsonDocument(slurm[key]).toJson())));
        QVERIFY(QJsonDocument(slurm.first()).toJson().contains("checked-a") ||
                QJsonDocument(slurm.last()).toJson().contains("failing-b"));

        // run.json records where the verifiers ran, for the Runs view's Resume.
        QCOMPARE(recordedExecutor(there).slurm.sharedDir, profile.sharedDir);
        QVERIFY(recordedExecutor(there).isSlurm());
        QVERIFY(!recordedExecutor(here).isSlurm());
    }
};

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (const QString why = missingSlurmCluster(); !why.isEmpty())
        return sf::test::skipAll(why);
    TestGuiEvalSlurm test;
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_gui_eval_slurm.moc"
