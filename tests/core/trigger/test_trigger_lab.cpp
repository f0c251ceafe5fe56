#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "TriggerStudent.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"
#include "skill/SkillVersionStore.h"
#include "trigger/DescriptionReply.h"
#include "trigger/SkillCatalogue.h"
#include "trigger/TriggerMeasure.h"
#include "trigger/TriggerOptimizer.h"
#include "trigger/TriggerQuerySet.h"
#include "trigger/TriggerRunner.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sf;

namespace {

const CatalogueEntry kCandidate{
    u"cuda-kernels"_s, u"Write and optimise CUDA kernels for GPU tensor operations, such as softmax and layernorm."_s};

/// With TriggerStudent (2 shared words): the first query triggers, the second misses (only "layernorm"), the third is
/// a near miss that triggers (write, tensor, operations), the fourth goes to the pdf decoy, the fifth to nothing.
QList<TriggerQuery> knownQueries()
{
    return {{u"Write a CUDA kernel for softmax"_s, true},
            {u"My layernorm is slow, speed it up"_s, true},
            {u"Write operations notes about our tensor library"_s, false},
            {u"Extract the tables from this PDF file"_s, false},
            {u"What is the capital of France?"_s, false}};
}

/// For the optimizer: the known queries' failures in the training split, and a held-out pair that only the better
/// description gets right ("Speed up this slow softmax kernel" shares one word with the original, three with it).
QList<TriggerQuery> optimizerQueries()
{
    QList<TriggerQuery> queries = knownQueries().mid(0, 4);
    for (TriggerQuery &q : queries)
        q.split = u"train"_s;
    queries.append({u"Speed up this slow softmax kernel"_s, true, u"heldout"_s});
    queries.append({u"What is the capital of France?"_s, false, u"heldout"_s});
    return queries;
}

const QString kBetterDescription = u"CUDA kernels: speed up a slow softmax or layernorm on the GPU."_s;

/// The student of TriggerStudent, and a teacher (the requests held to a JSON schema) that proposes @p proposals in
/// turn.
std::function<test::ScriptedResponse(const test::RecordedRequest &)> studentAndTeacher(QStringList proposals)
{
    auto next = std::make_shared<int>(0);
    return [proposals, next](const test::RecordedRequest &request) {
        if (!request.body.contains("response_format"))
            return test::TriggerStudent{}(request);
        const QString proposal = proposals.at(std::min<qsizetype>((*next)++, proposals.size() - 1));
        return test::scriptedReply(QString::fromUtf8(QJsonDocument(QJsonObject{{u"description"_s, proposal}}).toJson()),
                                   {2000, 60});
    };
}

/// The same student, and a teacher that answers @p replies in turn, word for word.
std::function<test::ScriptedResponse(const test::RecordedRequest &)> studentAndRawTeacher(QStringList replies)
{
    auto next = std::make_shared<int>(0);
    return [replies, next](const test::RecordedRequest &request) {
        if (!request.body.contains("response_format"))
            return test::TriggerStudent{}(request);
        return test::scriptedReply(replies.at(std::min<qsizetype>((*next)++, replies.size() - 1)), {2000, 60});
    };
}

QString writeCandidate(const QTemporaryDir &dir)
{
    const QString skill = dir.filePath(u"cuda-kernels"_s);
    QDir().mkpath(skill);
    QFile f(skill + u"/SKILL.md"_s);
    f.open(QIODevice::WriteOnly);
    f.write(u"---\nname: cuda-kernels\ndescription: %1\n---\n# CUDA kernels\n\nUse shared memory.\n"_s
                .arg(kCandidate.description)
                .toUtf8());
    return skill;
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return f.readAll();
}

} // namespace

