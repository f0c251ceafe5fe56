// Whole evaluations with a real agent CLI as the student (`--harness claude-code|codex`), through EvalSession as the
// command line and the GUI run them: the real Claude Code and Codex binaries, each in the sandbox behind the door,
// against scripted endpoints that load the skill when the CLI lists it and the prompt asks for it. Skipped (77)
// when the pinned CLIs are not installed (scripts/setup-agent-clis) or there is no sandbox.
#include "ScriptedAgentEndpoints.h"
#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "agents/AgentCliInstall.h"
#include "agents/Harness.h"
#include "eval/Contamination.h"
#include "eval/EvalSession.h"
#include "eval/RunAnalysis.h"
#include "eval/RunSummary.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"
#include "sandbox/Sandbox.h"
#include "trace/TraceImport.h"
#include "usage/Pricing.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace sf::test;
using namespace Qt::StringLiterals;

namespace {

const QByteArray kRealKey = "sk-harness-test-real-key-7Qp2";
const char *const kKeyVariable = "SF_HARNESS_TEST_KEY";

void write(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
}

/// Why the pinned CLI of @p harness cannot be used here, or "" when it can.
QString whyNoCli(const QString &harness)
{
    const Result<AgentCliBinary> found = findAgentCli(harness, {});
    return found ? QString() : found.error;
}

/// Every file under @p dir that holds @p needle.
QStringList filesHolding(const QString &dir, const QByteArray &needle)
{
    QStringList found;
    QDirIterator it(dir, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        QFile file(it.next());
        if (file.open(QIODevice::ReadOnly) && file.readAll().contains(needle))
            found.append(file.fileName());
    }
    return found;
}

QString evidenceOf(const ItemResult &result)
{
    QStringList lines{u"answer: "_s + result.answer.left(300)};
    for (const VerifierOutcome &v : result.verifiers)
        lines.append(u"%1: %2"_s.arg(v.type, v.evidence));
    return lines.join(u'\n');
}

/// Where the item's CLI saw its workspace, as its transcript records it.
QString workspaceInSandbox(const QString &runDir, const ItemResult &result)
{
    QFile file(QDir(runDir).filePath(result.transcript));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object().value("workspace_in_sandbox"_L1).toString();
}

const ItemResult *find(const QList<ItemResult> &results, const QString &arm, const QString &caseId)
{
    for (const ItemResult &r : results) {
        if (r.key.arm == arm && r.key.caseId == caseId)
            return &r;
    }
    return nullptr;
}

} // namespace

