// Test cases from a scripted model over real HTTP: read with the suite reader, repaired once,
// held-out share chosen here, existing files never replaced.
#include "ChatReplies.h"
#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "generate/TestCaseGenerator.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"

#include <QDir>
#include <QFile>
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

QByteArray openAiReply(const QString &text)
{
    return openAiReplyBody(text, 300, 120);
}

QString sixCases()
{
    QJsonArray cases;
    for (int i = 1; i <= 6; ++i) {
        cases.append(QJsonObject{
            {u"id"_s, u"case-%1"_s.arg(i)},
            {u"input"_s, u"Write an RMSNorm kernel for hidden size %1"_s.arg(1000 + i)},
            {u"verifiers"_s, QJsonArray{QJsonObject{{u"type"_s, u"regex"_s}, {u"pattern"_s, u"__global__"_s}},
                                        QJsonObject{{u"type"_s, u"cuda_kernel"_s},
                                                    {u"task"_s, u"rmsnorm"_s},
                                                    {u"dtype"_s, u"bf16"_s},
                                                    {u"path"_s, u"kernel.cu"_s}}}}});
    }
    return u"Here you go:\n```json\n"_s + QString::fromUtf8(QJsonDocument(QJsonObject{{u"cases"_s, cases}}).toJson()) +
           u"\n```"_s;
}

} // namespace

