// `skillforge generate` as a user runs it: the real executable, a scripted teacher over real HTTP.
#include "ChatReplies.h"
#include "ScriptedHttpServer.h"
#include "SkippedChecks.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <memory>

using namespace sf::test;
using namespace Qt::StringLiterals;

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

const QString kSkillReply = uR"(=== FILE: SKILL.md ===
---
name: fused-rmsnorm
description: Writes fused RMSNorm CUDA kernels. Use when a diffusers model needs a faster RMSNorm.
---
# Fused RMSNorm
Reduce with warp shuffles; one block per row.
)"_s;

QByteArray openAiReply(const QString &text)
{
    return openAiReplyBody(text, 700, 90);
}

} // namespace

class TestCliGenerate final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home;
    ScriptedHttpServer m_server;

    Run run(const QStringList &arguments, const QString &workingDirectory)
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(u"HOME"_s, m_home.path());
        env.insert(u"XDG_CONFIG_HOME"_s, m_home.filePath(u"config"_s));
        env.insert(u"OPENAI_BASE_URL"_s, m_server.baseUrl().toString() + u"/v1"_s);
        env.insert(u"OPENAI_API_KEY"_s, u"sk-cli-test-9999"_s);
        QProcess process;
        process.setProcessEnvironment(env);
        process.setWorkingDirectory(workingDirectory);
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
    void initTestCase() { QVERIFY(m_server.listen()); }

    void generate_inAProject_writesToItsSkillsFolder()
    {
        QTemporaryDir project;
        QFile file(project.filePath(u"skillforge.json"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format_version": 1, "name": "p"})");
        file.close();
        QVERIFY(QDir().mkpath(project.filePath(u"traces"_s)));
        m_server.route("POST", "/v1/chat/completions", ScriptedResponse::json(200, openAiReply(kSkillReply)));

        // Run from a subfolder: the project is found above it.
        const Run r = run({u"generate"_s, u"--task"_s, u"Fuse RMSNorm for Flux"_s, u"--teacher"_s, u"openai:teacher"_s},
                          project.filePath(u"traces"_s));
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString skill = project.filePath(u"skills/fused-rmsnorm"_s);
        QVERIFY(QFile::exists(skill + u"/SKILL.md"_s));
        QVERIFY(r.out.startsWith(u"Wrote "_s + skill));
        QVERIFY(r.err.contains(u"700 input + 90 output tokens"_s));
        QVERIFY(!r.err.contains(u"sk-cli-test"_s));
    }

    void generate_fromATrace_givesTheTeacherTheCondensedSession()
    {
        QTemporaryDir out;
        m_server.route("POST", "/v1/chat/completions", ScriptedResponse::json(200, openAiReply(kSkillReply)));
        const int before = int(m_server.requests().size());
        const QString trace =
            QStringLiteral(SKILLFORGE_SOURCE_DIR) + u"/resources/sample-project/traces/rmsnorm-flux-session.jsonl"_s;
        const Run r = run({u"generate"_s, u"--task"_s, u"Fuse RMSNorm"_s, u"--from"_s, trace, u"--budget-tokens"_s,
                           u"3000"_s, u"--teacher"_s, u"openai:teacher"_s, u"--out"_s, out.path()},
                          out.path());
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString sent = QString::fromUtf8(m_server.requests().at(before).body);
        QVERIFY(sent.contains(u"### rmsnorm-flux-session.jsonl"_s));
        QVERIFY(sent.contains(u"USER: I want a fused RMSNorm CUDA kernel for the Flux transformer"_s));
        QVERIFY(sent.size() < 3000 * 4 + 8000); // the budget holds, plus the prompt around it
    }

    void generate_json_reportsValidityAndVersion()
    {
        QTemporaryDir out;
        m_server.route("POST", "/v1/chat/completions", ScriptedResponse::json(200, openAiReply(kSkillReply)));
        const Run r = run({u"generate"_s, u"--task"_s, u"t"_s, u"--teacher"_s, u"openai:teacher"_s, u"--out"_s,
                           out.path(), u"--json"_s},
                          out.path());
        QCOMPARE(r.exitCode, 0);
        const QJsonObject result = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(result.value(u"valid"_s).toBool(), true);
        QCOMPARE(result.value(u"name"_s).toString(), u"fused-rmsnorm"_s);
        QVERIFY(QFile::exists(
            out.filePath(u"fused-rmsnorm/.versions/"_s + result.value(u"version"_s).toString() + u"/prompt.json"_s)));
    }

    // What the teacher cost, from the table's prices: a priced model's dollars; an unpriced one never $0.
    void generate_printsTheTeachersCost_pricedOrUnknown()
    {
        QTemporaryDir out;
        m_server.route("POST", "/v1/chat/completions", ScriptedResponse::json(200, openAiReply(kSkillReply)));
        // gpt-4.1-mini: $0.40 per million input and $1.60 per million output tokens; 700 in, 90 out.
        const Run priced = run({u"generate"_s, u"--task"_s, u"t"_s, u"--teacher"_s, u"openai:gpt-4.1-mini"_s,
                                u"--out"_s, out.filePath(u"priced"_s), u"--json"_s},
                               out.path());
        QVERIFY2(priced.exitCode == 0, qPrintable(priced.err));
        QVERIFY2(priced.err.contains(u"[openai:gpt-4.1-mini] 1 call(s), 700 input + 90 output tokens, $0.0004,"_s),
                 qPrintable(priced.err));
        const QJsonObject json = QJsonDocument::fromJson(priced.out.toUtf8()).object();
        QVERIFY(qAbs(json.value(u"cost_usd"_s).toDouble() - 0.000424) < 1e-9);

        const Run unpriced = run({u"generate"_s, u"--task"_s, u"t"_s, u"--teacher"_s, u"openai:teacher"_s, u"--out"_s,
                                  out.filePath(u"unpriced"_s), u"--json"_s},
                                 out.path());
        QVERIFY2(unpriced.exitCode == 0, qPrintable(unpriced.err));
        QVERIFY2(unpriced.err.contains(u"700 input + 90 output tokens, price unknown"_s), qPrintable(unpriced.err));
        QVERIFY(QJsonDocument::fromJson(unpriced.out.toUtf8()).object().value(u"cost_usd"_s).isNull());
    }

    // --reply-format json holds the teacher's reply to a JSON schema the provider enforces; files asks for none.
    void generate_replyFormat_jsonSendsTheSchema_filesDoesNot_otherIsBadUsage()
    {
        QTemporaryDir out;
        m_server.route("POST", "/v1/chat/completions",
                       ScriptedResponse::json(200, openAiReply(u"{\"name\": \"fused-rmsnorm\", \"description\": "
                                                               u"\"Writes fused RMSNorm kernels. Use when asked.\", "
                                                               u"\"body\": \"# Fused RMSNorm\", \"files\": []}"_s)));
        qsizetype before = m_server.requests().size();
        const Run json = run({u"generate"_s, u"--task"_s, u"t"_s, u"--teacher"_s, u"openai:teacher"_s, u"--out"_s,
                              out.filePath(u"json"_s), u"--reply-format"_s, u"json"_s},
                             out.path());
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        const QJsonObject sent = QJsonDocument::fromJson(m_server.requests().at(before).body).object();
        QCOMPARE(sent.value(u"response_format"_s).toObject().value(u"type"_s).toString(), u"json_schema"_s);
        QVERIFY(QFile::exists(out.filePath(u"json/fused-rmsnorm/SKILL.md"_s)));

        m_server.route("POST", "/v1/chat/completions", ScriptedResponse::json(200, openAiReply(kSkillReply)));
        before = m_server.requests().size();
        const Run files = run({u"generate"_s, u"--task"_s, u"t"_s, u"--teacher"_s, u"openai:teacher"_s, u"--out"_s,
                               out.filePath(u"files"_s), u"--reply-format"_s, u"files"_s},
                              out.path());
        QVERIFY2(files.exitCode == 0, qPrintable(files.err));
        QVERIFY(!QJsonDocument::fromJson(m_server.requests().at(before).body).object().contains(u"response_format"_s));

        const Run bogus = run({u"generate"_s, u"--task"_s, u"t"_s, u"--teacher"_s, u"openai:teacher"_s, u"--out"_s,
                               out.path(), u"--reply-format"_s, u"bogus"_s},
                              out.path());
        QCOMPARE(bogus.exitCode, 2);
        QVERIFY2(bogus.err.contains(u"--reply-format must be auto, files or json"_s), qPrintable(bogus.err));
    }

    void generate_teacherFails_exitsOneWithTheServersMessage()
    {
        QTemporaryDir out;
        m_server.route("POST", "/v1/chat/completions",
                       ScriptedResponse::json(401, R"({"error":{"message":"Incorrect API key provided"}})"));
        const Run r =
            run({u"generate"_s, u"--task"_s, u"t"_s, u"--teacher"_s, u"openai:teacher"_s, u"--out"_s, out.path()},
                out.path());
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(u"Incorrect API key provided"_s), qPrintable(r.err));
    }

    void testsGenerate_writesTheSuiteBesideTheOthersNeverOverAnother()
    {
        QTemporaryDir project;
        QFile file(project.filePath(u"skillforge.json"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format_version": 1, "name": "p"})");
        file.close();
        QVERIFY(QDir().mkpath(project.filePath(u"skills/fused-rmsnorm"_s)));
        QVERIFY(QDir().mkpath(project.filePath(u"tests"_s)));
        QFile skill(project.filePath(u"skills/fused-rmsnorm/SKILL.md"_s));
        QVERIFY(skill.open(QIODevice::WriteOnly));
        skill.write("---\nname: fused-rmsnorm\ndescription: d. Use when asked.\n---\nBody\n");
        skill.close();
        QFile existing(project.filePath(u"tests/fused-rmsnorm.json"_s));
        QVERIFY(existing.open(QIODevice::WriteOnly));
        existing.write("[]");
        existing.close();
        const QString cases = uR"({"cases": [{"input": "a", "expected": {"contains": ["x"]}},
            {"input": "b", "verifiers": [{"type": "regex", "pattern": "y"}]},
            {"input": "c", "verifiers": [{"type": "json_valid"}]}]})"_s;
        m_server.route("POST", "/v1/chat/completions", ScriptedResponse::json(200, openAiReply(cases)));

        const Run r = run({u"tests"_s, u"generate"_s, project.filePath(u"skills/fused-rmsnorm"_s), u"--model"_s,
                           u"openai:teacher"_s, u"--count"_s, u"3"_s},
                          project.path());
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString written = project.filePath(u"tests/fused-rmsnorm-2.json"_s);
        QCOMPARE(r.out.trimmed(), u"Wrote %1: 3 cases, 1 held out"_s.arg(written));
        QVERIFY(existing.open(QIODevice::ReadOnly));
        QCOMPARE(existing.readAll(), QByteArray("[]"));
        QFile suite(written);
        QVERIFY(suite.open(QIODevice::ReadOnly));
        QVERIFY(suite.readAll().contains("\"heldout\""));
    }

    void refine_stopsAtTheTargetLiftAndListsTheIterations()
    {
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath(u"skills/demo"_s)));
        QFile skill(dir.filePath(u"skills/demo/SKILL.md"_s));
        QVERIFY(skill.open(QIODevice::WriteOnly));
        skill.write("---\nname: demo\ndescription: The demo task. Use when asked.\n---\nSay OLD.\n");
        skill.close();
        QFile suite(dir.filePath(u"demo.json"_s));
        QVERIFY(suite.open(QIODevice::WriteOnly));
        suite.write(R"([{"id": "one", "input": "go", "expected": {"contains": ["PASS-TOKEN"]}},
                        {"id": "two", "input": "go again", "expected": {"contains": ["PASS-TOKEN"]}}])");
        suite.close();
        // The teacher writes a skill saying NEW; the student passes only when its prompt says NEW.
        m_server.routeHandler("POST", "/v1/chat/completions", [](const RecordedRequest &request) {
            if (QJsonDocument::fromJson(request.body).object().value(u"model"_s).toString() == u"teacher"_s) {
                return ScriptedResponse::json(200,
                                              openAiReply(u"=== FILE: SKILL.md ===\n---\nname: demo\ndescription: The "
                                                          "demo task. Use when asked.\n---\nSay NEW.\n"_s));
            }
            return ScriptedResponse::json(200,
                                          openAiReply(request.body.contains("Say NEW") ? u"PASS-TOKEN"_s : u"?"_s));
        });

        const Run r = run({u"refine"_s, dir.filePath(u"skills/demo"_s), u"--teacher"_s, u"openai:teacher"_s,
                           u"--student"_s, u"openai:student"_s, u"--tests"_s, dir.filePath(u"demo.json"_s),
                           u"--target-lift"_s, u"1"_s, u"--no-tools"_s, u"--out"_s, dir.filePath(u"runs"_s)},
                          dir.path());
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.startsWith(u"Stopped: target lift reached"_s), qPrintable(r.out));
        QVERIFY2(r.err.contains(u"iteration 1: lift 0.0 pp"_s), qPrintable(r.err));
        QVERIFY(r.err.contains(u"iteration 2: lift +100.0 pp"_s));
        // Which version the folder holds, and why (issue 35, item 2).
        QVERIFY2(r.out.contains(u"Kept iteration 2 (+100.0 pp on the training cases): the best measured of 2."_s),
                 qPrintable(r.out));
        QCOMPARE(QDir(dir.filePath(u"runs"_s)).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size(), 2);
    }

    // Issue 33: upskill's generate chains generate, tests, eval and refine; so does generate --refine, each step
    // under its own heading, the tests kept in the skill's evals/, the runs in the project's runs/.
    void generate_withRefine_chainsTestsEvalAndRefine()
    {
        QTemporaryDir project;
        QFile file(project.filePath(u"skillforge.json"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format_version": 1, "name": "p"})");
        file.close();
        // The teacher writes a skill saying OLD first, then (refining) one saying NEW; its tests want PASS-TOKEN,
        // which the student says only when its prompt says NEW.
        auto skillsWritten = std::make_shared<int>(0);
        m_server.routeHandler("POST", "/v1/chat/completions", [skillsWritten](const RecordedRequest &request) {
            if (QJsonDocument::fromJson(request.body).object().value(u"model"_s).toString() == u"teacher"_s) {
                if (request.body.contains("You write test cases that measure"))
                    return ScriptedResponse::json(
                        200, openAiReply(u"{\"cases\": [{\"input\": \"go\", \"expected\": {\"contains\": "
                                         u"[\"PASS-TOKEN\"]}}, {\"input\": \"go again\", \"expected\": "
                                         u"{\"contains\": [\"PASS-TOKEN\"]}}]}"_s));
                const QString says = (*skillsWritten)++ == 0 ? u"OLD"_s : u"NEW"_s;
                return ScriptedResponse::json(
                    200, openAiReply(u"=== FILE: SKILL.md ===\n---\nname: demo\ndescription: "
                                     u"The demo task. Use when asked.\n---\nSay %1.\n"_s.arg(says)));
            }
            return ScriptedResponse::json(200,
                                          openAiReply(request.body.contains("Say NEW") ? u"PASS-TOKEN"_s : u"?"_s));
        });

        const Run r = run({u"generate"_s, u"--task"_s, u"The demo task"_s, u"--teacher"_s, u"openai:teacher"_s,
                           u"--refine"_s, u"--student"_s, u"openai:student"_s},
                          project.path());
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(u"== Step 1 of 3: the skill"_s) &&
                     r.err.contains(u"== Step 2 of 3: tests and evaluation"_s) &&
                     r.err.contains(u"== Step 3 of 3: refine"_s),
                 qPrintable(r.err));
        const QString skill = project.filePath(u"skills/demo"_s);
        QVERIFY(QFile::exists(skill + u"/evals/evals.json"_s)); // the tests, kept with the skill
        QVERIFY2(r.err.contains(u"asking openai:teacher to write 6 test cases"_s), qPrintable(r.err));
        QVERIFY2(r.out.contains(u"iteration 2: lift +100.0 pp"_s) || r.err.contains(u"iteration 2: lift +100.0 pp"_s),
                 qPrintable(r.out + r.err));
        QFile refined(skill + u"/SKILL.md"_s);
        QVERIFY(refined.open(QIODevice::ReadOnly));
        QVERIFY(refined.readAll().contains("Say NEW"));
        QVERIFY(QDir(project.filePath(u"runs"_s)).entryList(QDir::Dirs | QDir::NoDotAndDotDot).size() >= 2);

        // No student: nothing to evaluate with, said before anything is asked of the teacher.
        const Run bad =
            run({u"generate"_s, u"--task"_s, u"t"_s, u"--teacher"_s, u"openai:teacher"_s, u"--eval"_s}, project.path());
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(u"--student"_s), qPrintable(bad.err));
    }

    // The chain stops at the first step that fails, says which, and keeps what the steps before it made.
    void generate_chain_stopsAtTheFailingStepAndKeepsWhatWasMade_data()
    {
        QTest::addColumn<QString>("failing"); // which model call fails: skill, tests, student or refine
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("lastHeading"); // the last step begun
        QTest::addColumn<QString>("stopped");     // what the chain says when it stops
        QTest::addColumn<bool>("skillKept");
        QTest::addColumn<bool>("testsKept");
        QTest::addColumn<bool>("runKept");
        QTest::newRow("step 1, the skill")
            << u"skill"_s << 1 << u"== Step 1 of 3"_s << u"Incorrect API key"_s << false << false << false;
        QTest::newRow("step 2, the tests")
            << u"tests"_s << 1 << u"== Step 2 of 3"_s
            << u"stopped after step 2, the evaluation (exit 1); the skill is kept"_s << true << false << false;
        QTest::newRow("step 2, the evaluation")
            << u"student"_s << 3 << u"== Step 2 of 3"_s
            << u"stopped after step 2, the evaluation (exit 3); the skill is kept"_s << true << true << true;
        QTest::newRow("step 3, refine") << u"refine"_s << 1 << u"== Step 3 of 3"_s
                                        << u"step 3, refine, ended with exit 1; the skill's versions are kept"_s << true
                                        << true << true;
    }

    void generate_chain_stopsAtTheFailingStepAndKeepsWhatWasMade()
    {
        QFETCH(QString, failing);
        QFETCH(int, exitCode);
        QFETCH(QString, lastHeading);
        QFETCH(QString, stopped);
        QFETCH(bool, skillKept);
        QFETCH(bool, testsKept);
        QFETCH(bool, runKept);
        QTemporaryDir project;
        QFile file(project.filePath(u"skillforge.json"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"format_version": 1, "name": "p"})");
        file.close();
        const ScriptedResponse refused =
            ScriptedResponse::json(401, R"({"error":{"message":"Incorrect API key provided"}})");
        auto skillsWritten = std::make_shared<int>(0);
        m_server.routeHandler("POST", "/v1/chat/completions", [=](const RecordedRequest &request) {
            if (QJsonDocument::fromJson(request.body).object().value(u"model"_s).toString() != u"teacher"_s)
                return failing == u"student"_s ? refused : ScriptedResponse::json(200, openAiReply(u"?"_s));
            if (request.body.contains("You write test cases that measure")) {
                if (failing == u"tests"_s)
                    return refused;
                return ScriptedResponse::json(
                    200, openAiReply(u"{\"cases\": [{\"input\": \"go\", \"expected\": {\"contains\": "
                                     u"[\"PASS-TOKEN\"]}}]}"_s));
            }
            if ((*skillsWritten)++ == 0 ? failing == u"skill"_s : failing == u"refine"_s)
                return refused;
            return ScriptedResponse::json(200, openAiReply(u"=== FILE: SKILL.md ===\n---\nname: demo\ndescription: "
                                                           u"The demo task. Use when asked.\n---\nSay OLD.\n"_s));
        });

        const Run r = run({u"generate"_s, u"--task"_s, u"The demo task"_s, u"--teacher"_s, u"openai:teacher"_s,
                           u"--refine"_s, u"--student"_s, u"openai:student"_s},
                          project.path());
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(lastHeading), qPrintable(r.err));
        const QStringList headings{u"== Step 1 of 3"_s, u"== Step 2 of 3"_s, u"== Step 3 of 3"_s};
        for (qsizetype i = headings.indexOf(lastHeading) + 1; i < headings.size(); ++i)
            QVERIFY2(!r.err.contains(headings[i]),
                     qPrintable(u"went on to %1 after a failure:\n%2"_s.arg(headings[i], r.err)));
        QVERIFY2(r.err.contains(stopped), qPrintable(r.err));
        const QString skill = project.filePath(u"skills/demo"_s);
        QCOMPARE(QFile::exists(skill + u"/SKILL.md"_s), skillKept);
        QCOMPARE(QFile::exists(skill + u"/evals/evals.json"_s), testsKept);
        QCOMPARE(!QDir(project.filePath(u"runs"_s)).entryList(QDir::Dirs | QDir::NoDotAndDotDot).isEmpty(), runKept);
        if (failing == u"refine"_s) { // the evaluated version is what the folder still holds
            QFile kept(skill + u"/SKILL.md"_s);
            QVERIFY(kept.open(QIODevice::ReadOnly));
            QVERIFY(kept.readAll().contains("Say OLD"));
        }
    }

    void generate_badUsage_exitsTwoAndSaysWhy()
    {
        QTemporaryDir empty;
        const Run noTeacher = run({u"generate"_s, u"--task"_s, u"t"_s}, empty.path());
        QCOMPARE(noTeacher.exitCode, 2);
        QVERIFY(noTeacher.err.contains(u"--teacher"_s));
        const Run noProject = run({u"generate"_s, u"--task"_s, u"t"_s, u"--teacher"_s, u"openai:x"_s}, empty.path());
        QCOMPARE(noProject.exitCode, 2);
        QVERIFY(noProject.err.contains(u"--out"_s));
        const Run notSkill =
            run({u"generate"_s, u"--from"_s, empty.path(), u"--teacher"_s, u"openai:x"_s}, empty.path());
        QCOMPARE(notSkill.exitCode, 2);
        QVERIFY(notSkill.err.contains(u"no SKILL.md"_s));
    }
};

SF_TEST_GUILESS_MAIN(TestCliGenerate)
#include "test_cli_generate.moc"