class TestCliHarnessEval final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<ScriptedHttpServer> m_upstream;
    std::unique_ptr<ScriptedAgentEndpoints> m_endpoints;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_chat;

    QString skillDir() const { return m_dir.filePath(u"skills/csv-tidy"_s); }
    QString suitePath() const { return m_dir.filePath(u"suite.json"_s); }

    /// Runs an evaluation to its end; the run folder, or "" after a failed QVERIFY.
    QString runEval(const QString &harness, const QString &model, int timeoutSeconds = 120, const QString &cli = {})
    {
        EvalPlan plan;
        plan.skillDir = skillDir();
        plan.suitePath = suitePath();
        plan.runsDir = m_dir.filePath(u"runs"_s);
        plan.config.models = {model};
        plan.config.harness = harness;
        plan.config.harnessCli = cli;
        plan.config.concurrency = 2;
        plan.config.timeoutSeconds = timeoutSeconds;
        plan.config.maxOutputTokens = 512;
        auto prepared = EvalSession::prepare(*m_chat, plan, {});
        if (const QString *e = std::get_if<QString>(&prepared)) {
            qWarning().noquote() << *e;
            return {};
        }
        auto session = std::move(std::get<std::unique_ptr<EvalSession>>(prepared));
        QSignalSpy finished(&session->runner(), &EvalRunner::finished);
        session->start();
        if (!finished.wait(timeoutSeconds * 4000))
            return {};
        session->store().waitForWrites();
        return session->store().dir();
    }

    /// The checks both CLIs must pass on one finished run.
    void checkRun(const QString &runDir, const QString &harness, const QString &version, const QString &model)
    {
        auto opened = RunStore::open(runDir, RunStore::Access::ReadOnly);
        QVERIFY(std::holds_alternative<RunStore>(opened));
        const RunStore &store = std::get<RunStore>(opened);
        const QJsonObject recorded = store.manifest().harness;
        QCOMPARE(recorded.value("name"_L1).toString(), harness);
        QCOMPARE(recorded.value("version"_L1).toString(), version);
        QVERIFY(!recorded.value("source"_L1).toString().isEmpty());
        QCOMPARE(store.manifest().parameters.value("harness"_L1).toString(), harness);
        const QList<ItemResult> results = store.results();
        QCOMPARE(results.size(), 4);

        // The case that asks for the skill: with it, loaded at once, its reference read, the file written, passed;
        // without it, nothing listed, nothing loaded, the baseline's answer.
        const ItemResult *with = find(results, kWithSkillArm, u"tidy"_s);
        const ItemResult *without = find(results, kBaselineArm, u"tidy"_s);
        QVERIFY(with && without);
        QVERIFY2(!with->isError(), qPrintable(with->error));
        QVERIFY2(!without->isError(), qPrintable(without->error));
        QVERIFY2(with->passed, qPrintable(evidenceOf(*with)));
        QVERIFY(!without->passed);
        QVERIFY(with->skillLoaded.has_value() && *with->skillLoaded);
        QCOMPARE(with->skillLoadedAtTurn, 1);
        QVERIFY2(with->skillFilesRead.contains(u"SKILL.md"_s), qPrintable(with->skillFilesRead.join(u", ")));
        QVERIFY2(with->skillFilesRead.contains(u"reference/rules.md"_s), qPrintable(with->skillFilesRead.join(u", ")));
        QVERIFY(!without->skillLoaded.has_value());
        QVERIFY(with->answer.contains(u"ANSWER-WITH-SKILL"_s));
        QVERIFY(without->answer.contains(u"ANSWER-BASELINE"_s));
        QVERIFY(!with->harnessSession.isEmpty());
        QVERIFY(QFile::exists(QDir(runDir).filePath(with->harnessSession)));
        QVERIFY(with->cliStartupMs >= 0);

        // The listing: the skill offered to the CLI's model in every main request of the with-skill arm, never in
        // the baseline's.
        // Each CLI saw its workspace at a neutral path of its own, which names neither the item nor its arm.
        const QString withWorkspace = workspaceInSandbox(runDir, *with);
        const QString withoutWorkspace = workspaceInSandbox(runDir, *without);
        QVERIFY(withWorkspace.startsWith(u"/work/"_s) && withoutWorkspace.startsWith(u"/work/"_s));
        QVERIFY(withWorkspace != withoutWorkspace);
        QVERIFY(m_endpoints->mainRequests(withWorkspace) >= 3);
        QCOMPARE(m_endpoints->requestsOfferingSkill(withWorkspace), m_endpoints->mainRequests(withWorkspace));
        QVERIFY(m_endpoints->mainRequests(withoutWorkspace) >= 1);
        QCOMPARE(m_endpoints->requestsOfferingSkill(withoutWorkspace), 0);

        // Tokens: what the door recorded is what the endpoints answered, and what the CLI's own session says.
        const AgentExchange answered = m_endpoints->tokens(withWorkspace);
        QCOMPARE(with->usage.totalInput(), answered.inputTokens);
        QCOMPARE(with->usage.output, answered.outputTokens);
        QCOMPARE(with->usage.cacheRead, answered.cacheReadTokens);
        const Result<Trace> session = importTrace(QDir(runDir).filePath(with->harnessSession));
        QVERIFY2(session.ok(), qPrintable(session.error));
        const TokenUsage fromSession = session.value->totalUsage();
        QCOMPARE(fromSession.totalInput() + fromSession.output, with->totalTokens());

        // The case that does not ask for it: listed but never loaded, a silent bypass the summary counts.
        const ItemResult *bypass = find(results, kWithSkillArm, u"plain"_s);
        QVERIFY(bypass && bypass->skillLoaded.has_value() && !*bypass->skillLoaded);
        const RunSummary summary = summarizeRun(results);
        const ArmSummary *arm = summary.arm(model, kWithSkillArm, u"all"_s);
        QVERIFY(arm && arm->triggerRate);
        QCOMPARE(arm->triggerRate->successes, 1);
        QCOMPARE(arm->triggerRate->trials, 2);

        // Like with like: the same CLI settings in both arms, the skill listed only with it, its text in no
        // baseline session; and the key nowhere in the run folder.
        RunAnalysis analysis;
        analysis.dir = runDir;
        analysis.manifest = store.manifest();
        analysis.results = results;
        const ContaminationReport report = checkContamination(analysis);
        QVERIFY2(report.promptsMatch, qPrintable(report.summary()));
        QVERIFY2(report.arms[0].skillsSeen.isEmpty(), qPrintable(report.summary()));
        QCOMPARE(report.arms[1].skillsSeen, QStringList{u"csv-tidy"_s});
        QVERIFY2(report.leaks.isEmpty(), qPrintable(report.summary()));
        QVERIFY(report.summary().contains(Harness::label(harness)));
        QCOMPARE(filesHolding(runDir, kRealKey), QStringList());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv(kKeyVariable, kRealKey);
        write(skillDir() + u"/SKILL.md"_s,
              "---\nname: csv-tidy\ndescription: Tidies CSV files: trims cells, sorts rows. Use when asked to tidy a "
              "CSV file.\n---\n\nTrim every cell, then sort the rows by the first column; keep the header first.\n"
              "Write the result next to the input as tidy.csv.\n");
        write(skillDir() + u"/reference/rules.md"_s, "Empty cells stay empty; quoted cells keep their quotes.\n");
        write(suitePath(),
              R"([{"id": "tidy", "input": "Please tidy data.csv.", "context": {"files": {"data.csv": "b , 2\na,1\n"}},
                   "verifiers": [{"type": "contains", "values": ["ANSWER-WITH-SKILL"]},
                                 {"type": "file_exists", "path": "tidy.csv"}]},
                  {"id": "plain", "input": "Say hello.", "expected": {"contains": ["ANSWER"]}}])");
    }

    void init()
    {
        AgentPolicy policy;
        policy.skillName = u"csv-tidy"_s;
        policy.keywords = {u"tidy"_s};
        policy.skillFilesToRead = {u"reference/rules.md"_s};
        policy.writeFile = u"tidy.csv"_s;
        policy.writeContent = u"a,1\nb,2\n"_s;
        m_endpoints = std::make_unique<ScriptedAgentEndpoints>(policy);
        m_upstream = std::make_unique<ScriptedHttpServer>();
        QVERIFY(m_upstream->listen());
        m_endpoints->install(*m_upstream);
        m_engine = std::make_unique<HttpEngine>();
        m_providers = std::make_unique<ProviderRegistry>();
        ProviderConfig anthropic;
        anthropic.name = u"scripted"_s;
        anthropic.format = WireFormat::AnthropicMessages;
        anthropic.baseUrl = m_upstream->baseUrl();
        anthropic.apiKeyEnv = QString::fromLatin1(kKeyVariable);
        m_providers->add(anthropic);
        ProviderConfig openAi = anthropic;
        openAi.name = u"scripted-oai"_s;
        openAi.format = WireFormat::OpenAiChat;
        openAi.baseUrl.setPath(u"/v1"_s);
        m_providers->add(openAi);
        m_chat = std::make_unique<ChatClient>(*m_engine, *m_providers, nullptr);
    }

    void cleanup()
    {
        m_chat.reset();
        m_engine.reset();
        m_upstream.reset();
        m_providers.reset();
        QDir(m_dir.filePath(u"runs"_s)).removeRecursively();
    }

    void claudeCode_wholeRun_skillInstalledNativelyLoadedAndMeasured()
    {
        if (const QString why = whyNoCli(Harness::ClaudeCode); !why.isEmpty())
            SF_SKIP_BECAUSE(why);
        if (!sandboxAvailable())
            QSKIP("no bubblewrap sandbox here");
        const QString runDir = runEval(Harness::ClaudeCode, u"scripted:claude-sonnet-4-5"_s);
        QVERIFY(!runDir.isEmpty());
        checkRun(runDir, Harness::ClaudeCode, u"2.1.332"_s, u"scripted:claude-sonnet-4-5"_s);
    }

    void codex_wholeRun_skillInstalledNativelyLoadedAndMeasured()
    {
        if (const QString why = whyNoCli(Harness::Codex); !why.isEmpty())
            SF_SKIP_BECAUSE(why);
        if (!sandboxAvailable())
            QSKIP("no bubblewrap sandbox here");
        const QString runDir = runEval(Harness::Codex, u"scripted-oai:model-x"_s);
        QVERIFY(!runDir.isEmpty());
        checkRun(runDir, Harness::Codex, u"0.163.0"_s, u"scripted-oai:model-x"_s);
    }

    void modelOfTheWrongWire_isRefusedBeforeTheRun()
    {
        EvalPlan plan;
        plan.skillDir = skillDir();
        plan.suitePath = suitePath();
        plan.runsDir = m_dir.filePath(u"runs"_s);
        plan.config.models = {u"scripted-oai:model-x"_s};
        plan.config.harness = Harness::ClaudeCode;
        auto prepared = EvalSession::prepare(*m_chat, plan, {});
        const QString *error = std::get_if<QString>(&prepared);
        QVERIFY(error);
        QVERIFY2(error->contains(u"Anthropic's Messages API"_s), qPrintable(*error));
        QVERIFY(!QDir(plan.runsDir).exists());
    }

    // 5e469cc: both arms of every case must meet the same CLI, so a run resumes only with the version run.json
    // records (harness.version); another is refused before anything runs, pointing to --harness-cli. A stand-in
    // CLI that only answers --version is enough: the refusal comes before any item would start one.
    void resume_withAnotherCliVersion_isRefusedBeforeAnyRequest()
    {
        if (!sandboxAvailable())
            QSKIP("no bubblewrap sandbox here: a CLI harness is refused without one, before the version is compared");
        const QString cli = m_dir.filePath(u"bin/claude"_s);
        const auto installCli = [&cli](const QByteArray &version) {
            write(cli, "#!/bin/sh\necho '" + version + " (Claude Code)'\n");
            QVERIFY(QFile::setPermissions(cli, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        };
        installCli("2.1.0");
        EvalPlan plan;
        plan.skillDir = skillDir();
        plan.suitePath = suitePath();
        plan.runsDir = m_dir.filePath(u"runs"_s);
        plan.config.models = {u"scripted:claude-sonnet-4-5"_s};
        plan.config.harness = Harness::ClaudeCode;
        plan.config.harnessCli = cli;
        QString runDir;
        {
            auto prepared = EvalSession::prepare(*m_chat, plan, {});
            if (const QString *e = std::get_if<QString>(&prepared))
                QFAIL(qPrintable(*e));
            runDir = std::get<std::unique_ptr<EvalSession>>(prepared)->store().dir();
        }
        const auto recordedVersion = [&runDir] {
            QFile file(QDir(runDir).filePath(u"run.json"_s));
            return file.open(QIODevice::ReadOnly)
                       ? QJsonDocument::fromJson(file.readAll())["harness"_L1]["version"_L1].toString()
                       : QString();
        };
        QCOMPARE(recordedVersion(), u"2.1.0"_s);
        plan.resumeDir = runDir;
        {
            // The same version resumes (the refusal below is the version's doing, nothing else's).
            auto prepared = EvalSession::prepare(*m_chat, plan, {});
            if (const QString *e = std::get_if<QString>(&prepared))
                QFAIL(qPrintable(*e));
        }

        installCli("2.10.7"); // the CLI updated itself in place
        auto refused = EvalSession::prepare(*m_chat, plan, {});
        const QString *error = std::get_if<QString>(&refused);
        QVERIFY(error);
        QVERIFY2(error->contains(u"Claude Code is 2.10.7 now"_s) && error->contains(u"was made with 2.1.0"_s) &&
                     error->contains(u"start a new run, or choose that version with --harness-cli"_s),
                 qPrintable(*error));
        QCOMPARE(m_upstream->requests().size(), 0); // no model was asked anything
        QCOMPARE(recordedVersion(), u"2.1.0"_s);    // and the run still says what it was made with
    }

    // Issue 46: a Claude Code item of several requests, each of 80K input tokens, together past Sonnet's 200K tier.
    // Each request is billed at the base rates, as the provider bills it; pricing their sum would bill every token
    // at the tier's.
    void claudeCode_eachRequestPricedAtItsOwnTier_notByTheItemsSum()
    {
        if (const QString why = whyNoCli(Harness::ClaudeCode); !why.isEmpty())
            SF_SKIP_BECAUSE(why);
        if (!sandboxAvailable())
            QSKIP("no bubblewrap sandbox here");
        const QString prices = Pricing::userFilePath();
        QDir().mkpath(QFileInfo(prices).absolutePath());
        write(prices, R"({"prices": [{"pattern": "scripted:claude-sonnet-4-5", "effective": "2025-01-01",
            "usdPerMillionTokens": {"input": 3, "output": 15, "cacheRead": 0.3, "cacheWrite5m": 3.75, "cacheWrite1h": 6},
            "longContext": {"aboveInputTokens": 200000, "usdPerMillionTokens":
              {"input": 6, "output": 22.5, "cacheRead": 0.6, "cacheWrite5m": 7.5, "cacheWrite1h": 12}}}]})");
        Pricing::reload();
        AgentPolicy policy = m_endpoints->policy();
        policy.inputTokensPerRequest = 80000;
        m_endpoints = std::make_unique<ScriptedAgentEndpoints>(policy);
        m_endpoints->install(*m_upstream);

        const QString model = u"scripted:claude-sonnet-4-5"_s;
        const QString runDir = runEval(Harness::ClaudeCode, model);
        QFile::remove(prices);
        Pricing::reload();
        QVERIFY(!runDir.isEmpty());
        auto opened = RunStore::open(runDir, RunStore::Access::ReadOnly);
        QVERIFY(std::holds_alternative<RunStore>(opened));
        const ItemResult *with = find(std::get<RunStore>(opened).results(), kWithSkillArm, u"tidy"_s);
        QVERIFY(with);
        QVERIFY2(!with->isError(), qPrintable(with->error));
        QVERIFY2(with->usage.totalInput() > 200000, qPrintable(QString::number(with->usage.totalInput())));

        // Each request the door recorded, at the base rates by hand: none of them reached the tier.
        QFile transcriptFile(QDir(runDir).filePath(with->transcript));
        QVERIFY(transcriptFile.open(QIODevice::ReadOnly));
        const QJsonArray requests = QJsonDocument::fromJson(transcriptFile.readAll())["requests"_L1].toArray();
        double byHand = 0;
        int billed = 0;
        for (const QJsonValue &request : requests) {
            const TokenUsage usage = usageFromJson(request["usage"_L1].toObject());
            if (usage.totalInput() + usage.output == 0)
                continue;
            ++billed;
            QCOMPARE_LE(usage.totalInput(), 200000);
            const double cost = (usage.uncachedInput * 3 + usage.cacheRead * 0.3 + usage.cacheWrite5m * 3.75 +
                                 usage.cacheWrite1h * 6 + usage.output * 15) /
                                1e6;
            QVERIFY(request["cost_usd"_L1].isDouble());
            QVERIFY(qAbs(request["cost_usd"_L1].toDouble() - cost) < 1e-9);
            byHand += cost;
        }
        QVERIFY(billed >= 3);
        QVERIFY(with->costUsd);
        QVERIFY2(qAbs(*with->costUsd - byHand) < 1e-9, qPrintable(u"%1 != %2"_s.arg(*with->costUsd).arg(byHand)));

        // The old way, the item's sum priced once, crosses the tier and bills every token at its rates.
        const TokenUsage total = with->usage;
        const double lumped = (total.uncachedInput * 6 + total.cacheRead * 0.6 + total.cacheWrite5m * 7.5 +
                               total.cacheWrite1h * 12 + total.output * 22.5) /
                              1e6;
        QVERIFY(lumped > *with->costUsd * 1.9);
        qInfo().noquote() << u"%1 requests, %2 input tokens: priced one by one %3, the sum priced once %4"_s.arg(billed)
                                 .arg(total.totalInput())
                                 .arg(formatUsd(*with->costUsd), formatUsd(lumped));
    }
};

SF_TEST_GUILESS_MAIN(TestCliHarnessEval)
#include "test_cli_harness_eval.moc"