class TestTriggerLab final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_server = std::make_unique<test::ScriptedHttpServer>();
        QVERIFY(m_server->listen());
        m_server->routeHandler("POST", "/v1/chat/completions", test::TriggerStudent{});
        qputenv("OPENAI_BASE_URL", m_server->baseUrl().toEncoded() + "/v1");
        qputenv("OPENAI_API_KEY", "sk-test-0000");
        m_engine = std::make_unique<HttpEngine>();
        m_providers = std::make_unique<ProviderRegistry>();
        m_client = std::make_unique<ChatClient>(*m_engine, *m_providers, nullptr);
    }
    void cleanup()
    {
        m_client.reset();
        m_providers.reset();
        m_engine.reset();
        m_server.reset();
    }

    void readQueries_skillCreatorBareList_readsEachQueryAndVerdict()
    {
        const auto parsed = triggerqueries::parse(
            R"([{"query": "make a kernel", "should_trigger": true}, {"query": "bake bread", "should_trigger": false}])",
            u"eval_set.json"_s);
        QVERIFY(std::holds_alternative<QList<TriggerQuery>>(parsed));
        const auto queries = std::get<QList<TriggerQuery>>(parsed);
        QCOMPARE(queries.size(), 2);
        QCOMPARE(queries.at(0).query, u"make a kernel"_s);
        QVERIFY(queries.at(0).shouldTrigger);
        QVERIFY(!queries.at(1).shouldTrigger);
    }

    void readQueries_wrappedListsPromptKeysAndWordVerdicts_areAccepted()
    {
        const auto parsed = triggerqueries::parse(
            R"({"skill_name": "x", "evals": [{"prompt": "a", "should_trigger": "yes"}, {"query": "b", "trigger": 0, "split": "test"}]})",
            u"trigger_evals.json"_s);
        QVERIFY(std::holds_alternative<QList<TriggerQuery>>(parsed));
        const auto queries = std::get<QList<TriggerQuery>>(parsed);
        QCOMPARE(queries.size(), 2);
        QVERIFY(queries.at(0).shouldTrigger);
        QVERIFY(!queries.at(1).shouldTrigger);
        QCOMPARE(queries.at(1).split, u"heldout"_s);
    }

    void readQueries_missingVerdict_namesFileLineAndQuery()
    {
        const auto parsed = triggerqueries::parse(
            "[\n {\"query\": \"a\", \"should_trigger\": true},\n {\"query\": \"b\"}\n]", u"set.json"_s);
        QVERIFY(std::holds_alternative<LoadError>(parsed));
        const LoadError error = std::get<LoadError>(parsed);
        QCOMPARE(error.file, u"set.json"_s);
        QCOMPARE(error.line, 3);
        QVERIFY2(error.message.contains(u"query 2"_s), qPrintable(error.message));
    }

    void writeQueries_thenRead_roundTrips()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"eval_set.json"_s);
        QCOMPARE(triggerqueries::write(path, knownQueries()), QString());
        const auto read = triggerqueries::read(path);
        QVERIFY(std::holds_alternative<QList<TriggerQuery>>(read));
        const auto queries = std::get<QList<TriggerQuery>>(read);
        QCOMPARE(queries.size(), knownQueries().size());
        for (int i = 0; i < queries.size(); ++i) {
            QCOMPARE(queries.at(i).query, knownQueries().at(i).query);
            QCOMPARE(queries.at(i).shouldTrigger, knownQueries().at(i).shouldTrigger);
        }
    }

    void catalogue_listsSortedNamesAndOffersAnEnumOfExactlyThem()
    {
        const SkillCatalogue catalogue(kCandidate, SkillCatalogue::bundledDecoys());
        const QStringList names = catalogue.names();
        QVERIFY(names.size() > 5);
        QVERIFY(names.contains(kCandidate.name));
        QVERIFY(std::is_sorted(names.cbegin(), names.cend()));
        const QJsonObject schema = QJsonDocument::fromJson(catalogue.activationTool().inputSchema).object();
        const QJsonArray values = schema["properties"_L1]["name"_L1]["enum"_L1].toArray();
        QCOMPARE(values.toVariantList().size(), names.size());
        for (int i = 0; i < names.size(); ++i)
            QCOMPARE(values.at(i).toString(), names.at(i));
        QVERIFY(catalogue.systemPrompt().contains(u"<description>%1</description>"_s.arg(kCandidate.description)));
    }

    void catalogue_decoyWithTheCandidatesName_isLeftOutWithAWarning()
    {
        const SkillCatalogue catalogue(kCandidate,
                                       {{kCandidate.name, u"an installed older copy"_s}, {u"pdf"_s, u"PDFs"_s}});
        QCOMPARE(catalogue.names(), QStringList({kCandidate.name, u"pdf"_s}));
        QCOMPARE(catalogue.entries().at(0).description, kCandidate.description);
        QCOMPARE(catalogue.warnings().size(), 1);
    }

    void catalogue_readFolder_listsSkillsWithDescriptionsAndSkipsTheCandidate()
    {
        QTemporaryDir dir;
        const auto writeSkill = [&](const QString &folder, const QByteArray &text) {
            QDir().mkpath(dir.filePath(folder));
            QFile f(dir.filePath(folder + u"/SKILL.md"_s));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(text);
        };
        writeSkill(u"alpha"_s, "---\nname: alpha\ndescription: Does alpha things.\n---\nbody\n");
        writeSkill(u"nodesc"_s, "---\nname: nodesc\n---\nbody\n");
        writeSkill(u"mine"_s, "---\nname: mine\ndescription: The candidate.\n---\nbody\n");
        QStringList warnings;
        const auto read = SkillCatalogue::readFolder(dir.path(), dir.filePath(u"mine"_s), &warnings);
        QVERIFY(std::holds_alternative<QList<CatalogueEntry>>(read));
        const auto entries = std::get<QList<CatalogueEntry>>(read);
        QCOMPARE(entries.size(), 1);
        QCOMPARE(entries.at(0).name, u"alpha"_s);
        QCOMPARE(warnings.size(), 1);
    }

    void run_scriptedStudentReadingDescriptions_givesTheKnownRecallAndFalsePositives()
    {
        const SkillCatalogue catalogue(kCandidate, SkillCatalogue::bundledDecoys());
        TriggerConfig config;
        config.models = {u"openai:scripted"_s};
        config.runs = 3;
        TriggerRunner runner(*m_client, catalogue, knownQueries(), config);
        QSignalSpy finished(&runner, &TriggerRunner::finished);
        runner.start();
        QVERIFY(finished.wait(20000));
        QCOMPARE(runner.stopReason(), u"complete"_s);
        QCOMPARE(runner.trials().size(), 15);
        // Every trial is one request with the same catalogue.
        QCOMPARE(m_server->requestCount("/v1/chat/completions"), 15);
        const QByteArray firstSystem =
            QJsonDocument::fromJson(m_server->requests().first().body)["messages"_L1][0]["content"_L1]
                .toString()
                .toUtf8();
        for (const test::RecordedRequest &r : m_server->requests())
            QCOMPARE(QJsonDocument::fromJson(r.body)["messages"_L1][0]["content"_L1].toString().toUtf8(), firstSystem);

        const TriggerMeasurement m = measureTrigger(knownQueries(), kCandidate.name, config.models, runner.trials());
        QCOMPARE(m.models.size(), 1);
        const ModelTriggerRates &rates = m.models.first();
        QCOMPARE(rates.recall.successes, 3);
        QCOMPARE(rates.recall.trials, 6);
        QCOMPARE(rates.falsePositiveRate.successes, 3);
        QCOMPARE(rates.falsePositiveRate.trials, 9);
        QCOMPARE(rates.precision.successes, 3);
        QCOMPARE(rates.precision.trials, 6);
        QVERIFY(rates.recall.ci.low < 0.5 && rates.recall.ci.high > 0.5);
        QCOMPARE(rates.queriesPassed, 3); // the hit, the pdf query and the unrelated one
        QCOMPARE(m.outcomes.at(0).share(), 1.0);
        QCOMPARE(m.outcomes.at(1).share(), 0.0);
        QCOMPARE(m.outcomes.at(1).others.value(QString()), 3); // nothing took it
        QCOMPARE(m.outcomes.at(3).others.value(u"pdf"_s), 3);  // the pdf decoy took it
    }

    void run_betterDescription_changesOnlyWhatTheDescriptionDecides()
    {
        const SkillCatalogue catalogue =
            SkillCatalogue(kCandidate, SkillCatalogue::bundledDecoys())
                .withCandidateDescription(u"CUDA kernels: speed up a slow softmax or layernorm on the GPU."_s);
        TriggerConfig config;
        config.models = {u"openai:scripted"_s};
        config.runs = 1;
        TriggerRunner runner(*m_client, catalogue, knownQueries(), config);
        QSignalSpy finished(&runner, &TriggerRunner::finished);
        runner.start();
        QVERIFY(finished.wait(20000));
        const TriggerMeasurement m = measureTrigger(knownQueries(), kCandidate.name, config.models, runner.trials());
        QCOMPARE(m.models.first().recall.rate, 1.0);
        QCOMPARE(m.models.first().falsePositiveRate.rate, 0.0);
    }

    void run_withBudget_stopsBeforeATrialCouldExceedIt()
    {
        const SkillCatalogue catalogue(kCandidate, SkillCatalogue::bundledDecoys());
        TriggerConfig config;
        config.models = {u"openai:gpt-4.1"_s};
        config.runs = 3;
        config.concurrency = 1;
        const double bound = *trialCostBound(catalogue, knownQueries().first().query, config.models.first(), config);
        config.maxCostUsd = bound * 4;
        TriggerRunner runner(*m_client, catalogue, knownQueries(), config);
        QSignalSpy finished(&runner, &TriggerRunner::finished);
        runner.start();
        QVERIFY(finished.wait(20000));
        QCOMPARE(runner.stopReason(), u"budget"_s);
        QVERIFY(runner.trials().size() < 15);
        QVERIFY(runner.trials().size() >= 3);
        QVERIFY(runner.spentUsd() <= *config.maxCostUsd);
        QCOMPARE(m_server->requestCount("/v1/chat/completions"), int(runner.trials().size()));
    }

    void estimate_countsEveryTrialAndNamesUnpricedModels()
    {
        const SkillCatalogue catalogue(kCandidate, SkillCatalogue::bundledDecoys());
        TriggerConfig config;
        config.models = {u"openai:gpt-4.1"_s, u"generic:unknown-model"_s};
        config.runs = 2;
        const TriggerEstimate estimate = estimateTrigger(catalogue, knownQueries(), config);
        QCOMPARE(estimate.trials, 20);
        QVERIFY(!estimate.usd);
        QCOMPARE(estimate.unpriced, QStringList{u"generic:unknown-model"_s});
        config.models.removeLast();
        QVERIFY(estimateTrigger(catalogue, knownQueries(), config).usd.value_or(0) > 0);
    }

    void run_budgetWithUnpricedModel_refusesToStart()
    {
        TriggerConfig config;
        config.models = {u"openai:scripted"_s};
        config.maxCostUsd = 1;
        TriggerRunner runner(*m_client, SkillCatalogue(kCandidate, {}), knownQueries(), config);
        QSignalSpy failed(&runner, &TriggerRunner::failed);
        runner.start();
        QVERIFY(failed.wait(5000));
        QCOMPARE(m_server->requestCount("/v1/chat/completions"), 0);
    }

    void loadedSkill_callWrittenIntoTheText_countsAsACall()
    {
        ChatResponse response;
        response.text =
            u"<tool_call>\n{\"name\": \"activate_skill\", \"arguments\": {\"name\": \"pdf\"}}\n</tool_call>"_s;
        QCOMPARE(loadedSkillOf(response), u"pdf"_s);
        response.text = u"Paris is the capital of France."_s;
        QCOMPARE(loadedSkillOf(response), QString());
        response.toolCalls = {{u"call_1"_s, u"activate_skill"_s, R"({"name": "cuda-kernels"})"}};
        QCOMPARE(loadedSkillOf(response), u"cuda-kernels"_s);
    }

    void holdout_isStratifiedSeededAndKeepsExplicitSplits()
    {
        QList<TriggerQuery> queries;
        for (int i = 0; i < 10; ++i)
            queries.append({u"q%1"_s.arg(i), i < 4});
        queries[9].split = u"train"_s;
        const QList<bool> held = stratifiedHoldout(queries, 0.4, 42);
        QCOMPARE(held, stratifiedHoldout(queries, 0.4, 42));
        QCOMPARE(held.mid(0, 4).count(true), 2); // round(0.4 * 4) of the should-trigger queries
        QCOMPARE(held.mid(4, 5).count(true), 2); // round(0.4 * 5) of the free should-not ones
        QVERIFY(!held.at(9));
        QCOMPARE(stratifiedHoldout(queries, 0, 42).count(true), 0);
    }

    void optimize_teacherSeesOnlyTrainingFailures_andTheHeldOutScorePicksTheWinner()
    {
        QTemporaryDir dir;
        const QString skill = writeCandidate(dir);
        const QByteArray before = readAll(skill + u"/SKILL.md"_s);
        m_server->routeHandler("POST", "/v1/chat/completions",
                               studentAndTeacher({u"GPU things."_s, kBetterDescription}));
        TriggerOptimizeRequest request;
        request.skillDir = skill;
        request.queries = optimizerQueries();
        request.others = SkillCatalogue::bundledDecoys();
        request.config.models = {u"openai:scripted"_s};
        request.config.runs = 2;
        request.teacherModel = u"openai:teacher"_s;
        request.maxIterations = 5;
        TriggerOptimizer optimizer(*m_client);
        QSignalSpy finished(&optimizer, &TriggerOptimizer::finished);
        QSignalSpy failed(&optimizer, &TriggerOptimizer::failed);
        optimizer.start(request);
        QVERIFY(finished.wait(30000));
        QCOMPARE(failed.count(), 0);
        // The original, a useless proposal, then one that gets every query right: it wins and the loop stops.
        QCOMPARE(finished.first().first().toString(), u"perfect"_s);
        QCOMPARE(optimizer.iterations().size(), 3);
        QCOMPARE(optimizer.best()->number, 2);
        QCOMPARE(optimizer.best()->description, kBetterDescription);
        QCOMPARE(optimizer.best()->heldOutPassed, optimizer.best()->heldOutTotal);
        QCOMPARE(optimizer.iterations().at(0).trainTotal, 4);
        QCOMPARE(optimizer.iterations().at(0).heldOutPassed, 1); // the original misses the held-out softmax query
        QCOMPARE(optimizer.iterations().at(1).heldOutPassed, 1);

        int teacherRequests = 0;
        for (const test::RecordedRequest &r : m_server->requests()) {
            if (!r.body.contains("response_format"))
                continue;
            ++teacherRequests;
            for (int i = 0; i < request.queries.size(); ++i) {
                if (optimizer.heldOut().at(i))
                    QVERIFY2(!r.body.contains(request.queries.at(i).query.toUtf8()),
                             "a held-out query reached the teacher");
            }
        }
        QCOMPARE(teacherRequests, 2);

        // Each proposal is a version; SKILL.md is as it was.
        const QList<SkillVersion> versions = SkillVersionStore(skill).versions();
        QCOMPARE(versions.first().origin, u"trigger:2"_s);
        QCOMPARE(versions.first().id, optimizer.best()->versionId);
        QVERIFY(QString::fromUtf8(SkillVersionStore(skill).files(versions.first().id).value(u"SKILL.md"_s))
                    .contains(kBetterDescription));
        QCOMPARE(readAll(skill + u"/SKILL.md"_s), before);
    }

    void optimize_everyTrainingQueryRight_stopsWithoutAskingTheTeacher()
    {
        QTemporaryDir dir;
        const QString skill = writeCandidate(dir);
        m_server->routeHandler("POST", "/v1/chat/completions", studentAndTeacher({kBetterDescription}));
        TriggerOptimizeRequest request;
        request.skillDir = skill;
        request.queries = {{u"Write a CUDA kernel for softmax"_s, true, u"train"_s},
                           {u"What is the capital of France?"_s, false, u"train"_s},
                           {u"My layernorm is slow, speed it up"_s, true, u"heldout"_s}};
        request.config.models = {u"openai:scripted"_s};
        request.config.runs = 1;
        request.teacherModel = u"openai:teacher"_s;
        TriggerOptimizer optimizer(*m_client);
        QSignalSpy finished(&optimizer, &TriggerOptimizer::finished);
        optimizer.start(request);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().first().toString(), u"train-perfect"_s);
        QCOMPARE(optimizer.iterations().size(), 1);
        for (const test::RecordedRequest &r : m_server->requests())
            QVERIFY(!r.body.contains("response_format"));
    }

    void optimize_stopsAfterKProposals_andApplyLeavesTheWinnerInSkillMd()
    {
        QTemporaryDir dir;
        const QString skill = writeCandidate(dir);
        m_server->routeHandler("POST", "/v1/chat/completions", studentAndTeacher({u"GPU things."_s}));
        TriggerOptimizeRequest request;
        request.skillDir = skill;
        request.queries = knownQueries();
        request.config.models = {u"openai:scripted"_s};
        request.config.runs = 1;
        request.teacherModel = u"openai:teacher"_s;
        request.maxIterations = 2;
        request.holdout = 0;
        request.apply = true;
        TriggerOptimizer optimizer(*m_client);
        QSignalSpy finished(&optimizer, &TriggerOptimizer::finished);
        optimizer.start(request);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().first().toString(), u"iterations"_s);
        QCOMPARE(optimizer.iterations().size(), 3);
        // "GPU things." shares too few words to trigger anything: the original scores better on training and stays.
        QCOMPARE(optimizer.best()->number, 0);
        QVERIFY(readAll(skill + u"/SKILL.md"_s).contains(kCandidate.description.toUtf8()));
    }

    void optimize_budget_stopsBeforeAnIterationThatCouldExceedIt()
    {
        QTemporaryDir dir;
        const QString skill = writeCandidate(dir);
        m_server->routeHandler("POST", "/v1/chat/completions", studentAndTeacher({kBetterDescription}));
        TriggerOptimizeRequest request;
        request.skillDir = skill;
        request.queries = optimizerQueries();
        request.others = SkillCatalogue::bundledDecoys();
        request.config.models = {u"openai:gpt-4.1"_s};
        request.config.runs = 1;
        request.teacherModel = u"openai:gpt-4.1"_s;
        const SkillCatalogue catalogue(kCandidate, request.others);
        const double firstEvaluation = *estimateTrigger(catalogue, request.queries, request.config).usd;
        request.maxCostUsd = firstEvaluation * 1.5;
        const TriggerOptimizeEstimate estimate = estimateOptimize(request, catalogue);
        QCOMPARE(estimate.evaluations, 6);
        QVERIFY(*estimate.usd > *request.maxCostUsd);
        TriggerOptimizer optimizer(*m_client);
        QSignalSpy finished(&optimizer, &TriggerOptimizer::finished);
        optimizer.start(request);
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().first().toString(), u"budget"_s);
        QCOMPARE(optimizer.iterations().size(), 1);
        QVERIFY(optimizer.spentUsd() > 0);
        QVERIFY(optimizer.spentUsd() <= *request.maxCostUsd);
        for (const test::RecordedRequest &r : m_server->requests())
            QVERIFY(!r.body.contains("response_format")); // the teacher was never asked
    }

    // Issue 35, item 15: "the teacher's reply holds no description:" above a reply that visibly held one.
    void descriptionFromReply_readsTheShapesTeachersGive_data()
    {
        QTest::addColumn<QString>("reply");
        const QString d = u"Use when writing or speeding up CUDA kernels, e.g. softmax or layernorm."_s;
        QTest::newRow("json") << u"{\"description\": \"%1\"}"_s.arg(d);
        QTest::newRow("fenced json in prose")
            << u"Here is my proposal:\n\n```json\n{\n  \"description\": \"%1\"\n}\n```\nIt names the tasks."_s.arg(d);
        QTest::newRow("braces in the prose around it")
            << u"The set {a, b} failed. {\"description\": \"%1\", \"why\": \"{braces} inside\"} Done {ok}."_s.arg(d);
        QTest::newRow("nested json") << u"{\"skill\": {\"name\": \"cuda\", \"description\": \"%1\"}}"_s.arg(d);
        QTest::newRow("raw line break in the json string")
            << u"{\"description\": \"Use when writing or speeding up CUDA kernels,\ne.g. softmax or layernorm.\"}"_s;
        QTest::newRow("label") << u"Description: %1"_s.arg(d);
        QTest::newRow("bold label, prose around")
            << u"I rewrote it to name the tasks.\n\n**Description:** %1\n\nThis should fix the misses."_s.arg(d);
        QTest::newRow("new description label, quoted") << u"New description: \"%1\""_s.arg(d);
        QTest::newRow("heading, text below") << u"## Description\n\n%1\n\n## Why\nBecause."_s.arg(d);
        QTest::newRow("front matter")
            << u"---\nname: cuda-kernels\ndescription: >\n  Use when writing or speeding up CUDA kernels,\n  e.g. "
               u"softmax or layernorm.\n---"_s;
        QTest::newRow("yaml fence") << u"```yaml\ndescription: \"%1\"\n```"_s.arg(d);
        QTest::newRow("plain fence") << u"Try this one:\n```\n%1\n```"_s.arg(d);
        QTest::newRow("introduced paragraph") << u"Here is the improved description:\n\n%1"_s.arg(d);
        QTest::newRow("quoted reply") << u"\"%1\""_s.arg(d);
        QTest::newRow("bare reply") << d;
    }
    void descriptionFromReply_readsTheShapesTeachersGive()
    {
        QFETCH(QString, reply);
        QCOMPARE(descriptionFromReply(reply),
                 u"Use when writing or speeding up CUDA kernels, e.g. softmax or layernorm."_s);
    }

    void descriptionFromReply_nothingReadable_isEmpty()
    {
        QCOMPARE(descriptionFromReply(QString()), QString());
        QCOMPARE(descriptionFromReply(u"I looked at the failures.\n\nSome are ambiguous.\n\nI need more queries."_s),
                 QString());
        QCOMPARE(descriptionFromReply(u"{\"description\": \"Use when writing CUDA ker"_s), QString()); // cut off
        QCOMPARE(descriptionFromReply(u"{\"reason\": \"none\"}"_s), QString());
    }

    // When the reply truly holds none: a short message, the whole reply kept, and Retry asks again.
    void optimize_replyWithoutDescription_failsShort_keepsTheReply_andRetryGoesOn()
    {
        QTemporaryDir dir;
        const QString skill = writeCandidate(dir);
        const QString rambling = u"I looked at the failures.\n\nSome are ambiguous.\n\n"_s + QString(500, u'x');
        const QString proposal =
            QString::fromUtf8(QJsonDocument(QJsonObject{{u"description"_s, kBetterDescription}}).toJson());
        m_server->routeHandler("POST", "/v1/chat/completions", studentAndRawTeacher({rambling, proposal}));
        TriggerOptimizeRequest request;
        request.skillDir = skill;
        request.queries = optimizerQueries();
        request.others = SkillCatalogue::bundledDecoys();
        request.config.models = {u"openai:scripted"_s};
        request.config.runs = 1;
        request.teacherModel = u"openai:teacher"_s;
        TriggerOptimizer optimizer(*m_client);
        QSignalSpy finished(&optimizer, &TriggerOptimizer::finished);
        QSignalSpy failed(&optimizer, &TriggerOptimizer::failed);
        optimizer.start(request);
        QVERIFY(failed.wait(30000));
        const QString message = failed.first().first().toString();
        QVERIFY2(message.size() < 120 && !message.contains(u"xxx"_s), qPrintable(message));
        QVERIFY(optimizer.canRetry());
        QCOMPARE(optimizer.failedReply(), rambling);
        QCOMPARE(optimizer.iterations().size(), 1); // the original's measurement stands

        optimizer.retry();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().first().toString(), u"perfect"_s);
        QCOMPARE(optimizer.iterations().size(), 2);
        QCOMPARE(optimizer.best()->description, kBetterDescription);
    }

private:
    std::unique_ptr<test::ScriptedHttpServer> m_server;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_client;
};

SF_TEST_GUILESS_MAIN(TestTriggerLab)
#include "test_trigger_lab.moc"
