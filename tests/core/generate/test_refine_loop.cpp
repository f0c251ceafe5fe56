// The refine loop with a scripted teacher and student over real HTTP: it improves the skill until a
// criterion is met, shows the teacher only training failures, and lets the user accept or reject.
#include "ChatReplies.h"
#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "generate/RefineLoop.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"
#include "skill/SkillVersionStore.h"
#include "usage/Pricing.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace sf;
using namespace sf::test;
using namespace Qt::StringLiterals;

namespace {

QString skillText(const QString &marker)
{
    return u"---\nname: demo\ndescription: Teaches the demo task. Use when asked for it.\n---\n# Demo\nAlways say %1.\n"_s
        .arg(marker);
}

// A teacher that always writes the skill with @p marker.
ScriptedResponse teacherWriting(const QString &marker, const ReplyShape &shape = {})
{
    return scriptedReply(u"=== FILE: SKILL.md ===\n"_s + skillText(marker), shape);
}

} // namespace

class TestRefineLoop final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ScriptedHttpServer> m_server;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_client;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_teacherMarker = u"MAGIC-V2"_s; // what the scripted teacher writes into the skill
    QStringList m_teacherMarkers;            // when set: what it writes, one per request, in order
    QList<QByteArray> m_teacherRequests;
    ReplyShape m_replyShape; // the usage every scripted reply reports

    QString skillDir() const { return m_dir->filePath(u"skills/demo"_s); }

    RefineRequest request() const
    {
        RefineRequest request;
        request.skillDir = skillDir();
        request.suitePath = m_dir->filePath(u"tests/demo.json"_s);
        request.teacherModel = u"openai:teacher"_s;
        request.config.models = {u"openai:student"_s};
        request.config.studentTools = sf::ToolOffer::Never;
        request.config.concurrency = 4;
        request.runsDir = m_dir->filePath(u"runs"_s);
        request.criteria.maxIterations = 4;
        request.criteria.plateauIterations = 0;
        return request;
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_teacherMarker = u"MAGIC-V2"_s;
        m_teacherMarkers.clear();
        m_replyShape = {};
        m_teacherRequests.clear();
        m_server = std::make_unique<ScriptedHttpServer>();
        QVERIFY(m_server->listen());
        // The student passes (says PASS-TOKEN) only when its prompt holds the improved skill.
        m_server->routeHandler("POST", "/v1/chat/completions", [this](const RecordedRequest &request) {
            const QJsonObject body = QJsonDocument::fromJson(request.body).object();
            if (body.value(u"model"_s).toString() == u"teacher"_s) {
                m_teacherRequests.append(request.body);
                if (!m_teacherMarkers.isEmpty())
                    return teacherWriting(m_teacherMarkers.takeFirst(), m_replyShape);
                return teacherWriting(m_teacherMarker, m_replyShape);
            }
            return scriptedReply(request.body.contains("MAGIC-V2") ? u"PASS-TOKEN"_s : u"no idea"_s, m_replyShape);
        });
        qputenv("OPENAI_BASE_URL", m_server->baseUrl().toEncoded() + "/v1");
        qputenv("OPENAI_API_KEY", "sk-test-0000");
        m_engine = std::make_unique<HttpEngine>();
        m_providers = std::make_unique<ProviderRegistry>();
        m_client = std::make_unique<ChatClient>(*m_engine, *m_providers, nullptr);

        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(QDir().mkpath(skillDir()));
        QVERIFY(QDir().mkpath(m_dir->filePath(u"tests"_s)));
        QFile skill(skillDir() + u"/SKILL.md"_s);
        QVERIFY(skill.open(QIODevice::WriteOnly));
        skill.write(skillText(u"MAGIC-V1"_s).toUtf8());
        skill.close();
        QFile suite(m_dir->filePath(u"tests/demo.json"_s));
        QVERIFY(suite.open(QIODevice::WriteOnly));
        suite.write(R"({"cases": [
          {"id": "case-1", "input": "Do the demo task, part one", "expected": {"contains": ["PASS-TOKEN"]}},
          {"id": "case-2", "input": "Do the demo task, part two", "expected": {"contains": ["PASS-TOKEN"]}},
          {"id": "secret", "input": "SECRET-HELDOUT-INPUT", "expected": {"contains": ["PASS-TOKEN"]}, "split": "heldout"}
        ]})");
        suite.close();
    }

    void cleanup()
    {
        m_client.reset();
        m_providers.reset();
        m_engine.reset();
        m_server.reset();
        m_dir.reset();
    }

    void refine_improvesUntilTheTargetLift_andNeverShowsHeldOutCases()
    {
        RefineRequest req = request();
        req.criteria.targetLift = 1.0;
        RefineLoop loop(*m_client, refusingCommandRunner(u"no commands in this test"_s));
        QSignalSpy finished(&loop, &RefineLoop::finished);
        QSignalSpy failed(&loop, &RefineLoop::failed);
        loop.start(req);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count() + failed.count(), 1, 30000);
        QVERIFY2(failed.isEmpty(), failed.isEmpty() ? "" : qPrintable(failed.first().first().toString()));
        QVERIFY2(finished.first().first().toString().startsWith(u"target lift reached"_s),
                 qPrintable(finished.first().first().toString()));

        const QList<RefineIteration> iterations = loop.iterations();
        QCOMPARE(iterations.size(), 2);
        QCOMPARE(iterations.at(0).trainLift, 0.0);
        QCOMPARE(iterations.at(1).trainLift, 1.0);
        QCOMPARE(iterations.at(1).trainPassRate, 1.0);
        QVERIFY(iterations.at(0).heldOutLift.has_value());
        QCOMPARE(*iterations.at(1).heldOutLift, 1.0); // the held-out case is measured every iteration...
        QVERIFY(iterations.at(0).accepted);
        QVERIFY(!iterations.at(0).proposedVersionId.isEmpty());
        QCOMPARE(iterations.at(1).versionId, iterations.at(0).proposedVersionId);

        // ...but the teacher never sees it, and does see the training failures with their evidence.
        QCOMPARE(m_teacherRequests.size(), 1);
        const QByteArray teacher = m_teacherRequests.first();
        QVERIFY(!teacher.contains("SECRET-HELDOUT-INPUT"));
        QVERIFY(!teacher.contains("secret"));
        QVERIFY(teacher.contains("Case case-1"));
        QVERIFY(teacher.contains("Do the demo task, part one"));
        QVERIFY(teacher.contains("PASS-TOKEN"));
        QVERIFY(teacher.contains("iteration 1: lift 0.0 pp"));

        const QList<SkillVersion> versions = SkillVersionStore(skillDir()).versions();
        QCOMPARE(versions.first().origin, u"refine:1"_s);
    }

    void refine_stopsAtTheIterationLimit()
    {
        m_teacherMarker = u"MAGIC-V1"_s; // the teacher never finds the fix
        RefineRequest req = request();
        req.criteria.maxIterations = 2;
        RefineLoop loop(*m_client, refusingCommandRunner(u"none"_s));
        QSignalSpy finished(&loop, &RefineLoop::finished);
        loop.start(req);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(finished.first().first().toString(), u"iteration limit reached (2 improvements tried)"_s);
        // The skill as it was, then each of the two improvements.
        QCOMPARE(loop.iterations().size(), 3);
        QCOMPARE(m_teacherRequests.size(), 2);
    }

    // Issue 35, item 2: iteration 2 measured +100 pp, the accepted proposal after it 0 pp; the loop used to stop with
    // SKILL.md at the worse version and say nothing.
    void refine_laterVersionWorse_endsOnTheBestMeasured_andSaysSo()
    {
        m_teacherMarkers = {u"MAGIC-V2"_s, u"MAGIC-V3"_s}; // better, then worse than V2
        RefineRequest req = request();
        req.criteria.maxIterations = 2;
        RefineLoop loop(*m_client, refusingCommandRunner(u"none"_s));
        QSignalSpy finished(&loop, &RefineLoop::finished);
        loop.start(req);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(finished.first().first().toString(), u"iteration limit reached (2 improvements tried)"_s);
        const QList<RefineIteration> iterations = loop.iterations();
        QCOMPARE(iterations.size(), 3);
        QCOMPARE(*iterations.at(1).heldOutLift, 1.0);
        QCOMPARE(*iterations.at(2).heldOutLift, 0.0);

        QFile skill(skillDir() + u"/SKILL.md"_s);
        QVERIFY(skill.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(skill.readAll()), skillText(u"MAGIC-V2"_s));
        QCOMPARE(loop.keptIteration(), 2);
        QCOMPARE(loop.keptText(), u"Kept iteration 2 (+100.0 pp on the held-out cases): the best measured of 3."_s);
        // The worse version is not lost: it is a stored version, and its content the newest before the restore.
        const SkillVersionStore store(skillDir());
        QVERIFY(store.files(iterations.at(2).versionId).value(u"SKILL.md"_s).contains("MAGIC-V3"));
    }

    void bestIteration_ranksByHeldOutLift_thenTrain_andKeepsTheEarlierOnATie()
    {
        RefineIteration first;
        first.number = 1;
        first.trainLift = 0.5;
        first.heldOutLift = 0.5;
        RefineIteration overfit = first;
        overfit.number = 2;
        overfit.trainLift = 1.0;   // better on the cases the teacher saw...
        overfit.heldOutLift = 0.0; // ...worse on those it did not
        QCOMPARE(bestRefineIteration({first, overfit})->number, 1);
        RefineIteration same = first;
        same.number = 3;
        QCOMPARE(bestRefineIteration({first, same})->number, 1);
        RefineIteration better = first;
        better.number = 4;
        better.trainLift = 0.75;
        QCOMPARE(bestRefineIteration({first, better})->number, 4);
        RefineIteration noHeldOut;
        noHeldOut.trainLift = 0.25;
        QCOMPARE(noHeldOut.rankingLift(), 0.25);
        QVERIFY(!bestRefineIteration({}));
    }

    void refine_oneIteration_asksTheTeacherOnce_andMeasuresTheProposal()
    {
        RefineRequest req = request();
        req.criteria.maxIterations = 1;
        RefineLoop loop(*m_client, refusingCommandRunner(u"none"_s));
        QSignalSpy finished(&loop, &RefineLoop::finished);
        loop.start(req);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QCOMPARE(m_teacherRequests.size(), 1);
        QCOMPARE(loop.iterations().size(), 2);
        QVERIFY(!loop.iterations().first().proposedVersionId.isEmpty());
        QVERIFY(loop.iterations().first().accepted);
        QCOMPARE(loop.iterations().last().trainPassRate, 1.0); // the teacher's MAGIC-V2 made the students pass
        QCOMPARE(finished.first().first().toString(), u"iteration limit reached (1 improvement tried)"_s);
    }

    void refine_stopsOnAPlateau()
    {
        m_teacherMarker = u"MAGIC-V1"_s;
        RefineRequest req = request();
        req.criteria.plateauIterations = 1;
        req.criteria.plateauDelta = 0.05;
        RefineLoop loop(*m_client, refusingCommandRunner(u"none"_s));
        QSignalSpy finished(&loop, &RefineLoop::finished);
        loop.start(req);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY(finished.first().first().toString().startsWith(u"plateau"_s));
        QCOMPARE(loop.iterations().size(), 2);
    }

    void refine_stopsOnTheTargetPassRate()
    {
        RefineRequest req = request();
        req.criteria.targetPassRate = 0.9;
        RefineLoop loop(*m_client, refusingCommandRunner(u"none"_s));
        QSignalSpy finished(&loop, &RefineLoop::finished);
        loop.start(req);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY(finished.first().first().toString().startsWith(u"target pass rate reached: 100%"_s));
    }

    void refine_costBudgetWithUnpricedModels_isRefusedBeforeAnything_namingThem()
    {
        RefineRequest req = request();
        req.criteria.maxCostUsd = 1.0;
        RefineLoop loop(*m_client, refusingCommandRunner(u"none"_s));
        QSignalSpy failed(&loop, &RefineLoop::failed);
        loop.start(req);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 30000);
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(u"openai:student, openai:teacher"_s) && message.contains(u"pricing.json"_s),
                 qPrintable(message));
        QVERIFY(loop.iterations().isEmpty());
        QVERIFY(!QDir(m_dir->filePath(u"runs"_s)).exists());
    }

    // Issue 46: the budget covers the students' evaluations and the teacher's calls, each request priced on its own,
    // and the loop stops before an iteration that is expected to pass it.
    void refine_stopsAtItsCostBudget_teacherAndStudentsCounted()
    {
        QDir().mkpath(QFileInfo(Pricing::userFilePath()).absolutePath());
        QFile prices(Pricing::userFilePath());
        QVERIFY(prices.open(QIODevice::WriteOnly));
        prices.write(R"({"prices": [{"pattern": "openai:student", "effective": "2025-01-01",
                                     "usdPerMillionTokens": {"input": 1, "output": 5}},
                                    {"pattern": "openai:teacher", "effective": "2025-01-01",
                                     "usdPerMillionTokens": {"input": 1, "output": 5}}]})");
        prices.close();
        Pricing::reload();
        m_replyShape = {1500, 300, u"scripted"_s};
        RefineRequest req = request();
        req.criteria.maxCostUsd = 0.045;
        RefineLoop loop(*m_client, refusingCommandRunner(u"none"_s));
        QSignalSpy finished(&loop, &RefineLoop::finished);
        loop.start(req);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QFile::remove(Pricing::userFilePath());
        Pricing::reload();

        // Every request: 1,500 tokens in at $1 and 300 out at $5 per million, $0.0030. An evaluation is six items of
        // one request; the teacher's proposal is one.
        const double perRequest = (1500 * 1 + 300 * 5) / 1e6;
        QCOMPARE(loop.iterations().size(), 2);
        for (const RefineIteration &iteration : loop.iterations()) {
            QVERIFY(iteration.costUsd);
            QVERIFY(qAbs(*iteration.costUsd - 6 * perRequest) < 1e-12);
        }
        QVERIFY(loop.iterations().first().teacherCostUsd);
        QVERIFY(qAbs(*loop.iterations().first().teacherCostUsd - perRequest) < 1e-12);
        QVERIFY(loop.spentUsd());
        QVERIFY(qAbs(*loop.spentUsd() - 13 * perRequest) < 1e-12);
        QCOMPARE(
            finished.first().first().toString(),
            u"cost budget reached: $0.0390 spent of $0.0450, and the next iteration is expected to cost $0.0210"_s);
    }

    void attended_rejectRestoresAndAsksAgain_acceptEvaluates()
    {
        RefineRequest req = request();
        req.attended = true;
        req.criteria.targetLift = 1.0;
        RefineLoop loop(*m_client, refusingCommandRunner(u"none"_s));
        QSignalSpy proposals(&loop, &RefineLoop::proposalReady);
        QSignalSpy finished(&loop, &RefineLoop::finished);
        loop.start(req);
        QTRY_COMPARE_WITH_TIMEOUT(proposals.count(), 1, 30000);
        QVERIFY(QFile(skillDir() + u"/SKILL.md"_s).open(QIODevice::ReadOnly));

        loop.reject();
        QFile skill(skillDir() + u"/SKILL.md"_s);
        QVERIFY(skill.open(QIODevice::ReadOnly));
        QVERIFY(skill.readAll().contains("MAGIC-V1")); // the evaluated version is back
        skill.close();
        QTRY_COMPARE_WITH_TIMEOUT(proposals.count(), 2, 30000);
        QCOMPARE(m_teacherRequests.size(), 2);

        loop.accept();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 30000);
        QVERIFY(finished.first().first().toString().startsWith(u"target lift reached"_s));
        QCOMPARE(loop.iterations().size(), 2);
    }
};

SF_TEST_GUILESS_MAIN(TestRefineLoop)
#include "test_refine_loop.moc"
