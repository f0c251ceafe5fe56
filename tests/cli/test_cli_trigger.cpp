#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"
#include "TriggerStudent.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;
using namespace sf::test;

namespace {

struct Result
{
    int exitCode = -1;
    QString out;
    QString err;
};

void writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(content);
}

/// With TriggerStudent (2 shared words) and this description: the first query triggers, the second misses, the third
/// is a near miss that triggers, the fourth goes to the pdf decoy, the fifth to nothing.
const QByteArray kSkill = "---\nname: cuda-kernels\ndescription: Write and optimise CUDA kernels for GPU tensor "
                          "operations, such as softmax and layernorm.\n---\n# CUDA kernels\n\nUse shared memory.\n";
const QByteArray kQueries = R"([
  {"query": "Write a CUDA kernel for softmax", "should_trigger": true},
  {"query": "My layernorm is slow, speed it up", "should_trigger": true},
  {"query": "Write operations notes about our tensor library", "should_trigger": false},
  {"query": "Extract the tables from this PDF file", "should_trigger": false},
  {"query": "What is the capital of France?", "should_trigger": false}
])";

} // namespace

/// `skillforge trigger` as a user runs it: the real executable against a scripted student that chooses by the words
/// of the listed descriptions, so recall and false positives are known in advance.
class TestCliTrigger : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    ScriptedHttpServer m_server;
    QString m_skill;
    QString m_queries;

    Result run(const QStringList &arguments)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "HF_TOKEN", "GENERIC_API_KEY"})
            env.remove(QString::fromLatin1(name));
        env.insert(u"HOME"_s, m_dir.filePath(u"home"_s));
        env.insert(u"XDG_CONFIG_HOME"_s, m_dir.filePath(u"home/config"_s));
        env.insert(u"GENERIC_BASE_URL"_s, m_server.baseUrl().toString() + u"/v1"_s);
        env.insert(u"OPENAI_BASE_URL"_s, m_server.baseUrl().toString() + u"/v1"_s);
        env.insert(u"OPENAI_API_KEY"_s, u"sk-test-0000"_s);
        process.setProcessEnvironment(env);
        QSignalSpy finished(&process, &QProcess::finished);
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE), arguments);
        if (!finished.wait(60000)) {
            process.kill();
            process.waitForFinished();
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(m_server.listen());
        // The student chooses by the descriptions' words; the teacher (held to a JSON schema) proposes a better one.
        m_server.routeHandler("POST", "/v1/chat/completions", [](const RecordedRequest &request) {
            if (!request.body.contains("response_format"))
                return TriggerStudent{}(request);
            if (request.body.contains("trigger_queries")) // tests generate --trigger
                return scriptedReply(QString::fromUtf8("{\"queries\": " + kQueries + "}"));
            return scriptedReply(
                u"{\"description\": \"CUDA kernels: speed up a slow softmax or layernorm on the GPU.\"}"_s, {2000, 40});
        });
        m_skill = m_dir.filePath(u"project/skills/cuda-kernels"_s);
        writeFile(m_skill + u"/SKILL.md"_s, kSkill);
        m_queries = m_dir.filePath(u"eval_set.json"_s);
        writeFile(m_queries, kQueries);
    }

    void trigger_json_reportsTheKnownRecallFalsePositivesAndWhatTookEachQuery()
    {
        const Result r = run({u"trigger"_s, m_skill, u"--queries"_s, m_queries, u"--model"_s, u"generic:student"_s,
                              u"--runs"_s, u"2"_s, u"--json"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonObject model = o["models"_L1].toArray().first().toObject();
        QCOMPARE(model["recall"_L1]["k"_L1].toInt(), 2);
        QCOMPARE(model["recall"_L1]["n"_L1].toInt(), 4);
        QCOMPARE(model["false_positive_rate"_L1]["k"_L1].toInt(), 2);
        QCOMPARE(model["false_positive_rate"_L1]["n"_L1].toInt(), 6);
        QCOMPARE(model["precision"_L1]["rate"_L1].toDouble(), 0.5);
        const QJsonArray ci = model["recall"_L1]["ci95"_L1].toArray();
        QVERIFY(ci.at(0).toDouble() < 0.5 && ci.at(1).toDouble() > 0.5);
        const QJsonArray queries = o["queries"_L1].toArray();
        QCOMPARE(queries.size(), 5);
        QCOMPARE(queries.at(0)["trigger_rate"_L1].toDouble(), 1.0);
        QCOMPARE(queries.at(1)["pass"_L1].toBool(), false);
        QCOMPARE(queries.at(3)["loaded_instead"_L1]["pdf"_L1].toInt(), 2);
        // The default catalogue: the bundled decoys (no other skill beside it), the candidate among them.
        QVERIFY(o["catalogue"_L1].toArray().contains(u"cuda-kernels"_s));
        QVERIFY(o["catalogue"_L1].toArray().contains(u"pdf"_s));
    }

    void trigger_text_showsRatesWithIntervalsAndFailingQueries()
    {
        const Result r = run({u"trigger"_s, m_skill, u"--queries"_s, m_queries, u"--model"_s, u"generic:student"_s,
                              u"--runs"_s, u"1"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(u"recall          50% ["_s), qPrintable(r.out));
        QVERIFY2(r.out.contains(u"false positives 33% ["_s), qPrintable(r.out));
        QVERIFY2(r.out.contains(u"FAIL should not 1/1  Write operations notes"_s), qPrintable(r.out));
        QVERIFY2(r.out.contains(u"(instead: pdf x1)"_s), qPrintable(r.out));
        QVERIFY2(r.err.contains(u"estimate: 5 trials"_s), qPrintable(r.err));
    }

    void trigger_defaultCatalogue_listsTheSkillsBesideItWithTheBundledDecoys()
    {
        // A project of its own, so the sibling stays out of the other tests' catalogues.
        const QString skill = m_dir.filePath(u"siblings/skills/cuda-kernels"_s);
        writeFile(skill + u"/SKILL.md"_s, kSkill);
        const QByteArray siblingDescription = "Draft release notes from the merged pull requests.";
        writeFile(m_dir.filePath(u"siblings/skills/release-notes/SKILL.md"_s),
                  "---\nname: release-notes\ndescription: " + siblingDescription + "\n---\nbody\n");
        const int before = int(m_server.requests().size());
        const Result r = run({u"trigger"_s, skill, u"--queries"_s, m_queries, u"--model"_s, u"generic:student"_s,
                              u"--runs"_s, u"1"_s, u"--json"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(u"(1 skills beside it and "_s), qPrintable(r.err));
        const QJsonArray catalogue = QJsonDocument::fromJson(r.out.toUtf8())["catalogue"_L1].toArray();
        QVERIFY(catalogue.contains(u"cuda-kernels"_s));
        QVERIFY(catalogue.contains(u"release-notes"_s)); // beside it
        QVERIFY(catalogue.contains(u"pdf"_s));           // a bundled decoy
        // Every trial lists the sibling to the student.
        const auto requests = m_server.requests().mid(before);
        QCOMPARE(requests.size(), 5);
        for (const RecordedRequest &request : requests) {
            const QString system = QJsonDocument::fromJson(request.body)["messages"_L1][0]["content"_L1].toString();
            QVERIFY2(system.contains(QString::fromUtf8(siblingDescription)), qPrintable(system));
        }
    }

    void trigger_catalogueFolder_listsExactlyThoseSkillsInEveryTrial()
    {
        const QString decoys = m_dir.filePath(u"decoys"_s);
        writeFile(decoys + u"/tables/SKILL.md"_s,
                  "---\nname: tables\ndescription: Extract tables from documents.\n---\nbody\n");
        const int before = int(m_server.requests().size());
        const Result r = run({u"trigger"_s, m_skill, u"--queries"_s, m_queries, u"--model"_s, u"generic:student"_s,
                              u"--runs"_s, u"1"_s, u"--catalogue"_s, decoys, u"--json"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o["catalogue"_L1].toArray(), QJsonArray({u"cuda-kernels"_s, u"tables"_s}));
        QCOMPARE(o["queries"_L1][3]["loaded_instead"_L1]["tables"_L1].toInt(), 1);
        const auto requests = m_server.requests().mid(before);
        QCOMPARE(requests.size(), 5);
        for (const RecordedRequest &request : requests) {
            const QString system = QJsonDocument::fromJson(request.body)["messages"_L1][0]["content"_L1].toString();
            QCOMPARE(system.count(u"<skill>"_s), 2);
        }
    }

    void trigger_badQueryFile_exits2NamingFileAndLine()
    {
        const QString bad = m_dir.filePath(u"bad.json"_s);
        writeFile(bad, "[\n  {\"query\": \"a\", \"should_trigger\": true},\n  {\"query\": \"b\", \"should_trigger\": "
                       "\"maybe\"}\n]\n");
        const Result r = run({u"trigger"_s, m_skill, u"--queries"_s, bad, u"--model"_s, u"generic:student"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(bad + u":3"_s), qPrintable(r.err));
        QVERIFY2(r.err.contains(u"query 2"_s), qPrintable(r.err));
    }

    void trigger_maxCostBelowOneTrial_sendsNoRequest()
    {
        const int before = int(m_server.requests().size());
        const Result r = run({u"trigger"_s, m_skill, u"--queries"_s, m_queries, u"--model"_s, u"openai:gpt-4.1"_s,
                              u"--max-cost"_s, u"0.0001"_s, u"--json"_s});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(u"--max-cost"_s), qPrintable(r.err));
        QCOMPARE(int(m_server.requests().size()), before);
    }

    void trigger_harnessClaudeCodeWithAnOpenAiModel_exits2SayingWhatClaudeCodeSpeaks()
    {
        const int before = int(m_server.requests().size());
        const Result r = run({u"trigger"_s, m_skill, u"--queries"_s, m_queries, u"--model"_s, u"openai:gpt-4.1"_s,
                              u"--harness"_s, u"claude-code"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(u"Claude Code speaks Anthropic's Messages API, and openai:gpt-4.1 is not"_s),
                 qPrintable(r.err));
        QCOMPARE(int(m_server.requests().size()), before);
    }

    void trigger_harnessOptionsWithoutACli_exit2()
    {
        for (const QStringList &options :
             {QStringList{u"--harness"_s, u"cursor"_s}, QStringList{u"--harness-cli"_s, u"path"_s},
              QStringList{u"--timeout"_s, u"30"_s}}) {
            const Result r =
                run(QStringList{u"trigger"_s, m_skill, u"--queries"_s, m_queries, u"--model"_s, u"generic:student"_s} +
                    options);
            QCOMPARE(r.exitCode, 2);
            QVERIFY2(r.err.contains(u"--harness"_s), qPrintable(r.err));
        }
    }

    void optimize_json_keepsTheWinnerAsAVersionAndLeavesSkillMdAlone()
    {
        const QString skill = m_dir.filePath(u"opt/cuda-kernels"_s);
        writeFile(skill + u"/SKILL.md"_s, kSkill);
        // The failures in the training split; held out, a query only the better description gets right.
        const QString queries = m_dir.filePath(u"opt/split.json"_s);
        writeFile(queries, R"([
          {"query": "Write a CUDA kernel for softmax", "should_trigger": true, "split": "train"},
          {"query": "My layernorm is slow, speed it up", "should_trigger": true, "split": "train"},
          {"query": "Write operations notes about our tensor library", "should_trigger": false, "split": "train"},
          {"query": "Extract the tables from this PDF file", "should_trigger": false, "split": "train"},
          {"query": "Speed up this slow softmax kernel", "should_trigger": true, "split": "heldout"},
          {"query": "What is the capital of France?", "should_trigger": false, "split": "heldout"}])");
        const Result r =
            run({u"trigger"_s, u"optimize"_s, skill, u"--queries"_s, queries, u"--model"_s, u"generic:student"_s,
                 u"--teacher"_s, u"generic:teacher"_s, u"--runs"_s, u"1"_s, u"--iterations"_s, u"3"_s, u"--json"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(u"estimate: at most 4 evaluations (24 trials) and 3 teacher calls"_s),
                 qPrintable(r.err));
        const QJsonObject o = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(o["exit_reason"_L1].toString(), u"perfect"_s);
        QCOMPARE(o["best_iteration"_L1].toInt(), 1);
        QCOMPARE(o["train_size"_L1].toInt(), 4);
        QCOMPARE(o["test_size"_L1].toInt(), 2);
        QCOMPARE(o["best_test_score"_L1].toString(), u"2/2"_s);
        QCOMPARE(o["history"_L1][0]["test_passed"_L1].toInt(), 1);
        QCOMPARE(o["history"_L1].toArray().size(), 2);
        QVERIFY(o["spent_usd"_L1].isNull()); // no table prices generic: models, and unknown is never $0
        QCOMPARE(o["history"_L1][1]["models"_L1][0]["recall"_L1]["rate"_L1].toDouble(), 1.0);
        const QString version = o["best_version"_L1].toString();
        QVERIFY(QFileInfo::exists(skill + u"/.versions/"_s + version));
        QFile skillMd(skill + u"/SKILL.md"_s);
        QVERIFY(skillMd.open(QIODevice::ReadOnly));
        QCOMPARE(skillMd.readAll(), kSkill);
    }

    void optimize_apply_writesTheWinningDescription()
    {
        const QString skill = m_dir.filePath(u"apply/cuda-kernels"_s);
        writeFile(skill + u"/SKILL.md"_s, kSkill);
        const Result r =
            run({u"trigger"_s, u"optimize"_s, skill, u"--queries"_s, m_queries, u"--model"_s, u"generic:student"_s,
                 u"--teacher"_s, u"generic:teacher"_s, u"--runs"_s, u"1"_s, u"--holdout"_s, u"0"_s, u"--apply"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(u"Best: iteration 1"_s), qPrintable(r.out));
        QVERIFY2(r.out.contains(u"; spent: price unknown (no table prices generic:student, generic:teacher; add a price "
                                "to "_s),
                 qPrintable(r.out));
        QVERIFY(!r.out.contains(u"$0.0000"_s));
        QFile skillMd(skill + u"/SKILL.md"_s);
        QVERIFY(skillMd.open(QIODevice::ReadOnly));
        QVERIFY(skillMd.readAll().contains(
            "description: \"CUDA kernels: speed up a slow softmax or layernorm on the GPU.\""));
    }

    void optimize_budgetWithUnpricedTeacher_exits1BeforeAnyRequest()
    {
        const int before = int(m_server.requests().size());
        const Result r = run({u"trigger"_s, u"optimize"_s, m_skill, u"--queries"_s, m_queries, u"--model"_s,
                              u"openai:gpt-4.1"_s, u"--teacher"_s, u"generic:teacher"_s, u"--max-cost"_s, u"1"_s});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(u"no price for generic:teacher"_s), qPrintable(r.err));
        QCOMPARE(int(m_server.requests().size()), before);
    }

    void testsGenerateTrigger_writesTheSkillsTriggerEvals_whichTriggerThenReads()
    {
        const QString skill = m_dir.filePath(u"gen/cuda-kernels"_s);
        writeFile(skill + u"/SKILL.md"_s, kSkill);
        const int before = int(m_server.requests().size());
        const Result r = run({u"tests"_s, u"generate"_s, skill, u"--trigger"_s, u"--model"_s, u"generic:teacher"_s,
                              u"--count"_s, u"5"_s});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(u"5 trigger queries, 2 should load the skill, 3 should not"_s), qPrintable(r.out));
        const QByteArray request = m_server.requests().at(before).body;
        QVERIFY(request.contains("cuda-kernels"));
        QVERIFY(request.contains("pdf")); // the other skills are named, for near misses
        QVERIFY(QFileInfo::exists(skill + u"/evals/trigger_evals.json"_s));
        // `trigger` finds it without --queries.
        const Result measured = run({u"trigger"_s, skill, u"--model"_s, u"generic:student"_s, u"--runs"_s, u"1"_s});
        QVERIFY2(measured.exitCode == 0, qPrintable(measured.err));
        QVERIFY2(measured.out.contains(u"recall          50%"_s), qPrintable(measured.out));
    }
};

SF_TEST_GUILESS_MAIN(TestCliTrigger)
#include "test_cli_trigger.moc"
