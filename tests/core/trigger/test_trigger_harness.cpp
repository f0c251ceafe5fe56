// Trigger trials in a real agent CLI: the catalogue staged as skill folders, the first skill a session loaded, and
// whole runs of the real Claude Code and Codex binaries against scripted endpoints (skipped, 77, unless
// SKILLFORGE_CLAUDE_CODE_CLI / SKILLFORGE_CODEX_CLI name them).
#include "ScriptedAgentEndpoints.h"
#include "SkippedChecks.h"
#include "agents/CliSession.h"
#include "agents/Harness.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"
#include "sandbox/Sandbox.h"
#include "skill/SkillDocument.h"
#include "trace/Trace.h"
#include "trace/TraceImport.h"
#include "trigger/CliTriggerTrial.h"
#include "trigger/TriggerMeasure.h"
#include "trigger/TriggerRunner.h"
#include "usage/Pricing.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <memory>

using namespace Qt::StringLiterals;
using namespace sf;

namespace {

const QString kCandidate = u"cuda-kernels"_s;
const QString kCandidateDescription = u"Write and optimise CUDA kernels for GPU tensor operations."_s;
/// A query the scripted endpoint answers with an error, so that its trial fails.
const QString kFailingQuery = u"Profile this kernel (the endpoint fails here)"_s;

/// Should-trigger queries name a kernel (the scripted model's keyword); the others do not.
QList<TriggerQuery> scriptedQueries()
{
    return {{u"Write a CUDA kernel for softmax"_s, true},
            {u"My layernorm kernel is slow, speed it up"_s, true},
            {u"Extract the tables from this PDF file"_s, false},
            {u"What is the capital of France?"_s, false}};
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(bytes) == bytes.size();
}

QString cliFromEnvironment(const char *variable, QByteArray *why)
{
    const QString path = qEnvironmentVariable(variable);
    if (path.isEmpty())
        *why = QByteArray(variable) + " is not set: run scripts/setup-agent-clis and export what it prints";
    else if (!QFileInfo(path).isExecutable())
        *why = QByteArray(variable) + "=" + path.toUtf8() + " is not an executable file";
    return why->isEmpty() ? path : QString();
}

} // namespace

