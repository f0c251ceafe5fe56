#include "ChatReplies.h"
#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "eval/EvalRunner.h"
#include "eval/EvalSession.h"
#include "eval/LocalExecutor.h"
#include "eval/RunSummary.h"
#include "eval/SandboxCommand.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"
#include "usage/Pricing.h"

#include <QDeadlineTimer>
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
#include <QThread>
#include <memory>

using namespace sf;
using namespace sf::test;

namespace {

const QByteArray kMagic = "USE-RMSNORM-EPS";

/// The student's replies: 40 tokens in, 8 out, from the model the server names.
const ReplyShape kStudent{40, 8, QStringLiteral("student-2026-01")};

ScriptedResponse reply(const QString &text, int delayMs = 0)
{
    ReplyShape shape = kStudent;
    shape.delayMs = delayMs;
    return scriptedReply(text, shape);
}

QString systemOf(const RecordedRequest &request)
{
    const QJsonArray messages =
        QJsonDocument::fromJson(request.body).object().value(QStringLiteral("messages")).toArray();
    for (const QJsonValue &m : messages) {
        if (m.toObject().value(QStringLiteral("role")).toString() == QLatin1String("system"))
            return m.toObject().value(QStringLiteral("content")).toString();
    }
    return {};
}

ScriptedResponse toolCall(const QString &name, const QJsonObject &arguments)
{
    return scriptedToolCall(name, arguments, kStudent);
}

// The tool results the request carries, in order.
QStringList toolResults(const RecordedRequest &request)
{
    QStringList results;
    const QJsonArray messages =
        QJsonDocument::fromJson(request.body).object().value(QStringLiteral("messages")).toArray();
    for (const QJsonValue &m : messages) {
        if (m.toObject().value(QStringLiteral("role")).toString() == QLatin1String("tool"))
            results.append(m.toObject().value(QStringLiteral("content")).toString());
    }
    return results;
}

// The tools a request offers; nullopt when it has no "tools" at all (a request offering none must not send an empty
// list either, so the two are told apart).
std::optional<QJsonArray> toolsOf(const RecordedRequest &request)
{
    const QJsonObject body = QJsonDocument::fromJson(request.body).object();
    if (!body.contains(QStringLiteral("tools")))
        return std::nullopt;
    return body.value(QStringLiteral("tools")).toArray();
}

// results.jsonl's lines as written, each parsed.
QList<QJsonObject> resultLines(const QString &runDir)
{
    QFile file(QDir(runDir).filePath(QStringLiteral("results.jsonl")));
    QList<QJsonObject> lines;
    if (!file.open(QIODevice::ReadOnly))
        return lines;
    for (const QByteArray &line : file.readAll().split('\n')) {
        if (!line.trimmed().isEmpty())
            lines.append(QJsonDocument::fromJson(line).object());
    }
    return lines;
}

QJsonObject readJson(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(file.readAll()).object() : QJsonObject();
}

// A student that does what the skill says only when the skill is in its prompt.
ScriptedResponse skillFollower(const RecordedRequest &request)
{
    return reply(systemOf(request).contains(QString::fromLatin1(kMagic))
                     ? QStringLiteral("Done: ") + QString::fromLatin1(kMagic)
                     : QStringLiteral("Done."));
}

} // namespace

