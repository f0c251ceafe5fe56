// Generating a skill with a scripted teacher over real HTTP: validation, one repair round, a
// whole-or-nothing install, the prompt stored with the version, and nothing of the user's lost.
#include "ChatReplies.h"
#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "generate/SkillGenerator.h"
#include "llm/ChatClient.h"
#include "llm/HttpEngine.h"
#include "llm/ProviderRegistry.h"
#include "skill/SkillVersionStore.h"

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

const QString kValidSkill = uR"(=== FILE: SKILL.md ===
---
name: rmsnorm-kernels
description: Writes fused RMSNorm CUDA kernels for diffusers models. Use when a task asks for a fast RMSNorm.
---
# RMSNorm kernels

1. One block per row; reduce the sum of squares with warp shuffles.
2. Read the detailed notes in [notes](references/notes.md).
=== FILE: references/notes.md ===
Vectorize loads with 16-byte accesses when hidden % 8 == 0.
)"_s;

// Upper case in the name and no description: errors under every profile.
const QString kInvalidSkill = uR"(=== FILE: SKILL.md ===
---
name: RMSNorm Kernels
---
# RMSNorm kernels
Use warp shuffles.
)"_s;

QByteArray openAiReply(const QString &text)
{
    return openAiReplyBody(text, 1000, 200);
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestSkillGenerator final : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<ScriptedHttpServer> m_server;
    std::unique_ptr<HttpEngine> m_engine;
    std::unique_ptr<ProviderRegistry> m_providers;
    std::unique_ptr<ChatClient> m_client;
    std::unique_ptr<QTemporaryDir> m_project;

    QString skillsFolder() const { return m_project->filePath(u"skills"_s); }

    SkillGenerationRequest request() const
    {
        SkillGenerationRequest request;
        request.task = u"Write a fast RMSNorm kernel for Flux"_s;
        request.traces = {
            {u"session.jsonl"_s, u"assistant: tried a naive kernel, 3x slower; switched to warp shuffles"_s}};
        request.teacherModel = u"openai:teacher-1"_s;
        request.skillsFolder = skillsFolder();
        return request;
    }

    // Runs the generator to the end; the result, or a failure message in *failure.
    SkillGenerationResult generate(const SkillGenerationRequest &req, QString *failure = nullptr)
    {
        SkillGenerator generator(*m_client);
        QSignalSpy finished(&generator, &SkillGenerator::finished);
        QSignalSpy failed(&generator, &SkillGenerator::failed);
        generator.start(req);
        [&] { QTRY_COMPARE_WITH_TIMEOUT(finished.count() + failed.count(), 1, 10000); }();
        if (!failed.isEmpty()) {
            if (failure) {
                *failure = failed.first().first().toString();
            }
            return {};
        }
        return finished.first().first().value<SkillGenerationResult>();
    }

    QJsonObject sentBody(int index) const
    {
        return QJsonDocument::fromJson(m_server->requests().at(index).body).object();
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void init()
    {
        m_server = std::make_unique<ScriptedHttpServer>();
        QVERIFY(m_server->listen());
        qputenv("OPENAI_BASE_URL", m_server->baseUrl().toEncoded() + "/v1");
        qputenv("OPENAI_API_KEY", "sk-test-teacher-0001");
        m_engine = std::make_unique<HttpEngine>();
        m_providers = std::make_unique<ProviderRegistry>();
        m_client = std::make_unique<ChatClient>(*m_engine, *m_providers, nullptr);
        m_project = std::make_unique<QTemporaryDir>();
        QVERIFY(QDir().mkpath(skillsFolder()));
    }

    void cleanup()
    {
        m_client.reset();
        m_providers.reset();
        m_engine.reset();
        m_server.reset();
        m_project.reset();
    }

    void generate_fromTaskAndTrace_writesAValidSkillAndStoresThePrompt()
    {
        m_server->route("POST", "/v1/chat/completions", ScriptedResponse::json(200, openAiReply(kValidSkill)));
        QString failure;
        const SkillGenerationResult result = generate(request(), &failure);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));

        QCOMPARE(result.skillDir, QDir(skillsFolder()).filePath(u"rmsnorm-kernels"_s));
        QCOMPARE(result.name, u"rmsnorm-kernels"_s);
        QVERIFY2(!hasErrors(result.problems), qPrintable(result.problems.value(0).toString()));
        QCOMPARE(result.teacherCalls, 1);
        QVERIFY(!result.repaired);
        QCOMPARE(result.usage.uncachedInput, 1000);
        QCOMPARE(result.usage.output, 200);
        QVERIFY(readAll(result.skillDir + u"/references/notes.md"_s).contains("16-byte"));
        QVERIFY(readAll(result.skillDir + u"/skill_meta.json"_s).contains("openai:teacher-1"));
        // Nothing half-written is left beside the skill.
        QCOMPARE(QDir(skillsFolder()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList{u"rmsnorm-kernels"_s});

        // The teacher saw the task and the trace, under the system prompt from resources/prompts.
        const QJsonObject sent = sentBody(0);
        const QJsonArray messages = sent.value(u"messages"_s).toArray();
        QVERIFY(messages.at(0).toObject().value(u"content"_s).toString().contains(u"=== FILE: PATH ==="_s));
        const QString user = messages.at(1).toObject().value(u"content"_s).toString();
        QVERIFY(user.contains(u"Write a fast RMSNorm kernel for Flux"_s));
        QVERIFY(user.contains(u"switched to warp shuffles"_s));
        QVERIFY(!user.contains(u"{{"_s));
        QVERIFY(!user.contains(u"Improve this existing skill"_s)); // the empty section is left out

        // The exact prompt is stored with the version it produced, and holds no key.
        const QList<SkillVersion> versions = SkillVersionStore(result.skillDir).versions();
        QCOMPARE(versions.size(), 1);
        QCOMPARE(versions.first().id, result.versionId);
        QCOMPARE(versions.first().origin, u"teacher:openai:teacher-1"_s);
        const QByteArray prompt = readAll(result.skillDir + u"/.versions/"_s + result.versionId + u"/prompt.json"_s);
        const QJsonObject stored = QJsonDocument::fromJson(prompt).object();
        QCOMPARE(stored.value(u"messages"_s).toArray().at(0).toObject().value(u"content"_s).toString(), user);
        QVERIFY(!prompt.contains("sk-test-teacher"));
        // And the teacher's reply, as it came, beside it.
        QCOMPARE(result.promptPath, result.skillDir + u"/.versions/"_s + result.versionId + u"/prompt.json"_s);
        QCOMPARE(result.replyPath, result.skillDir + u"/.versions/"_s + result.versionId + u"/reply.md"_s);
        QCOMPARE(QString::fromUtf8(readAll(result.replyPath)), kValidSkill);
    }

    void generate_jsonReplyFormat_sendsTheSchema_andBuildsTheSkillFromTheJson()
    {
        // What a grammar-held small model sends back: name, description (with YAML-hostile characters) and body.
        const QJsonObject reply{
            {u"name"_s, u"rmsnorm-kernels"_s},
            {u"description"_s, u"Writes RMSNorm kernels: \"fast\" ones. Use when asked for one."_s},
            {u"body"_s, u"# RMSNorm\n\nOne block per row; see [notes](references/notes.md)."_s},
            {u"files"_s, QJsonArray{QJsonObject{{u"path"_s, u"references/notes.md"_s}, {u"content"_s, u"16-byte loads"_s}},
                                   QJsonObject{{u"path"_s, u"../escape.md"_s}, {u"content"_s, u"no"_s}}}}};
        m_server->route("POST", "/v1/chat/completions",
                        ScriptedResponse::json(200, openAiReply(QString::fromUtf8(QJsonDocument(reply).toJson()))));
        SkillGenerationRequest req = request();
        req.replyFormat = ReplyFormat::Json;
        QString failure;
        const SkillGenerationResult result = generate(req, &failure);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QCOMPARE(result.replyFormat, ReplyFormat::Json);
        QCOMPARE(result.name, u"rmsnorm-kernels"_s);
        QVERIFY2(!hasErrors(result.problems), qPrintable(result.problems.value(0).toString()));
        QVERIFY(result.draftNotes.join(u' ').contains(u"../escape.md"_s));
        QVERIFY(!QFile::exists(QDir(skillsFolder()).filePath(u"escape.md"_s)));
        QCOMPARE(readAll(result.skillDir + u"/references/notes.md"_s), QByteArray("16-byte loads"));

        // The request held the teacher to the schema and told it the JSON layout instead of the file lines.
        const QJsonObject sent = sentBody(0);
        const QJsonObject format = sent.value(u"response_format"_s).toObject();
        QCOMPARE(format.value(u"type"_s).toString(), u"json_schema"_s);
        const QJsonObject schema = format.value(u"json_schema"_s).toObject().value(u"schema"_s).toObject();
        QVERIFY(schema.value(u"required"_s).toArray().contains(u"description"_s));
        const QString system = sent.value(u"messages"_s).toArray().at(0).toObject().value(u"content"_s).toString();
        QVERIFY(system.contains(u"\"description\""_s));
        QVERIFY(!system.contains(u"=== FILE: PATH ==="_s));
        const QJsonObject stored = QJsonDocument::fromJson(readAll(result.skillDir + u"/.versions/"_s +
                                                                   result.versionId + u"/prompt.json"_s))
                                       .object();
        QCOMPARE(stored.value(u"reply_format"_s).toString(), u"json"_s);
        QCOMPARE(stored.value(u"reply_schema"_s).toObject(), schema);
    }

    void generate_autoReplyFormat_isJsonOnlyForGrammarServers()
    {
        QCOMPARE(resolveReplyFormat(ReplyFormat::Auto, u"local:gemma3-270m"_s), ReplyFormat::Json);
        QCOMPARE(resolveReplyFormat(ReplyFormat::Auto, u"ollama:qwen3:4b"_s), ReplyFormat::Json);
        QCOMPARE(resolveReplyFormat(ReplyFormat::Auto, u"anthropic:claude-sonnet-4-5"_s), ReplyFormat::Files);
        QCOMPARE(resolveReplyFormat(ReplyFormat::Files, u"local:gemma3-270m"_s), ReplyFormat::Files);
        // The default request of the other tests goes to openai: the written format, no schema sent.
        m_server->route("POST", "/v1/chat/completions", ScriptedResponse::json(200, openAiReply(kValidSkill)));
        generate(request());
        QVERIFY(!sentBody(0).contains(u"response_format"_s));
    }

    void generate_invalidFirstDraft_isRepairedWithTheProblemsListed()
    {
        m_server->routeSequence("POST", "/v1/chat/completions",
                                {ScriptedResponse::json(200, openAiReply(kInvalidSkill)),
                                 ScriptedResponse::json(200, openAiReply(kValidSkill))});
        const SkillGenerationResult result = generate(request());
        QCOMPARE(result.teacherCalls, 2);
        QVERIFY(result.repaired);
        QVERIFY(!hasErrors(result.problems));
        QCOMPARE(result.usage.output, 400);

        // The repair round continues the conversation: the draft, then the validator's findings.
        const QJsonArray messages = sentBody(1).value(u"messages"_s).toArray();
        QCOMPARE(messages.size(), 4); // system, task, draft, problems
        QCOMPARE(messages.at(2).toObject().value(u"content"_s).toString(), kInvalidSkill);
        const QString problems = messages.at(3).toObject().value(u"content"_s).toString();
        QVERIFY(problems.contains(u"SKILL.md:"_s));
        QVERIFY(problems.contains(u"description"_s));
    }

    void generate_repairStillInvalid_installsWithTheRemainingProblemsShown()
    {
        m_server->route("POST", "/v1/chat/completions", ScriptedResponse::json(200, openAiReply(kInvalidSkill)));
        const SkillGenerationResult result = generate(request());
        QCOMPARE(result.teacherCalls, 2); // repaired once, never more
        QVERIFY(hasErrors(result.problems));
        QVERIFY(QFile::exists(result.skillDir + u"/SKILL.md"_s));
    }

    void generate_repairReplyUnusable_keepsTheFirstDraft()
    {
        m_server->routeSequence("POST", "/v1/chat/completions",
                                {ScriptedResponse::json(200, openAiReply(kInvalidSkill)),
                                 ScriptedResponse::json(200, openAiReply(u"I cannot help with that."_s))});
        const SkillGenerationResult result = generate(request());
        QVERIFY(readAll(result.skillDir + u"/SKILL.md"_s).contains("Use warp shuffles."));
        QVERIFY(!result.draftNotes.isEmpty());
    }

    void generate_noUsableReplyAtAll_failsAndWritesNothing()
    {
        m_server->route("POST", "/v1/chat/completions", ScriptedResponse::json(200, openAiReply(u"Sorry."_s)));
        QString failure;
        generate(request(), &failure);
        QVERIFY(failure.contains(u"no usable skill"_s));
        QVERIFY(QDir(skillsFolder()).isEmpty(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot));
    }

    void generate_replyCutAtTheTokenLimit_repairAndErrorSaySo()
    {
        // A JSON draft that stopped mid-description because the teacher ran out of tokens (finish_reason "length").
        const QString whole = QString::fromUtf8(
            QJsonDocument(QJsonObject{{u"name"_s, u"rmsnorm-kernels"_s},
                                      {u"description"_s, u"Writes fused RMSNorm CUDA kernels for diffusers models."_s},
                                      {u"body"_s, u"# RMSNorm\n\nOne block per row."_s}})
                .toJson(QJsonDocument::Compact));
        const QString cut = whole.left(whole.indexOf(u"CUDA"_s));
        const QJsonObject message{{u"role"_s, u"assistant"_s}, {u"content"_s, cut}};
        const QByteArray cutReply = openAiCompletionBody(message, u"length"_s, {1000, 1200});
        m_server->route("POST", "/v1/chat/completions", ScriptedResponse::json(200, cutReply));
        SkillGenerationRequest req = request();
        req.replyFormat = ReplyFormat::Json;
        req.maxTokens = 1200;
        QString failure;
        generate(req, &failure);

        const QString said = u"the reply was cut off at the token limit (1200 tokens)"_s;
        QCOMPARE(m_server->requests().size(), 2);
        const QJsonArray messages = sentBody(1).value(u"messages"_s).toArray();
        QCOMPARE(messages.size(), 4); // system, task, the cut draft, the repair request
        QCOMPARE(messages.at(2).toObject().value(u"content"_s).toString(), cut);
        const QString repair = messages.at(3).toObject().value(u"content"_s).toString();
        QVERIFY2(repair.contains(said), qPrintable(repair));
        QVERIFY2(failure.contains(u"no usable skill"_s) && failure.contains(said), qPrintable(failure));
        QVERIFY(QDir(skillsFolder()).isEmpty(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot));

        // The same unusable text from a reply that ended by itself is not blamed on the limit.
        cleanup();
        init();
        const QByteArray stopped = openAiCompletionBody(message, u"stop"_s, {1000, 300});
        m_server->route("POST", "/v1/chat/completions", ScriptedResponse::json(200, stopped));
        req.skillsFolder = skillsFolder();
        failure.clear();
        generate(req, &failure);
        QVERIFY2(failure.contains(u"no usable skill"_s), qPrintable(failure));
        QVERIFY2(!failure.contains(u"cut off"_s), qPrintable(failure));
        const QString plainRepair =
            sentBody(1).value(u"messages"_s).toArray().at(3).toObject().value(u"content"_s).toString();
        QVERIFY2(!plainRepair.isEmpty() && !plainRepair.contains(u"cut off"_s), qPrintable(plainRepair));
    }

    void generate_teacherRefuses_failsWithTheServersMessage()
    {
        m_server->route("POST", "/v1/chat/completions",
                        ScriptedResponse::json(400, R"({"error":{"message":"model teacher-1 does not exist"}})"));
        QString failure;
        generate(request(), &failure);
        QVERIFY2(failure.contains(u"model teacher-1 does not exist"_s), qPrintable(failure));
    }

    void improve_existingSkill_keepsItsFilesAndTheOldVersion()
    {
        const QString dir = QDir(skillsFolder()).filePath(u"rmsnorm-kernels"_s);
        QVERIFY(QDir().mkpath(dir + u"/scripts"_s));
        QFile old(dir + u"/SKILL.md"_s);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("---\nname: rmsnorm-kernels\ndescription: Old. Use when asked.\n---\nThe user's own words.\n");
        old.close();
        QFile script(dir + u"/scripts/check.py"_s);
        QVERIFY(script.open(QIODevice::WriteOnly));
        script.write("print('check')\n");
        script.close();

        m_server->route("POST", "/v1/chat/completions", ScriptedResponse::json(200, openAiReply(kValidSkill)));
        SkillGenerationRequest req = request();
        req.existingSkillDir = dir;
        req.instructions = u"Mention vectorized loads."_s;
        const SkillGenerationResult result = generate(req);
        QCOMPARE(result.skillDir, dir);

        // The teacher saw the current skill, the user's instructions, and no generated metadata.
        const QString user = sentBody(0).value(u"messages"_s).toArray().at(1).toObject().value(u"content"_s).toString();
        QVERIFY(user.contains(u"The user's own words."_s));
        QVERIFY(user.contains(u"=== FILE: scripts/check.py ==="_s));
        QVERIFY(user.contains(u"Mention vectorized loads."_s));

        QVERIFY(readAll(dir + u"/scripts/check.py"_s).contains("check")); // not rewritten, so kept
        const QList<SkillVersion> versions = SkillVersionStore(dir).versions();
        QCOMPARE(versions.size(), 2);
        QCOMPARE(versions.last().origin, u"user"_s);
        QVERIFY(
            SkillVersionStore(dir).files(versions.last().id).value(u"SKILL.md"_s).contains("The user's own words."));
    }

    void cancel_stopsTheRequestAndWritesNothing()
    {
        ScriptedResponse slow = ScriptedResponse::json(200, openAiReply(kValidSkill));
        slow.delayMs = 5000;
        m_server->route("POST", "/v1/chat/completions", slow);
        SkillGenerator generator(*m_client);
        QSignalSpy failed(&generator, &SkillGenerator::failed);
        generator.start(request());
        QTRY_COMPARE_WITH_TIMEOUT(m_server->requests().size(), 1, 5000);
        generator.cancel();
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, 2000);
        QCOMPARE(failed.first().first().toString(), u"cancelled"_s);
        QVERIFY(QDir(skillsFolder()).isEmpty(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot));
    }
};

SF_TEST_GUILESS_MAIN(TestSkillGenerator)
#include "test_skill_generator.moc"