class TestTriggerHarness final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    /// The candidate (a folder with a body and a reference file), a decoy with a folder of its own, and a decoy with
    /// only a name and a description (as the bundled ones are).
    SkillCatalogue writeCatalogue()
    {
        const QString candidate = m_dir.filePath(u"skills/cuda-kernels"_s);
        writeFile(candidate + u"/SKILL.md"_s,
                  "---\nname: cuda-kernels\ndescription: An older description.\nlicense: MIT\n---\n# CUDA kernels\n\n"
                  "Use shared memory.\n");
        writeFile(candidate + u"/reference/tiling.md"_s, "Tile by 32.\n");
        const QString pdf = m_dir.filePath(u"skills/pdf-folder"_s);
        writeFile(pdf + u"/SKILL.md"_s, "---\nname: pdf-tools\ndescription: Extract text and tables from PDF files.\n"
                                        "---\n# PDF\n");
        return SkillCatalogue({kCandidate, kCandidateDescription, candidate},
                              {{u"pdf-tools"_s, u"Extract text and tables from PDF files."_s, pdf},
                               {u"git-helper"_s, u"Write commit messages and resolve merge conflicts."_s}});
    }

    /// The scripted model behind a scripted server: it loads the candidate (Claude Code's Skill tool, or a command
    /// that reads its SKILL.md in Codex) when the query names a kernel and the CLI lists the candidate, else answers
    /// in text; a request of the failing query is answered with an error. The providers reach it.
    struct ScriptedModel
    {
        std::unique_ptr<test::ScriptedAgentEndpoints> endpoints;
        std::unique_ptr<test::ScriptedHttpServer> server;
        std::unique_ptr<HttpEngine> engine;
        std::unique_ptr<ProviderRegistry> providers;
        std::unique_ptr<ChatClient> chat;
    };

    static void startScriptedModel(const QByteArray &path, ScriptedModel *model)
    {
        test::AgentPolicy policy;
        policy.skillName = kCandidate;
        policy.keywords = {u"kernel"_s};
        model->endpoints = std::make_unique<test::ScriptedAgentEndpoints>(policy);
        model->server = std::make_unique<test::ScriptedHttpServer>();
        model->endpoints->install(*model->server);
        test::ScriptedAgentEndpoints *endpoints = model->endpoints.get();
        model->server->routeHandler("POST", path, [endpoints, path](const test::RecordedRequest &request) {
            if (request.body.contains("the endpoint fails here"))
                return test::ScriptedResponse::json(
                    400, R"({"type":"error","error":{"type":"invalid_request_error","message":"scripted failure"}})");
            return path == "/v1/messages" ? endpoints->answerMessages(request) : endpoints->answerResponses(request);
        });
        QVERIFY(model->server->listen());
        qputenv("ANTHROPIC_BASE_URL", model->server->baseUrl().toEncoded());
        qputenv("ANTHROPIC_API_KEY", "sk-ant-test-0000");
        qputenv("OPENAI_BASE_URL", model->server->baseUrl().toEncoded() + "/v1");
        qputenv("OPENAI_API_KEY", "sk-test-0000");
        model->engine = std::make_unique<HttpEngine>();
        model->providers = std::make_unique<ProviderRegistry>();
        model->chat = std::make_unique<ChatClient>(*model->engine, *model->providers, nullptr);
    }

    static TriggerConfig cliConfig(const QString &harness, const QString &binary, const QString &model)
    {
        TriggerConfig config;
        config.models = {model};
        config.runs = 1;
        config.concurrency = 2;
        config.harness = harness;
        config.harnessCli = binary;
        config.timeoutSeconds = 90;
        return config;
    }

    /// Runs @p runner to its end; false when it failed.
    static bool runToEnd(TriggerRunner &runner)
    {
        QSignalSpy finished(&runner, &TriggerRunner::finished);
        QSignalSpy failed(&runner, &TriggerRunner::failed);
        runner.start();
        [&] { QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty() || !failed.isEmpty(), 240000); }();
        if (!failed.isEmpty())
            qWarning("%s", qPrintable(failed.first().first().toString()));
        return !finished.isEmpty();
    }

    /// Every scripted query once, and the failing one, in @p harness's CLI at @p binary with @p model: the scripted
    /// recall and false positives, every catalogue skill listed to the model in the same order in every trial, one
    /// model request per trial, the failing trial counted in no rate.
    void checkTrialsInCli(const QString &harness, const QString &binary, const QString &model, const QByteArray &path)
    {
        QString noSandbox;
        if (!sandboxAvailable(&noSandbox))
            SF_SKIP_BECAUSE(noSandbox);
        ScriptedModel scripted;
        startScriptedModel(path, &scripted);
        const SkillCatalogue catalogue = writeCatalogue();
        QList<TriggerQuery> queries = scriptedQueries();
        queries.append({kFailingQuery, true});
        const TriggerConfig config = cliConfig(harness, binary, model);
        TriggerRunner runner(*scripted.chat, catalogue, queries, config);
        QVERIFY(runToEnd(runner));
        QVERIFY(runner.cli());
        QCOMPARE(runner.cli()->harness, harness);
        QVERIFY(!runner.cli()->version.isEmpty());
        QCOMPARE(runner.stopReason(), u"complete"_s);

        // Each trial: the candidate exactly where the scripted model loads it, usage and cost from the door.
        QCOMPARE(runner.trials().size(), queries.size());
        for (const TriggerTrial &trial : runner.trials()) {
            const TriggerQuery &query = queries.at(trial.queryIndex);
            if (query.query == kFailingQuery) {
                QVERIFY2(trial.error.contains(u"scripted failure"_s), qPrintable(trial.error));
                continue;
            }
            QVERIFY2(trial.error.isEmpty(), qPrintable(trial.error));
            QCOMPARE(trial.loaded, query.shouldTrigger ? kCandidate : QString());
            QVERIFY(trial.usage.totalInput() > 0);
            QCOMPARE(trial.usage.output, test::ScriptedAgentEndpoints::kOutputTokens);
            QVERIFY(trial.costUsd.value_or(0) > 0);
            QCOMPARE(*trial.costUsd, *Pricing::costFor(model, trial.usage));
        }
        const TriggerMeasurement m = measureTrigger(queries, kCandidate, config.models, runner.trials());
        QCOMPARE(m.models.size(), 1);
        QCOMPARE(m.models.first().recall.successes, 2);
        QCOMPARE(m.models.first().recall.trials, 2);
        QCOMPARE(m.models.first().falsePositiveRate.successes, 0);
        QCOMPARE(m.models.first().falsePositiveRate.trials, 2);
        QCOMPARE(m.models.first().errors, 1);
        double spent = 0;
        for (const TriggerTrial &trial : runner.trials())
            spent += trial.costUsd.value_or(0);
        QCOMPARE(runner.spentUsd(), spent);

        // The model saw the CLI's own listing with every catalogue skill, in the same order in every trial; and one
        // request per trial: the door refused the CLI's request after a load, so no skill's content came back.
        const QList<test::AgentExchange> exchanges = scripted.endpoints->exchanges();
        const auto main = std::count_if(exchanges.cbegin(), exchanges.cend(),
                                        [](const test::AgentExchange &e) { return e.view.mainConversation; });
        QCOMPARE(main, qsizetype(scriptedQueries().size()));
        QStringList firstListing;
        for (const test::AgentExchange &exchange : exchanges) {
            if (!exchange.view.mainConversation)
                continue;
            QStringList listed = exchange.view.listedSkills;
            listed.removeIf([&](const QString &name) { return !catalogue.names().contains(name); });
            QCOMPARE(listed.size(), catalogue.names().size());
            if (firstListing.isEmpty())
                firstListing = exchange.view.listedSkills;
            QCOMPARE(exchange.view.listedSkills, firstListing);
            QVERIFY(!exchange.view.skillLoaded);
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
    }

    void stageCatalogue_everySkillAFolderNamedAsListed_withTheCatalogueDescription()
    {
        const SkillCatalogue catalogue = writeCatalogue().withCandidateDescription(u"A proposal: CUDA kernels."_s);
        QTemporaryDir staged;
        QCOMPARE(stageCatalogueSkills(catalogue, staged.path()), QString());
        QCOMPARE(QDir(staged.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot), catalogue.names());
        for (const CatalogueEntry &entry : catalogue.entries()) {
            const SkillDocument doc =
                SkillDocument::parse(QString::fromUtf8(readAll(staged.filePath(entry.name + u"/SKILL.md"_s))));
            QCOMPARE(doc.name(), entry.name);
            QCOMPARE(doc.description(), entry.description);
        }
        // The candidate's folder is copied whole, its other front matter and body kept.
        const QString candidate = QString::fromUtf8(readAll(staged.filePath(u"cuda-kernels/SKILL.md"_s)));
        QVERIFY(candidate.contains(u"license: MIT"_s));
        QVERIFY(candidate.contains(u"Use shared memory."_s));
        QCOMPARE(readAll(staged.filePath(u"cuda-kernels/reference/tiling.md"_s)), QByteArray("Tile by 32.\n"));
        // The decoy whose folder has another name is listed, and staged, under its own.
        QVERIFY(!QFileInfo::exists(staged.filePath(u"pdf-folder"_s)));
    }

    void stageCatalogue_aNameThatIsNoFolderName_isRefused()
    {
        const SkillCatalogue catalogue({u"../escape"_s, u"A name that climbs out."_s}, {});
        QTemporaryDir staged;
        QVERIFY(stageCatalogueSkills(catalogue, staged.path()).contains(u"../escape"_s));
    }

    void firstLoadedSkill_claudeCodeSession_namesTheSkillItsSkillToolLoaded()
    {
        const QString home = QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/agents/claude-code-with-skill/home");
        const Result<Trace> trace = importTrace(findClaudeCodeSession(home + u"/.claude"_s, QString()));
        QVERIFY2(trace, qPrintable(trace.error));
        QCOMPARE(firstLoadedSkill(*trace.value, Harness::ClaudeCode, {u"alpha"_s, u"csv-tidy"_s, u"zeta"_s}),
                 u"csv-tidy"_s);
        QCOMPARE(firstLoadedSkill(*trace.value, Harness::ClaudeCode, {u"alpha"_s, u"zeta"_s}), QString());
        const QString baseline =
            QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/agents/claude-code-baseline/home/.claude");
        const Result<Trace> none = importTrace(findClaudeCodeSession(baseline, QString()));
        QVERIFY2(none, qPrintable(none.error));
        QCOMPARE(firstLoadedSkill(*none.value, Harness::ClaudeCode, {u"csv-tidy"_s}), QString());
    }

    void runner_unfitModelForTheCli_failsBeforeAnyTrial()
    {
        HttpEngine engine;
        ProviderRegistry providers;
        ChatClient chat(engine, providers, nullptr);
        TriggerConfig config;
        config.models = {u"openai:gpt-4.1"_s};
        config.harness = Harness::ClaudeCode;
        TriggerRunner runner(chat, writeCatalogue(), scriptedQueries(), config);
        QSignalSpy failed(&runner, &TriggerRunner::failed);
        runner.start();
        QVERIFY(failed.wait(5000));
        QVERIFY2(failed.first().first().toString().contains(u"Anthropic"_s),
                 qPrintable(failed.first().first().toString()));
        QVERIFY(runner.trials().isEmpty());
    }

    void estimate_inACli_boundsTheCliPromptAsACacheWrite()
    {
        const SkillCatalogue catalogue = writeCatalogue();
        TriggerConfig builtin;
        builtin.models = {u"anthropic:claude-sonnet-4-5"_s};
        TriggerConfig claude = builtin;
        claude.harness = Harness::ClaudeCode;
        const TriggerEstimate inBuiltin = estimateTrigger(catalogue, scriptedQueries(), builtin);
        const TriggerEstimate inClaude = estimateTrigger(catalogue, scriptedQueries(), claude);
        QVERIFY(inClaude.inputTokensPerTrial > 30000); // Claude Code's own prompt is about 88 kB of JSON
        QVERIFY(inClaude.inputTokensPerTrial > 10 * inBuiltin.inputTokensPerTrial);
        const QString query = scriptedQueries().first().query;
        const double bound = *trialCostBound(catalogue, query, claude.models.first(), claude);
        TokenUsage asUncached;
        asUncached.uncachedInput = inClaude.inputTokensPerTrial;
        asUncached.output = claude.maxTokens;
        QVERIFY(bound > *Pricing::costFor(claude.models.first(), asUncached)); // written to the cache costs more
    }

    void claudeCodeBinary_eachTrialInTheCli_recallAndFalsePositivesAsScripted()
    {
        QByteArray why;
        const QString binary = cliFromEnvironment("SKILLFORGE_CLAUDE_CODE_CLI", &why);
        if (binary.isEmpty())
            SF_SKIP_BECAUSE(why);
        checkTrialsInCli(Harness::ClaudeCode, binary, u"anthropic:claude-sonnet-4-5"_s, "/v1/messages");
    }

    void claudeCodeBinary_budget_noTrialStartsThatCouldPassIt()
    {
        QByteArray why;
        const QString binary = cliFromEnvironment("SKILLFORGE_CLAUDE_CODE_CLI", &why);
        if (binary.isEmpty())
            SF_SKIP_BECAUSE(why);
        QString noSandbox;
        if (!sandboxAvailable(&noSandbox))
            SF_SKIP_BECAUSE(noSandbox);
        ScriptedModel scripted;
        startScriptedModel("/v1/messages", &scripted);
        const SkillCatalogue catalogue = writeCatalogue();
        TriggerConfig config = cliConfig(Harness::ClaudeCode, binary, u"anthropic:claude-sonnet-4-5"_s);
        config.concurrency = 1;
        const double bound = *trialCostBound(catalogue, scriptedQueries().first().query, config.models.first(), config);
        config.maxCostUsd = bound * 1.5; // the first trial fits; a scripted trial costs far less than its bound
        TriggerRunner runner(*scripted.chat, catalogue, scriptedQueries(), config);
        QVERIFY(runToEnd(runner));
        QCOMPARE(runner.stopReason(), u"budget"_s);
        QVERIFY(!runner.trials().isEmpty());
        QVERIFY(runner.trials().size() < scriptedQueries().size());
        QVERIFY(runner.spentUsd() <= *config.maxCostUsd);
        QCOMPARE(scripted.endpoints->mainRequests(), runner.trials().size());
    }

    void codexBinary_eachTrialInTheCli_recallAndFalsePositivesAsScripted()
    {
        QByteArray why;
        const QString binary = cliFromEnvironment("SKILLFORGE_CODEX_CLI", &why);
        if (binary.isEmpty())
            SF_SKIP_BECAUSE(why);
        checkTrialsInCli(Harness::Codex, binary, u"openai:gpt-5"_s, "/v1/responses");
    }
};

SF_TEST_GUILESS_MAIN(TestTriggerHarness)
#include "test_trigger_harness.moc"