class TestEvalRunner final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<ScriptedHttpServer> m_server;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_chat;
    QString m_skillDir;

    TestSuite suite(const QByteArray &json)
    {
        return std::get<TestSuite>(parseTestSuite(json, QStringLiteral("suite.json")));
    }

    TestSuite threeCases()
    {
        return suite(R"([{"id": "a", "input": "Normalize x", "expected": {"contains": "USE-RMSNORM-EPS"}},
                         {"id": "b", "input": "Normalize y", "expected": {"contains": "USE-RMSNORM-EPS"}},
                         {"id": "c", "input": "Normalize z", "split": "heldout", "expected": {"contains": "USE-RMSNORM-EPS"}}])");
    }

    AgentSetup setup(int runs = 2)
    {
        AgentSetup s;
        s.skill = std::get<SkillUnderTest>(loadSkillUnderTest(m_skillDir));
        s.config.models = {QStringLiteral("generic:student")};
        s.config.runs = runs;
        s.config.concurrency = 3;
        s.config.studentTools = sf::ToolOffer::Never;
        s.runCommand = refusingCommandRunner(QStringLiteral("no sandbox in this test"));
        return s;
    }

    /// Prices generic:student with the user's own price file, as a user with a paid endpoint would.
    static void priceStudent(const QByteArray &usdPerMillionTokens, const QByteArray &longContext = {})
    {
        QDir().mkpath(QFileInfo(Pricing::userFilePath()).absolutePath());
        QFile file(Pricing::userFilePath());
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"prices": [{"pattern": "generic:student", "effective": "2025-01-01", "usdPerMillionTokens": )" +
                   usdPerMillionTokens + (longContext.isEmpty() ? QByteArray() : ", \"longContext\": " + longContext) +
                   "}]}");
        file.close();
        Pricing::reload();
    }

    RunStore newStore() { return std::get<RunStore>(RunStore::create(m_dir.filePath(QStringLiteral("runs")), {})); }

    // Runs the whole matrix and returns the store's results.
    QList<ItemResult> runAll(const AgentSetup &s, const TestSuite &suite, RunStore &store)
    {
        LocalExecutor executor(*m_chat, s);
        EvalRunner runner(executor, store, suite, s.config);
        QSignalSpy finished(&runner, &EvalRunner::finished);
        runner.start();
        [&] { QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000); }();
        return store.results();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        m_skillDir = m_dir.filePath(QStringLiteral("rmsnorm"));
        QVERIFY(QDir().mkpath(m_skillDir));
        QFile skill(QDir(m_skillDir).filePath(QStringLiteral("SKILL.md")));
        QVERIFY(skill.open(QIODevice::WriteOnly));
        skill.write("---\nname: rmsnorm\ndescription: Write RMSNorm kernels.\n---\n# RMSNorm\n\nAlways answer with " +
                    kMagic + ".\n");
    }

    void init()
    {
        m_server = std::make_unique<ScriptedHttpServer>();
        QVERIFY(m_server->listen());
        qputenv("GENERIC_BASE_URL", m_server->baseUrl().toEncoded() + "/v1");
        m_engine = std::make_unique<HttpEngine>();
        m_providers = std::make_unique<ProviderRegistry>();
        m_chat = std::make_unique<ChatClient>(*m_engine, *m_providers, nullptr);
    }

    void cleanup()
    {
        QFile::remove(Pricing::userFilePath());
        Pricing::reload();
        m_chat.reset();
        m_providers.reset();
        m_engine.reset();
        m_server.reset();
    }

    void matrix_interleavesArms_andHonoursCaseRepeats()
    {
        TestSuite s = threeCases();
        s.cases[2].repeats = 1;
        EvalConfig config;
        config.models = {QStringLiteral("generic:a"), QStringLiteral("generic:b")};
        config.runs = 2;
        const QList<ItemKey> items = EvalRunner::matrix(s, config);
        QCOMPARE(items.size(), 2 * 2 * (2 + 2 + 1));
        QCOMPARE(items[0].arm, kBaselineArm);
        QCOMPARE(items[1].arm, kWithSkillArm);
        QCOMPARE(items[2].arm, kWithSkillArm); // the next pair starts with the other arm
        QCOMPARE(items[3].arm, kBaselineArm);
        QSet<QString> unique;
        for (const ItemKey &k : items)
            unique.insert(k.toString());
        QCOMPARE(unique.size(), items.size());

        // Asked to, the run's repeats apply to every case, the one with its own too.
        s.cases[0].repeats = 5;
        QCOMPARE(EvalRunner::matrix(s, config).size(), 2 * 2 * (5 + 2 + 1));
        config.runsForEveryCase = true;
        QCOMPARE(EvalRunner::matrix(s, config).size(), 2 * 2 * (2 + 2 + 2));
        QVERIFY(EvalConfig::fromJson(config.toJson()).runsForEveryCase);
    }

    void skillFollowingModel_showsLiftOne_withIdenticalPromptsApartFromTheSkill()
    {
        m_server->routeHandler("POST", "/v1/chat/completions", skillFollower);
        RunStore store = newStore();
        const QList<ItemResult> results = runAll(setup(), threeCases(), store);
        QCOMPARE(results.size(), 12);
        const RunSummary summary = summarizeRun(results);
        const ArmComparison *c = summary.comparison(QStringLiteral("generic:student"));
        QCOMPARE(c->lift, 1.0);
        QCOMPARE(c->table.onlySecond, 6);
        QVERIFY(qAbs(c->pValue - 2.0 / 64) < 1e-12);
        QCOMPARE(summary.comparison(QStringLiteral("generic:student"), QStringLiteral("heldout"))->table.pairs(), 2);
        for (const ItemResult &r : results) {
            QCOMPARE(r.stopReason, StopReason::Answered);
            QCOMPARE(r.resolvedModel, QStringLiteral("student-2026-01"));
            QCOMPARE(r.usage.uncachedInput, 40);
            QCOMPARE(r.turns, 1);
            QVERIFY(QFile::exists(QDir(store.dir()).filePath(r.transcript)));
        }
        // Both arms' system prompts are the same text, the skill appended for with_skill only.
        QSet<QString> baselinePrompts;
        QSet<QString> skillPrompts;
        for (const RecordedRequest &r : m_server->requests())
            (systemOf(r).contains(QStringLiteral("## Skill:")) ? skillPrompts : baselinePrompts).insert(systemOf(r));
        QCOMPARE(baselinePrompts.size(), 1);
        QCOMPARE(skillPrompts.size(), 1);
        QVERIFY(skillPrompts.begin()->startsWith(*baselinePrompts.begin()));
        QCOMPARE(store.manifest().status, QStringLiteral("finished"));
    }

    // Issue 22: an item whose student has no tools and whose case neither gives files nor reads them gets no
    // workspace folder (two folders an item were most of a 400-item run's CPU time); one that reads files does.
    void workspace_onlyForItemsThatUseOne()
    {
        m_server->route("POST", "/v1/chat/completions", reply(QStringLiteral("USE-RMSNORM-EPS")));
        RunStore store = newStore();
        const TestSuite cases = suite(R"([{"id": "text", "input": "Normalize x", "expected": {"contains": "EPS"}},
            {"id": "file", "input": "Write it", "verifiers": [{"type": "file_exists", "path": "out.cu"}]},
            {"id": "given", "input": "Read it", "context": {"files": {"in.txt": "x"}},
             "expected": {"contains": "EPS"}}])");
        const QList<ItemResult> results = runAll(setup(1), cases, store);
        QCOMPARE(results.size(), 6);
        for (const ItemResult &r : results) {
            const QString workspace =
                QDir(store.dir()).filePath(QStringLiteral("artifacts/%1/workspace").arg(r.key.fileName()));
            QCOMPARE(QFileInfo(workspace).isDir(), r.key.caseId != QLatin1String("text"));
            QCOMPARE(r.stopReason, StopReason::Answered);
        }
        QVERIFY(QFile::exists(QDir(store.dir()).filePath(
            QStringLiteral("artifacts/%1/workspace/in.txt").arg(ItemKey{QStringLiteral("generic:student"), kWithSkillArm,
                                                                         QStringLiteral("given"), 1}
                                                                     .fileName()))));
    }

    void indifferentModel_showsNoLift()
    {
        m_server->route("POST", "/v1/chat/completions", reply(QStringLiteral("USE-RMSNORM-EPS")));
        RunStore store = newStore();
        const RunSummary summary = summarizeRun(runAll(setup(), threeCases(), store));
        const ArmComparison *c = summary.comparison(QStringLiteral("generic:student"));
        QCOMPARE(c->lift, 0.0);
        QCOMPARE(c->table.bothPass, 6);
        QCOMPARE(c->pValue, 1.0);
    }

    void providerFaults_endAsRecordedErrors_notLostItems()
    {
        m_server->routeHandler("POST", "/v1/chat/completions", [](const RecordedRequest &request) {
            if (request.body.contains("Normalize y"))
                return ScriptedResponse::json(400, R"({"error":{"message":"context length exceeded"}})");
            return skillFollower(request);
        });
        RunStore store = newStore();
        const QList<ItemResult> results = runAll(setup(1), threeCases(), store);
        QCOMPARE(results.size(), 6);
        int errors = 0;
        for (const ItemResult &r : results) {
            if (r.key.caseId == QLatin1String("b")) {
                ++errors;
                QVERIFY(!r.passed);
                QCOMPARE(r.stopReason, StopReason::Error);
                QVERIFY2(r.error.contains(QStringLiteral("context length")), qPrintable(r.error));
            }
        }
        QCOMPARE(errors, 2);
        const RunSummary summary = summarizeRun(results);
        QCOMPARE(summary.arm(QStringLiteral("generic:student"), kWithSkillArm)->errors, 1);
        QCOMPARE(summary.comparison(QStringLiteral("generic:student"))->table.pairs(), 2);
    }

    void resume_runsErroredItemsAgain_andTheirNewResultSupersedesTheError()
    {
        bool providerDown = true;
        m_server->routeHandler("POST", "/v1/chat/completions", [&providerDown](const RecordedRequest &request) {
            if (providerDown && request.body.contains("Normalize y"))
                return ScriptedResponse::json(400, R"({"error":{"message":"upstream overloaded"}})");
            return skillFollower(request);
        });
        RunStore store = newStore();
        QCOMPARE(runAll(setup(1), threeCases(), store).size(), 6);
        QCOMPARE(store.manifest().status, QStringLiteral("finished"));

        providerDown = false;
        RunStore resumed = std::get<RunStore>(RunStore::open(store.dir()));
        const int requestsBefore = int(m_server->requests().size());
        const QList<ItemResult> results = runAll(setup(1), threeCases(), resumed);
        QCOMPARE(int(m_server->requests().size()) - requestsBefore, 2); // only case b, both arms
        QCOMPARE(results.size(), 6);
        for (const ItemResult &r : results)
            QVERIFY2(!r.isError(), qPrintable(r.key.toString()));
        const RunStore onDisk = std::get<RunStore>(RunStore::open(store.dir(), RunStore::Access::ReadOnly));
        QCOMPARE(onDisk.results().size(), 6);
        QCOMPARE(summarizeRun(onDisk.results()).comparison(QStringLiteral("generic:student"))->lift, 1.0);

        // Nothing left to retry: a further resume asks the provider nothing.
        RunStore third = std::get<RunStore>(RunStore::open(store.dir()));
        const int requestsAfter = int(m_server->requests().size());
        QCOMPARE(runAll(setup(1), threeCases(), third).size(), 6);
        QCOMPARE(int(m_server->requests().size()), requestsAfter);
    }

    void wallTimeLimit_stopsTheItem_andRecordsWhy()
    {
        m_server->route("POST", "/v1/chat/completions", reply(QStringLiteral("late"), 5000));
        AgentSetup s = setup(1);
        s.config.timeoutSeconds = 1;
        s.config.concurrency = 6;
        RunStore store = newStore();
        const QList<ItemResult> results = runAll(s, threeCases(), store);
        QCOMPARE(results.size(), 6);
        for (const ItemResult &r : results) {
            QCOMPARE(r.stopReason, StopReason::Timeout);
            QVERIFY(!r.passed);
            QVERIFY(!r.isError());
        }
    }

    void agentic_modelLoadsTheSkillWithATool_andTheRunRecordsWhen()
    {
        // Loads the skill when one is listed, then follows it; without a listing it just answers.
        m_server->routeHandler("POST", "/v1/chat/completions", [](const RecordedRequest &request) {
            const QStringList results = toolResults(request);
            if (!systemOf(request).contains(QStringLiteral("<skill name=\"rmsnorm\"")))
                return reply(QStringLiteral("Done."));
            if (results.isEmpty())
                return toolCall(QStringLiteral("load_skill"), {{QStringLiteral("name"), QStringLiteral("rmsnorm")}});
            return reply(results.last().contains(QString::fromLatin1(kMagic)) ? QString::fromLatin1(kMagic)
                                                                              : QStringLiteral("?"));
        });
        AgentSetup s = setup(1);
        s.config.mode = QStringLiteral("agentic");
        s.config.studentTools = sf::ToolOffer::Always;
        RunStore store = newStore();
        const QList<ItemResult> results = runAll(s, threeCases(), store);
        QCOMPARE(results.size(), 6);
        for (const ItemResult &r : results) {
            if (r.key.arm == kWithSkillArm) {
                QVERIFY(r.passed);
                QCOMPARE(r.skillLoaded, std::optional<bool>(true));
                QCOMPARE(r.skillLoadedAtTurn, 1);
                QCOMPARE(r.turns, 2);
                QCOMPARE(r.toolCallCounts.value(QStringLiteral("load_skill")), 1);
            } else {
                QVERIFY(!r.passed);
                QVERIFY(!r.skillLoaded); // the baseline has no skill to load: not counted in the trigger rate
            }
        }
        const RunSummary summary = summarizeRun(results);
        QCOMPARE(summary.arm(QStringLiteral("generic:student"), kWithSkillArm)->triggerRate->rate, 1.0);
        // The skill is offered only through the listing and the load_skill tool.
        for (const RecordedRequest &r : m_server->requests()) {
            const QJsonArray tools = QJsonDocument::fromJson(r.body).object().value(QStringLiteral("tools")).toArray();
            const bool listed = systemOf(r).contains(QStringLiteral("<skill name="));
            QCOMPARE(tools.size(), listed ? 5 : 4);
            QVERIFY(!systemOf(r).contains(QString::fromLatin1(kMagic)));
        }
    }

    void studentWritesAFile_withTheWriteTool_andFileVerifiersSeeIt()
    {
        m_server->routeHandler("POST", "/v1/chat/completions", [](const RecordedRequest &request) {
            if (toolResults(request).isEmpty())
                return toolCall(QStringLiteral("write_file"),
                                {{QStringLiteral("path"), QStringLiteral("out/kernel.cu")},
                                 {QStringLiteral("content"), QStringLiteral("__global__ void k() {}")}});
            return reply(QStringLiteral("written"));
        });
        AgentSetup s = setup(1);
        s.config.studentTools = sf::ToolOffer::Always;
        RunStore store = newStore();
        const TestSuite files = suite(R"([{"id": "w", "input": "Write a kernel to out/kernel.cu",
            "context": {"files": {"ref.cu": "reference"}},
            "verifiers": [{"type": "file_contains", "path": "out/kernel.cu", "text": "__global__"},
                          {"type": "file_exists", "path": "ref.cu"}]}])");
        const QList<ItemResult> results = runAll(s, files, store);
        QCOMPARE(results.size(), 2);
        for (const ItemResult &r : results) {
            QVERIFY2(r.passed, qPrintable(r.verifiers.first().evidence));
            QCOMPARE(r.toolCalls, 1);
        }
    }

    void toolCallWrittenAsText_isRun_andTheTranscriptSaysSo()
    {
        // What the embedded model does: the call as a fenced JSON object in the text, no tool_calls.
        m_server->routeHandler("POST", "/v1/chat/completions", [](const RecordedRequest &request) {
            if (toolResults(request).isEmpty())
                return reply(QStringLiteral("```json\n{\"name\": \"write_file\", \"arguments\": {\"path\": "
                                            "\"out/kernel.cu\", \"content\": \"__global__ void k() {}\"}}\n```"));
            return reply(QStringLiteral("written"));
        });
        AgentSetup s = setup(1);
        s.config.studentTools = sf::ToolOffer::Always;
        RunStore store = newStore();
        const TestSuite files = suite(R"([{"id": "w", "input": "Write a kernel to out/kernel.cu",
            "verifiers": [{"type": "file_contains", "path": "out/kernel.cu", "text": "__global__"}]}])");
        const QList<ItemResult> results = runAll(s, files, store);
        QCOMPARE(results.size(), 2);
        for (const ItemResult &r : results) {
            QVERIFY2(r.passed, qPrintable(r.verifiers.first().evidence));
            QCOMPARE(r.toolCalls, 1);
            QCOMPARE(r.answer, QStringLiteral("written"));
        }
        // The second request carries the call back as a real tool call, answered by the tool's result.
        const RecordedRequest second = m_server->requests().last();
        QCOMPARE(toolResults(second).size(), 1);
        QFile transcript(QDir(store.dir()).filePath(results.first().transcript));
        QVERIFY(transcript.open(QIODevice::ReadOnly));
        QVERIFY(transcript.readAll().contains("\"tool_calls_from_text\": true"));
    }

    void skillTooLargeForTheContext_isAnErrorNamingTheSkill_notRetried()
    {
        m_server->routeHandler("POST", "/v1/chat/completions", [](const RecordedRequest &request) {
            if (systemOf(request).contains(QString::fromLatin1(kMagic)))
                return ScriptedResponse::json(400, R"({"error":{"code":400,"message":"request (5000 tokens) exceeds )"
                                                   R"(the available context size (4096 tokens), try increasing it"}})");
            return reply(QStringLiteral("Done."));
        });
        RunStore store = newStore();
        const QList<ItemResult> results = runAll(setup(1), threeCases(), store);
        QCOMPARE(results.size(), 6);
        for (const ItemResult &r : results) {
            if (r.key.arm != kWithSkillArm) {
                QVERIFY(!r.isError());
                continue;
            }
            QVERIFY(r.isError());
            QVERIFY2(r.error.contains(QStringLiteral("The skill \"rmsnorm\"")) &&
                         r.error.contains(QStringLiteral("tokens")) && r.error.contains(QStringLiteral("4096")),
                     qPrintable(r.error));
        }
        QCOMPARE(m_server->requestCount("/v1/chat/completions"), 6); // one attempt each: an overflow is not retried
    }

    void turnLimit_stopsAModelThatNeverAnswers()
    {
        m_server->routeHandler("POST", "/v1/chat/completions",
                               [](const RecordedRequest &) { return toolCall(QStringLiteral("list_files"), {}); });
        AgentSetup s = setup(1);
        s.config.studentTools = sf::ToolOffer::Always;
        s.config.maxTurns = 3;
        RunStore store = newStore();
        const QList<ItemResult> results = runAll(s, threeCases(), store);
        for (const ItemResult &r : results) {
            QCOMPARE(r.stopReason, StopReason::MaxTurns);
            QCOMPARE(r.turns, 3);
            QCOMPARE(r.toolCalls, 3);
            QVERIFY(!r.passed);
        }
    }

    // Issue 46: a paid student's item is its requests, each priced as it came back at its own tier, added up.
    void pricedStudent_eachRequestPricedOnItsOwn_theItemTheirSum()
    {
        // Above 60 input tokens a request costs twice as much; each request has 40, an item's two have 80.
        priceStudent(R"({"input": 1000, "output": 5000})",
                     R"({"aboveInputTokens": 60, "usdPerMillionTokens": {"input": 2000, "output": 10000}})");
        m_server->routeHandler("POST", "/v1/chat/completions", [](const RecordedRequest &request) {
            if (toolResults(request).isEmpty())
                return toolCall(QStringLiteral("list_files"), {});
            return skillFollower(request);
        });
        AgentSetup s = setup(1);
        s.config.studentTools = sf::ToolOffer::Always;
        RunStore store = newStore();
        const QList<ItemResult> results = runAll(s, threeCases(), store);
        QCOMPARE(results.size(), 6);
        const double perRequest = (40 * 1000 + 8 * 5000) / 1e6;
        for (const ItemResult &r : results) {
            QCOMPARE(r.turns, 2);
            QVERIFY2(r.costUsd, qPrintable(r.key.toString()));
            QVERIFY2(qAbs(*r.costUsd - 2 * perRequest) < 1e-12, qPrintable(QString::number(*r.costUsd)));
            QCOMPARE(r.unpricedRequests, 0);
            QFile transcript(QDir(store.dir()).filePath(r.transcript));
            QVERIFY(transcript.open(QIODevice::ReadOnly));
            int priced = 0;
            for (const QJsonValue &m :
                 QJsonDocument::fromJson(transcript.readAll())[QStringLiteral("messages")].toArray())
                if (m[QStringLiteral("role")].toString() == QLatin1String("assistant")) {
                    QVERIFY(m[QStringLiteral("cost_usd")].isDouble());
                    QVERIFY(qAbs(m[QStringLiteral("cost_usd")].toDouble() - perRequest) < 1e-12);
                    ++priced;
                }
            QCOMPARE(priced, 2);
        }
        const ArmSummary *arm = summarizeRun(results).arm(QStringLiteral("generic:student"), kWithSkillArm);
        QVERIFY(arm && arm->costUsd);
        QVERIFY(qAbs(arm->costUsd->mean - 2 * perRequest) < 1e-12);
    }

    void unpricedStudent_itemsHaveNoCost_andCountTheirUnpricedRequests()
    {
        m_server->routeHandler("POST", "/v1/chat/completions", skillFollower);
        RunStore store = newStore();
        const QList<ItemResult> results = runAll(setup(1), threeCases(), store);
        for (const ItemResult &r : results) {
            QVERIFY(!r.costUsd);
            QCOMPARE(r.unpricedRequests, 1);
        }
        const ArmSummary *arm = summarizeRun(results).arm(QStringLiteral("generic:student"), kWithSkillArm);
        QVERIFY(arm && !arm->costUsd);
        QCOMPARE(arm->unpricedItems, 3);
    }

    // Issue 46: a spending cap stops the run from starting items once the spend and the next item's expected cost
    // would pass it; the run is resumable, and a resume without a cap finishes it, every item exactly once.
    void spendingCap_stopsStartingItems_saysWhy_andAResumeFinishes()
    {
        priceStudent(R"({"input": 1, "output": 5})");
        m_server->routeHandler("POST", "/v1/chat/completions", [](const RecordedRequest &request) {
            const bool follows = systemOf(request).contains(QString::fromLatin1(kMagic));
            return scriptedReply(follows ? QString::fromLatin1(kMagic) : QStringLiteral("Done."),
                                 {100000, 300, QStringLiteral("student-2026-01")});
        });
        const double perItem = (100000 * 1 + 300 * 5) / 1e6;
        AgentSetup s = setup(1);
        s.config.concurrency = 1;
        RunStore store = newStore();
        {
            LocalExecutor executor(*m_chat, s);
            EvalRunner runner(executor, store, threeCases(), s.config);
            runner.setSpendingCap(0.25, 10);
            QSignalSpy finished(&runner, &EvalRunner::finished);
            runner.start();
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
            QCOMPARE(finished.first().first().toBool(), false);
            // Two items fit ($0.2030); a third may take the spend to $0.3045.
            QCOMPARE(store.results().size(), 2);
            QVERIFY(runner.capReached());
            QVERIFY(qAbs(runner.spend().spentUsd() - 2 * perItem) < 1e-12);
            QVERIFY2(runner.stopReason().startsWith(QStringLiteral("the spending cap of $0.2500 was reached: $0.2030 "
                                                                   "spent, and the next item may cost "
                                                                   "$0.1015")),
                     qPrintable(runner.stopReason()));
            QCOMPARE(runner.spend().describe(runner.spendingCap()), QStringLiteral("$0.2030 spent of a $0.2500 cap"));
        }
        QCOMPARE(store.manifest().status, QStringLiteral("stopped"));
        RunStore resumed = std::get<RunStore>(RunStore::open(store.dir()));
        const QList<ItemResult> results = runAll(s, threeCases(), resumed);
        QCOMPARE(results.size(), 6);
        QSet<QString> keys;
        const RunStore onDisk = std::get<RunStore>(RunStore::open(store.dir(), RunStore::Access::ReadOnly));
        for (const ItemResult &r : onDisk.results())
            keys.insert(r.key.toString());
        QCOMPARE(keys.size(), 6);
    }

    void cancelThenResume_runsOnlyWhatIsMissing_exactlyOnce()
    {
        m_server->routeHandler("POST", "/v1/chat/completions", [](const RecordedRequest &request) {
            ScriptedResponse r = skillFollower(request);
            r.delayMs = 50;
            return r;
        });
        AgentSetup s = setup(2);
        s.config.concurrency = 2;
        RunStore store = newStore();
        {
            LocalExecutor executor(*m_chat, s);
            EvalRunner runner(executor, store, threeCases(), s.config);
            connect(&runner, &EvalRunner::itemFinished, &runner, [&runner] {
                if (runner.done() == 5)
                    runner.cancel();
            });
            QSignalSpy finished(&runner, &EvalRunner::finished);
            runner.start();
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
            QCOMPARE(finished.first().first().toBool(), true);
        }
        QCOMPARE(store.manifest().status, QStringLiteral("cancelled"));
        RunStore resumed = std::get<RunStore>(RunStore::open(store.dir()));
        QCOMPARE(resumed.results().size(), 5);
        const int requestsBefore = int(m_server->requests().size());
        const QList<ItemResult> results = runAll(s, threeCases(), resumed);
        QCOMPARE(results.size(), 12);
        QCOMPARE(int(m_server->requests().size()) - requestsBefore, 7);
        QSet<QString> keys;
        const RunStore onDisk = std::get<RunStore>(RunStore::open(store.dir(), RunStore::Access::ReadOnly));
        for (const ItemResult &r : onDisk.results())
            keys.insert(r.key.toString());
        QCOMPARE(keys.size(), 12);
        QCOMPARE(summarizeRun(results).comparison(QStringLiteral("generic:student"))->lift, 1.0);
    }

    // 089eaf1: "auto", the default tool offer, gives the student its tools only where the case needs them (files it
    // gives, a verifier that reads the workspace or runs a command), to both arms of that case alike, so a question
    // answered in text is not turned into a tool loop; each result line says whether its student had them.
    void toolsAuto_offeredOnlyWhereTheCaseNeedsThem_inBothArms_andEachResultSaysSo()
    {
        m_server->route("POST", "/v1/chat/completions", reply(QStringLiteral("USE-RMSNORM-EPS")));
        AgentSetup s = setup(1);
        s.config.studentTools = EvalConfig().studentTools; // the default, which setup() pins to Never
        QVERIFY(s.config.studentTools == ToolOffer::Auto);
        const TestSuite cases = suite(R"([{"id": "text", "input": "Answer in words", "expected": {"contains": "EPS"}},
            {"id": "given", "input": "Sum up the given file", "context": {"files": {"in.txt": "x"}},
             "expected": {"contains": "EPS"}},
            {"id": "reads", "input": "Write the kernel", "verifiers": [{"type": "file_exists", "path": "out.cu"}]},
            {"id": "runs", "input": "Make the build pass", "verifiers": [{"type": "command", "command": "true"}]}])");
        const QHash<QString, QString> caseOfInput{{QStringLiteral("Answer in words"), QStringLiteral("text")},
                                                  {QStringLiteral("Sum up the given file"), QStringLiteral("given")},
                                                  {QStringLiteral("Write the kernel"), QStringLiteral("reads")},
                                                  {QStringLiteral("Make the build pass"), QStringLiteral("runs")}};
        RunStore store = newStore();
        const QList<ItemResult> results = runAll(s, cases, store);
        QCOMPARE(results.size(), 8);

        QHash<QString, QSet<QString>> armsAsked;
        for (const RecordedRequest &r : m_server->requests()) {
            QString caseId;
            for (auto it = caseOfInput.cbegin(); it != caseOfInput.cend(); ++it) {
                if (r.body.contains(it.key().toUtf8()))
                    caseId = it.value();
            }
            QVERIFY2(!caseId.isEmpty(), r.body.constData());
            const QString arm = systemOf(r).contains(QStringLiteral("## Skill:")) ? kWithSkillArm : kBaselineArm;
            armsAsked[caseId].insert(arm);
            const std::optional<QJsonArray> tools = toolsOf(r);
            const QByteArray where = (caseId + u'/' + arm).toUtf8();
            if (caseId == QLatin1String("text")) {
                QVERIFY2(!tools, where.constData());
            } else {
                QVERIFY2(tools, where.constData());
                QCOMPARE(tools->size(), 4); // read_file, write_file, list_files, run_command
            }
        }
        for (const QString &caseId : caseOfInput)
            QCOMPARE(armsAsked.value(caseId).size(), 2);
        for (const ItemResult &r : results)
            QCOMPARE(r.toolsOffered, std::optional<bool>(r.key.caseId != QLatin1String("text")));
        const QList<QJsonObject> lines = resultLines(store.dir());
        QCOMPARE(lines.size(), 8);
        for (const QJsonObject &line : lines) {
            QVERIFY2(line.value(QStringLiteral("tools_offered")).isBool(),
                     QJsonDocument(line).toJson(QJsonDocument::Compact).constData());
            QCOMPARE(line.value(QStringLiteral("tools_offered")).toBool(),
                     line.value(QStringLiteral("case")).toString() != QLatin1String("text"));
        }

        // In agentic mode the skill is loaded with a tool: even a text question gets the tools, in both arms.
        const qsizetype before = m_server->requests().size();
        s.config.mode = QStringLiteral("agentic");
        RunStore agentic = newStore();
        const TestSuite textOnly =
            suite(R"([{"id": "text", "input": "Answer in words", "expected": {"contains": "EPS"}}])");
        const QList<ItemResult> agenticResults = runAll(s, textOnly, agentic);
        QCOMPARE(agenticResults.size(), 2);
        for (const ItemResult &r : agenticResults)
            QCOMPARE(r.toolsOffered, std::optional<bool>(true));
        const QList<RecordedRequest> requests = m_server->requests();
        QCOMPARE(requests.size() - before, 2);
        for (qsizetype i = before; i < requests.size(); ++i) {
            const std::optional<QJsonArray> tools = toolsOf(requests[i]);
            QVERIFY(tools);
            QCOMPARE(tools->size(), systemOf(requests[i]).contains(QStringLiteral("<skill name=")) ? 5 : 4);
        }
    }

    // 089eaf1: a run recorded before "auto" holds student_tools as a flag, and true offered the tools to every case.
    // A resume takes the settings from run.json, so the items it runs now meet the tools the first ones met, not the
    // new default.
    void resume_ofARunRecordedBeforeAuto_keepsTheToolsItRecorded()
    {
        bool providerDown = true;
        m_server->routeHandler("POST", "/v1/chat/completions", [&providerDown](const RecordedRequest &) {
            return providerDown ? ScriptedResponse::json(400, R"({"error":{"message":"upstream overloaded"}})")
                                : reply(QStringLiteral("USE-RMSNORM-EPS"));
        });
        const QString suitePath = m_dir.filePath(QStringLiteral("text-suite.json"));
        {
            QFile file(suitePath);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(R"([{"id": "text", "input": "Answer in words", "expected": {"contains": "EPS"}}])");
        }
        EvalPlan plan;
        plan.skillDir = m_skillDir;
        plan.suitePath = suitePath;
        plan.config = setup(1).config;
        plan.config.studentTools = ToolOffer::Auto;
        plan.runsDir = m_dir.filePath(QStringLiteral("older-runs"));
        QString runDir;
        {
            auto prepared = EvalSession::prepare(*m_chat, plan, refusingCommandRunner(QStringLiteral("no sandbox")));
            if (const QString *error = std::get_if<QString>(&prepared))
                QFAIL(qPrintable(*error));
            EvalSession &session = *std::get<std::unique_ptr<EvalSession>>(prepared);
            QSignalSpy finished(&session.runner(), &EvalRunner::finished);
            session.start();
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
            runDir = session.store().dir();
            QCOMPARE(session.store().results().size(), 2);
            for (const ItemResult &r : session.store().results()) {
                QVERIFY(r.isError()); // resumed below
                QCOMPARE(r.toolsOffered, std::optional<bool>(false));
            }
        }
        // What an older Skillforge wrote in run.json's parameters: the flag, where this one writes the choice's name.
        const QString manifestPath = QDir(runDir).filePath(QStringLiteral("run.json"));
        QJsonObject manifest = readJson(manifestPath);
        QJsonObject parameters = manifest.value(QStringLiteral("parameters")).toObject();
        QCOMPARE(parameters.value(QStringLiteral("student_tools")).toString(), QStringLiteral("auto"));
        parameters.insert(QStringLiteral("student_tools"), true);
        manifest.insert(QStringLiteral("parameters"), parameters);
        {
            QFile file(manifestPath);
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(QJsonDocument(manifest).toJson());
        }

        providerDown = false;
        const qsizetype before = m_server->requests().size();
        plan.resumeDir = runDir; // plan.config still says auto: a resume takes run.json's settings instead
        {
            auto prepared = EvalSession::prepare(*m_chat, plan, refusingCommandRunner(QStringLiteral("no sandbox")));
            if (const QString *error = std::get_if<QString>(&prepared))
                QFAIL(qPrintable(*error));
            EvalSession &session = *std::get<std::unique_ptr<EvalSession>>(prepared);
            QVERIFY(session.config().studentTools == ToolOffer::Always);
            QSignalSpy finished(&session.runner(), &EvalRunner::finished);
            session.start();
            QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
            QCOMPARE(session.store().results().size(), 2);
            for (const ItemResult &r : session.store().results()) {
                QVERIFY2(!r.isError(), qPrintable(r.error));
                QCOMPARE(r.toolsOffered, std::optional<bool>(true));
            }
        }
        const QList<RecordedRequest> requests = m_server->requests();
        QCOMPARE(requests.size() - before, 2);
        for (qsizetype i = before; i < requests.size(); ++i) {
            const std::optional<QJsonArray> tools = toolsOf(requests[i]);
            QVERIFY(tools);
            QCOMPARE(tools->size(), 4);
        }
        // The other spellings run.json has held: false refused the tools; a name is the choice; none is the default.
        QVERIFY(EvalConfig::fromJson({{QStringLiteral("student_tools"), false}}).studentTools == ToolOffer::Never);
        QVERIFY(EvalConfig::fromJson({{QStringLiteral("student_tools"), QStringLiteral("never")}}).studentTools ==
                ToolOffer::Never);
        QVERIFY(EvalConfig::fromJson({{QStringLiteral("models"), QJsonArray()}}).studentTools == ToolOffer::Auto);
    }

    // 225b1bd: the cap decides on what the next item may cost, the dearest item of its model and arm so far, not
    // their mean: with items of uneven cost a mean lets through an item that takes the spend past the cap.
    void spendingCap_unevenItems_decidesOnTheDearestSoFar_andNeverPassesTheCap()
    {
        priceStudent(R"({"input": 1, "output": 5})");
        m_server->routeHandler("POST", "/v1/chat/completions", [](const RecordedRequest &request) {
            const int prompt = request.body.contains("Cheap question") ? 10000 : 100000;
            return scriptedReply(QStringLiteral("Done."), {prompt, 300, QStringLiteral("student-2026-01")});
        });
        const double cheap = (10000 * 1 + 300 * 5) / 1e6; // $0.0115
        const double dear = (100000 * 1 + 300 * 5) / 1e6; // $0.1015
        const TestSuite uneven = suite(R"([{"id": "cheap", "input": "Cheap question", "expected": {"contains": "x"}},
            {"id": "dear", "input": "Dear question", "expected": {"contains": "x"}},
            {"id": "dear2", "input": "Another dear question", "expected": {"contains": "x"}}])");
        AgentSetup s = setup(1);
        s.config.concurrency = 1;
        const double cap = 0.30;
        RunStore store = newStore();
        LocalExecutor executor(*m_chat, s);
        EvalRunner runner(executor, store, uneven, s.config);
        runner.setSpendingCap(cap, 10);
        QSignalSpy started(&runner, &EvalRunner::itemStarted);
        QSignalSpy finished(&runner, &EvalRunner::finished);
        runner.start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 20000);
        // In the matrix's order: cheap's baseline and with_skill, then dear's with_skill and baseline, $0.2260 in all.
        // dear2's baseline comes next: it may cost $0.1015 (the dearest baseline so far) and so would pass the cap.
        // The mean of the baselines ($0.0565) would have let it start, and the spend end at $0.3275.
        QCOMPARE(started.count(), 4);
        QCOMPARE(store.results().size(), 4);
        QVERIFY(runner.capReached());
        QVERIFY2(runner.spend().spentUsd() <= cap, qPrintable(QString::number(runner.spend().spentUsd())));
        QVERIFY(qAbs(runner.spend().spentUsd() - 2 * (cheap + dear)) < 1e-12);
        QVERIFY2(
            runner.stopReason().startsWith(QStringLiteral("the spending cap of $0.3000 was reached: $0.2260 spent, "
                                                          "and the next item may cost $0.1015")),
            qPrintable(runner.stopReason()));
        QCOMPARE(store.manifest().status, QStringLiteral("stopped"));
    }

    // 9a52fff: the student's run_command runs in the bubblewrap sandbox: as an unprivileged user (65534, "nobody"),
    // able to write only its item's workspace; what the command printed goes back to the model and into the
    // transcript.
    void runCommand_runsInTheSandbox_asNobody_writingOnlyTheWorkspace()
    {
        QString why;
        if (!sandboxAvailable(&why))
            SF_SKIP_BECAUSE(QStringLiteral("no sandbox here: ") + why);
        // Two places this test may write on the host, outside every workspace. One is under /tmp, which the sandbox
        // replaces with an empty tmpfs of its own: a write there may succeed but must not reach the host. The other,
        // beside the test (in the build tree), is not in the sandbox at all: the write is refused.
        const QString inTmp = m_dir.filePath(QStringLiteral("escape.txt"));
        QTemporaryDir besideTheTest(QDir::current().filePath(QStringLiteral("sandbox-escape-XXXXXX")));
        QVERIFY(besideTheTest.isValid());
        const QString outside = besideTheTest.filePath(QStringLiteral("escape.txt"));
        const QString command = QStringLiteral("id -u; touch '%1' 2>/dev/null; touch '%2' 2>/dev/null || echo refused; "
                                               "echo hi > out.txt; echo done")
                                    .arg(inTmp, outside);
        m_server->routeHandler("POST", "/v1/chat/completions", [command](const RecordedRequest &request) {
            if (toolResults(request).isEmpty())
                return toolCall(QStringLiteral("run_command"), {{QStringLiteral("command"), command}});
            return reply(QStringLiteral("ran it"));
        });
        AgentSetup s = setup(1);
        s.config.studentTools = ToolOffer::Always;
        s.runCommand = sandboxCommandRunner();
        RunStore store = newStore();
        const TestSuite writesAFile = suite(R"([{"id": "cmd", "input": "Run the build",
            "verifiers": [{"type": "file_contains", "path": "out.txt", "text": "hi"}]}])");
        const QList<ItemResult> results = runAll(s, writesAFile, store);
        QCOMPARE(results.size(), 2);
        QVERIFY(!QFile::exists(inTmp));
        QVERIFY(!QFile::exists(outside));
        for (const ItemResult &r : results) {
            QVERIFY2(r.passed, qPrintable(r.verifiers.first().evidence));
            QCOMPARE(r.toolCallCounts.value(QStringLiteral("run_command")), 1);
            QCOMPARE(r.toolErrors, 0);
            QFile written(
                QDir(store.dir()).filePath(QStringLiteral("artifacts/%1/workspace/out.txt").arg(r.key.fileName())));
            QVERIFY(written.open(QIODevice::ReadOnly));
            QCOMPARE(written.readAll(), QByteArray("hi\n"));

            // The transcript holds the call and what it printed: the sandbox's uid, the refused write, the end.
            const QJsonArray messages =
                readJson(QDir(store.dir()).filePath(r.transcript)).value(QStringLiteral("messages")).toArray();
            QString called;
            QString output;
            for (const QJsonValue &m : messages) {
                for (const QJsonValue &call : m[QStringLiteral("tool_calls")].toArray()) {
                    const QJsonObject c = call.toObject();
                    called = c[QStringLiteral("name")].toString() + u' ' + c[QStringLiteral("arguments")].toString();
                }
                if (m[QStringLiteral("role")].toString() == QLatin1String("tool"))
                    output = m[QStringLiteral("content")].toString();
            }
            QVERIFY2(called.startsWith(QStringLiteral("run_command ")) && called.contains(QStringLiteral("id -u")),
                     qPrintable(called));
            QCOMPARE(output, QStringLiteral("exit code 0\n65534\nrefused\ndone\n"));
        }
        // The model was handed the same output.
        for (const RecordedRequest &r : m_server->requests()) {
            const QStringList fromTools = toolResults(r);
            if (!fromTools.isEmpty())
                QCOMPARE(fromTools.first(), QStringLiteral("exit code 0\n65534\nrefused\ndone\n"));
        }
    }

    // d707c4f: each item's transcript and result line are written on the run's writer thread; run.json says
    // "finished", and the writer lock goes, only once every line is on disk. A reader on another thread watches the
    // two files throughout and must never see "finished" beside a short results.jsonl; the cases' inputs are large,
    // so each transcript takes a while to write and a line written late would show.
    void finished_isInRunJsonOnlyOnceEveryResultLineIsWritten()
    {
        m_server->routeHandler("POST", "/v1/chat/completions", skillFollower);
        TestSuite big = threeCases();
        for (TestCase &c : big.cases)
            c.input += u' ' + QString(4 << 20, u'x');
        AgentSetup s = setup(1);
        RunStore store = newStore();
        const QString runJson = QDir(store.dir()).filePath(QStringLiteral("run.json"));
        const QString resultsJsonl = QDir(store.dir()).filePath(QStringLiteral("results.jsonl"));
        const auto linesIn = [](const QString &path) {
            QFile file(path);
            return file.open(QIODevice::ReadOnly) ? int(file.readAll().count('\n')) : 0;
        };
        int linesWhenFinishedSeen = -1;
        std::unique_ptr<QThread> watcher(QThread::create([&] {
            QDeadlineTimer deadline(60000);
            while (!deadline.hasExpired()) {
                if (readJson(runJson).value(QStringLiteral("status")).toString() == QLatin1String("finished")) {
                    linesWhenFinishedSeen = linesIn(resultsJsonl);
                    return;
                }
            }
        }));
        watcher->start();

        LocalExecutor executor(*m_chat, s);
        EvalRunner runner(executor, store, big, s.config);
        int linesAtSignal = -1;
        QJsonObject manifestAtSignal;
        std::optional<QString> lockHolderAtSignal = QStringLiteral("not read");
        connect(&runner, &EvalRunner::finished, this, [&] {
            linesAtSignal = linesIn(resultsJsonl);
            manifestAtSignal = readJson(runJson);
            lockHolderAtSignal = RunLock::holder(store.dir());
        });
        QSignalSpy finished(&runner, &EvalRunner::finished);
        runner.start();
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
        QVERIFY(watcher->wait(QDeadlineTimer(60000)));

        QCOMPARE(runner.total(), 6);
        QCOMPARE(linesAtSignal, 6);
        QCOMPARE(manifestAtSignal.value(QStringLiteral("status")).toString(), QStringLiteral("finished"));
        QCOMPARE(manifestAtSignal.value(QStringLiteral("planned_items")).toInt(), 6);
        QVERIFY2(!lockHolderAtSignal, qPrintable(lockHolderAtSignal.value_or(QString())));
        QCOMPARE(linesWhenFinishedSeen, 6);
    }
};

SF_TEST_GUILESS_MAIN(TestEvalRunner)
#include "test_eval_runner.moc"