class TestTestCaseGenerator final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ScriptedHttpServer> m_server;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_client;
    std::unique_ptr<QTemporaryDir> m_dir;

    TestGenerationRequest request() const
    {
        TestGenerationRequest request;
        request.skillDir = m_dir->filePath(u"skill"_s);
        request.model = u"openai:tester"_s;
        request.outputPath = m_dir->filePath(u"tests/rmsnorm.json"_s);
        request.kernelTasks = {u"rmsnorm"_s, u"softmax"_s};
        return request;
    }

    TestGenerationResult generate(const TestGenerationRequest &req, QString *failure = nullptr)
    {
        TestCaseGenerator generator(*m_client);
        QSignalSpy finished(&generator, &TestCaseGenerator::finished);
        QSignalSpy failed(&generator, &TestCaseGenerator::failed);
        generator.start(req);
        [&] { QTRY_COMPARE_WITH_TIMEOUT(finished.count() + failed.count(), 1, 10000); }();
        if (!failed.isEmpty()) {
            if (failure) {
                *failure = failed.first().first().toString();
            }
            return {};
        }
        return finished.first().first().value<TestGenerationResult>();
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_server = std::make_unique<ScriptedHttpServer>();
        QVERIFY(m_server->listen());
        qputenv("OPENAI_BASE_URL", m_server->baseUrl().toEncoded() + "/v1");
        qputenv("OPENAI_API_KEY", "sk-test-0000");
        m_engine = std::make_unique<HttpEngine>();
        m_providers = std::make_unique<ProviderRegistry>();
        m_client = std::make_unique<ChatClient>(*m_engine, *m_providers, nullptr);
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(QDir().mkpath(m_dir->filePath(u"skill"_s)));
        QVERIFY(QDir().mkpath(m_dir->filePath(u"tests"_s)));
        QFile skill(m_dir->filePath(u"skill/SKILL.md"_s));
        QVERIFY(skill.open(QIODevice::WriteOnly));
        skill.write("---\nname: skill\ndescription: RMSNorm kernels. Use when asked for one.\n---\nWarp shuffles.\n");
        skill.close();
        QFile meta(m_dir->filePath(u"skill/skill_meta.json"_s));
        QVERIFY(meta.open(QIODevice::WriteOnly));
        meta.write(R"({"metadata": {"source_task": "Fuse RMSNorm for Flux"}, "tests": []})");
        meta.close();
    }

    void cleanup()
    {
        m_client.reset();
        m_providers.reset();
        m_engine.reset();
        m_server.reset();
        m_dir.reset();
    }

    void generate_writesTheSuiteWithAThirdHeldOut()
    {
        m_server->route("POST", "/v1/chat/completions", ScriptedResponse::json(200, openAiReply(sixCases())));
        QString failure;
        const TestGenerationResult result = generate(request(), &failure);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QCOMPARE(result.suite.cases.size(), 6);
        QCOMPARE(result.suite.heldOutCount(), 2);
        QVERIFY(result.suite.cases.at(2).isHeldOut());
        QVERIFY(result.suite.cases.at(5).isHeldOut());

        // What was written reads back the same, verifier kinds included.
        const auto reread = readTestSuite(result.path);
        QVERIFY(std::holds_alternative<TestSuite>(reread));
        const TestSuite suite = std::get<TestSuite>(reread);
        QCOMPARE(suite.heldOutCount(), 2);
        QCOMPARE(suite.cases.first().verifiers.at(1).type, u"cuda_kernel"_s);

        // The model saw the skill, the task from skill_meta.json, the count and the kernel tasks.
        const QJsonArray messages =
            QJsonDocument::fromJson(m_server->requests().first().body).object().value(u"messages"_s).toArray();
        const QString system = messages.at(0).toObject().value(u"content"_s).toString();
        const QString user = messages.at(1).toObject().value(u"content"_s).toString();
        QVERIFY(system.contains(u"rmsnorm, softmax"_s));
        QVERIFY(user.contains(u"Write 6 test cases"_s));
        QVERIFY(user.contains(u"Fuse RMSNorm for Flux"_s));
        QVERIFY(user.contains(u"Warp shuffles."_s));
    }

    void generate_unreadableReply_isRepairedWithTheReadersMessage()
    {
        m_server->routeSequence(
            "POST", "/v1/chat/completions",
            {ScriptedResponse::json(200, openAiReply(u"{\"cases\": [{\"input\": \"x\", "
                                                     "\"verifiers\": [{\"type\": \"telepathy\"}]}]}"_s)),
             ScriptedResponse::json(200, openAiReply(sixCases()))});
        const TestGenerationResult result = generate(request());
        QVERIFY(result.repaired);
        QCOMPARE(result.modelCalls, 2);
        QCOMPARE(result.usage.output, 240);
        const QJsonArray messages =
            QJsonDocument::fromJson(m_server->requests().at(1).body).object().value(u"messages"_s).toArray();
        QVERIFY(messages.last()
                    .toObject()
                    .value(u"content"_s)
                    .toString()
                    .contains(u"unknown verifier type \"telepathy\""_s));
    }

    void generate_secondReplyPartlyUnreadable_keepsWhatReads_andSaysWhatItLeftOut()
    {
        // Built as objects: moc misreads raw strings with unbalanced brackets.
        auto testCase = [](const QString &id, const QString &input, const QJsonArray &verifiers) {
            return QJsonObject{{u"id"_s, id}, {u"input"_s, input}, {u"verifiers"_s, verifiers}};
        };
        auto regex = [](const QString &pattern) { return QJsonObject{{u"type"_s, u"regex"_s}, {u"pattern"_s, pattern}}; };
        const QJsonArray cases{
            testCase(u"good"_s, u"Write the kernel."_s, {regex(u"__global__"_s), regex(u"(unclosed"_s)}),
            testCase(u"hopeless"_s, u"Explain."_s, {QJsonObject{{u"type"_s, u"telepathy"_s}}}),
            testCase(u"good"_s, u"Again, with the same id."_s, {QJsonObject{{u"type"_s, u"json_valid"_s}}}),
            testCase(u"judged"_s, u"Explain warp shuffles."_s,
                     {QJsonObject{{u"type"_s, u"llm_judge"_s}, {u"rubric"_s, u"Mentions __shfl_down_sync"_s},
                                  {u"threshold"_s, 4}}})};
        const QString partly = QString::fromUtf8(QJsonDocument(QJsonObject{{u"cases"_s, cases}}).toJson());
        m_server->route("POST", "/v1/chat/completions", ScriptedResponse::json(200, openAiReply(partly)));
        QString failure;
        const TestGenerationResult result = generate(request(), &failure);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QCOMPARE(result.modelCalls, 2);
        QCOMPARE(result.suite.cases.size(), 2);
        QCOMPARE(result.suite.cases.at(0).id, u"good"_s);
        QCOMPARE(result.suite.cases.at(0).verifiers.size(), 1);
        QCOMPARE(result.suite.cases.at(1).id, u"judged"_s);
        const QString dropped = result.dropped.join(u'\n');
        QVERIFY(dropped.contains(u"case 1 (good): an unreadable regex verifier"_s));
        QVERIFY(dropped.contains(u"case 2 (hopeless)"_s));
        QVERIFY(dropped.contains(u"case 3 (good): left out, its id is taken"_s));
        QVERIFY(std::holds_alternative<TestSuite>(readTestSuite(result.path)));
    }

    void generate_jsonReplyFormat_sendsASchemaForExactlyTheCount()
    {
        m_server->route("POST", "/v1/chat/completions", ScriptedResponse::json(200, openAiReply(sixCases())));
        TestGenerationRequest req = request();
        req.replyFormat = ReplyFormat::Json;
        QString failure;
        generate(req, &failure);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        const QJsonObject schema = QJsonDocument::fromJson(m_server->requests().first().body)
                                       .object()
                                       .value(u"response_format"_s)
                                       .toObject()
                                       .value(u"json_schema"_s)
                                       .toObject()
                                       .value(u"schema"_s)
                                       .toObject();
        const QJsonObject cases = schema.value(u"properties"_s).toObject().value(u"cases"_s).toObject();
        QCOMPARE(cases.value(u"minItems"_s).toInt(), 6);
        QCOMPARE(cases.value(u"maxItems"_s).toInt(), 6);
        // Every verifier kind the reader knows is offered, cuda_kernel limited to the known tasks.
        const QJsonArray kinds = cases.value(u"items"_s)
                                     .toObject()
                                     .value(u"properties"_s)
                                     .toObject()
                                     .value(u"verifiers"_s)
                                     .toObject()
                                     .value(u"items"_s)
                                     .toObject()
                                     .value(u"anyOf"_s)
                                     .toArray();
        QStringList offered;
        QJsonArray kernelTasks;
        for (const QJsonValue &kind : kinds) {
            const QJsonObject properties = kind.toObject().value(u"properties"_s).toObject();
            offered << properties.value(u"type"_s).toObject().value(u"enum"_s).toArray().first().toString();
            if (offered.last() == u"cuda_kernel"_s) {
                kernelTasks = properties.value(u"task"_s).toObject().value(u"enum"_s).toArray();
            }
        }
        QCOMPARE(offered, VerifierSpec::knownTypes());
        QCOMPARE(kernelTasks, QJsonArray({u"rmsnorm"_s, u"softmax"_s}));
    }

    void generate_stillUnreadable_failsAndWritesNothing()
    {
        m_server->route("POST", "/v1/chat/completions", ScriptedResponse::json(200, openAiReply(u"no JSON here"_s)));
        QString failure;
        generate(request(), &failure);
        QVERIFY(failure.contains(u"still not a readable test suite"_s));
        QVERIFY(!QFile::exists(request().outputPath));
    }

    void generate_replyCutAtTheTokenLimit_repairAndErrorSaySo()
    {
        // The suite stopped mid-case because the model ran out of tokens (finish_reason "length"): nothing reads.
        const QString whole = sixCases();
        const QString cut = whole.left(whole.indexOf(u"hidden size 1004"_s));
        const QJsonObject message{{u"role"_s, u"assistant"_s}, {u"content"_s, cut}};
        m_server->route("POST", "/v1/chat/completions",
                        ScriptedResponse::json(200, openAiCompletionBody(message, u"length"_s, {300, 900})));
        TestGenerationRequest req = request();
        req.maxTokens = 900;
        QString failure;
        generate(req, &failure);

        const QString said = u"(the reply was cut off at the token limit of 900 tokens)"_s;
        QCOMPARE(m_server->requests().size(), 2);
        const QJsonArray messages =
            QJsonDocument::fromJson(m_server->requests().at(1).body).object().value(u"messages"_s).toArray();
        QCOMPARE(messages.at(messages.size() - 2).toObject().value(u"content"_s).toString(), cut);
        const QString repair = messages.last().toObject().value(u"content"_s).toString();
        QVERIFY2(repair.contains(said), qPrintable(repair));
        QVERIFY2(failure.contains(u"still not a readable test suite"_s) && failure.contains(said), qPrintable(failure));
        QVERIFY(!QFile::exists(req.outputPath));

        // The same text from a reply that ended by itself is not blamed on the limit.
        cleanup();
        init();
        m_server->route("POST", "/v1/chat/completions",
                        ScriptedResponse::json(200, openAiCompletionBody(message, u"stop"_s, {300, 400})));
        req = request();
        req.maxTokens = 900;
        failure.clear();
        generate(req, &failure);
        QVERIFY2(failure.contains(u"still not a readable test suite"_s), qPrintable(failure));
        QVERIFY2(!failure.contains(u"cut off"_s), qPrintable(failure));
    }

    void generate_existingSuite_isNeverReplaced()
    {
        QFile existing(request().outputPath);
        QVERIFY(existing.open(QIODevice::WriteOnly));
        existing.write("[]");
        existing.close();
        QString failure;
        generate(request(), &failure);
        QVERIFY(failure.contains(u"already exists"_s));
        QCOMPARE(m_server->requests().size(), 0);
        QVERIFY(existing.open(QIODevice::ReadOnly));
        QCOMPARE(existing.readAll(), QByteArray("[]"));
    }

    void assignSplits_spreadsTheHeldOutShareEvenly()
    {
        QList<TestCase> cases(9);
        TestCaseGenerator::assignSplits(cases, 1.0 / 3.0);
        QStringList splits;
        for (const TestCase &c : cases) {
            splits << (c.isHeldOut() ? u"H"_s : u"T"_s);
        }
        QCOMPARE(splits.join(QString()), u"TTHTTHTTH"_s);
        TestCaseGenerator::assignSplits(cases, 0.0);
        QVERIFY(std::none_of(cases.begin(), cases.end(), [](const TestCase &c) { return c.isHeldOut(); }));
    }
};

SF_TEST_GUILESS_MAIN(TestTestCaseGenerator)
#include "test_test_case_generator.moc"
