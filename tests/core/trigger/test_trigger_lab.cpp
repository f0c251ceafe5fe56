#include "ScriptedHttpServer.h"
#include "TriggerStudent.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"
#include "trigger/SkillCatalogue.h"
#include "trigger/TriggerMeasure.h"
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
        const double bound =
            *trialCostBound(catalogue, knownQueries().first().query, config.models.first(), config.maxTokens);
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

private:
    std::unique_ptr<test::ScriptedHttpServer> m_server;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_client;
};

QTEST_GUILESS_MAIN(TestTriggerLab)
#include "test_trigger_lab.moc"
