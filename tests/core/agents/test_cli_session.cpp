// What the agent CLIs leave behind, read back: their printed results, their session files found in their homes, the
// skill's activation in those sessions, and totals that agree between the two. The fixtures are what Claude Code
// 2.1.332 and Codex 0.163.0 wrote against ScriptedAgentEndpoints (tests/fixtures/agents/README.md); the last two
// tests run those binaries themselves (skipped when SKILLFORGE_CLAUDE_CODE_CLI / SKILLFORGE_CODEX_CLI is not set).
#include "ScriptedAgentEndpoints.h"
#include "SkippedChecks.h"
#include "TestFiles.h"
#include "agents/AgentCli.h"
#include "agents/CliSession.h"
#include "agents/Harness.h"
#include "trace/TraceImport.h"

#include <QDateTime>
#include <QDir>
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
#include <QUuid>

using namespace Qt::StringLiterals;
using namespace sf;

namespace {

const QString kSkill = u"csv-tidy"_s;
const QString kClaudeSession = u"a56ff5a9-f558-486e-937c-3d8b892baae9"_s;
const QString kCodexThread = u"01a2419e-a82b-7af1-8421-4a78ed042d42"_s;

QString fixture(const QString &relative)
{
    return QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/agents/") + relative;
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString claudeCodeHome(const QString &arm)
{
    return fixture(u"claude-code-%1/home/.claude"_s.arg(arm));
}

QString codexHome(const QString &arm)
{
    return fixture(u"codex-%1/home/.codex"_s.arg(arm));
}

QByteArray jsonLine(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact) + '\n';
}

bool writeFile(const QString &path, const QByteArray &bytes, const QDateTime &modified)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.flush())
        return false; // flushed first: a write at close would move the time set here
    return file.setFileTime(modified, QFileDevice::FileModificationTime);
}

/// A trace written by hand, for what the real sessions do not show: steps in turns of threads.
class TraceBuilder
{
public:
    TraceBuilder() { trace.threads.emplace_back(); }

    int subagent(int parentStep)
    {
        TraceThread thread;
        thread.parentThread = 0;
        thread.parentStep = parentStep;
        trace.threads.push_back(std::move(thread));
        return int(trace.threads.size()) - 1;
    }
    void turn(const QString &role, int thread = 0)
    {
        TraceThread &t = trace.threads[size_t(thread)];
        TraceTurn turn;
        turn.role = role;
        turn.firstStep = int(t.steps.size());
        t.turns.push_back(turn);
    }
    int text(StepKind kind, const QString &text, int thread = 0)
    {
        TraceStep step;
        step.kind = kind;
        step.text = trace.store(text);
        return add(step, thread);
    }
    int call(const QString &tool, const QJsonObject &input, int thread = 0)
    {
        TraceStep step;
        step.kind = StepKind::ToolCall;
        step.toolName = trace.store(tool);
        step.input = trace.store(QString::fromUtf8(QJsonDocument(input).toJson(QJsonDocument::Compact)));
        return add(step, thread);
    }
    void result(int callStep, bool isError, int thread = 0)
    {
        TraceStep step;
        step.kind = StepKind::ToolResult;
        step.isError = isError;
        step.paired = callStep;
        const int at = add(step, thread);
        trace.threads[size_t(thread)].steps[size_t(callStep)].paired = at;
    }

    Trace trace;

private:
    int add(TraceStep step, int thread)
    {
        TraceThread &t = trace.threads[size_t(thread)];
        step.turn = int(t.turns.size()) - 1;
        t.steps.push_back(step);
        ++t.turns.back().stepCount;
        return int(t.steps.size()) - 1;
    }
};

/// The events of a streamed reply: each one's name and data.
QList<QPair<QByteArray, QJsonObject>> events(const test::ScriptedResponse &response)
{
    QList<QPair<QByteArray, QJsonObject>> result;
    for (const QByteArray &chunk : response.chunks) {
        const QList<QByteArray> lines = chunk.trimmed().split('\n');
        result.append({lines.value(0).mid(7), QJsonDocument::fromJson(lines.value(1).mid(6)).object()});
    }
    return result;
}

QList<QByteArray> names(const QList<QPair<QByteArray, QJsonObject>> &events)
{
    QList<QByteArray> result;
    for (const auto &[name, data] : events)
        result << name;
    return result;
}

test::RecordedRequest post(const QByteArray &path, const QJsonObject &body)
{
    test::RecordedRequest request;
    request.method = "POST";
    request.path = request.target = path;
    request.body = QJsonDocument(body).toJson(QJsonDocument::Compact);
    return request;
}

/// The CLI at the path in @p variable, or "" with the reason the test is skipped.
QString cliFromEnvironment(const char *variable, QByteArray *why)
{
    const QString path = qEnvironmentVariable(variable);
    if (path.isEmpty()) {
        *why = QByteArray(variable) + " is not set: run scripts/setup-agent-clis and export what it prints";
        return {};
    }
    if (!QFileInfo(path).isExecutable()) {
        *why = QByteArray(variable) + "=" + path.toUtf8() + " is not an executable file";
        return {};
    }
    return path;
}

/// One arm of one item run by the real CLI, outside any sandbox, against the scripted endpoints.
struct LiveRun
{
    QString workspace;
    CliRunOutput output;
    QString sessionFile;
    SkillActivation activation;
    TokenUsage sessionUsage;
};

} // namespace

class TestCliSession final : public QObject
{
    Q_OBJECT

private:
    Trace load(const QString &path)
    {
        Result<Trace> result = importTrace(path);
        if (!result) // the tests index into the trace, so stop here with the reason
            qFatal("%s", qPrintable(result.error));
        return std::move(*result.value);
    }

    /// Runs @p harness's CLI at @p binary once with the policy's prompt, in a fresh workspace and home under @p root,
    /// the fixture skill installed when @p withSkill, with the command line and environment its AgentCli gives it.
    bool runLive(const QString &harness, const QString &binary, const QString &model, bool withSkill,
                 const QString &root, const QUrl &endpoint, LiveRun *run)
    {
        const std::unique_ptr<AgentCli> cli = AgentCli::forHarness(harness);
        CliItemSpec spec;
        spec.binary = {harness, binary, {}, u"test"_s};
        spec.model = model;
        spec.prompt = u"Please tidy data.csv."_s;
        spec.workspace = QDir(root).filePath(withSkill ? u"with-skill/workspace"_s : u"baseline/workspace"_s);
        spec.home = QDir(root).filePath(withSkill ? u"with-skill/home"_s : u"baseline/home"_s);
        spec.skillName = kSkill;
        spec.sessionId = QUuid::createUuid().toString(QUuid::WithoutBraces);
        QStringList folders = cli->homeFolders(spec);
        folders << spec.workspace;
        for (const QString &folder : std::as_const(folders))
            QDir().mkpath(folder);
        if (withSkill) {
            spec.skillDir = fixture(u"skill/csv-tidy"_s);
            if (!test::copyTree(spec.skillDir, QDir(spec.workspace).filePath(cli->projectSkillFolder(kSkill))))
                return false;
        }
        writeFile(QDir(spec.workspace).filePath(u"data.csv"_s), "Name , Value \n a ,1\n", QDateTime::currentDateTime());
        run->workspace = QFileInfo(spec.workspace).canonicalFilePath();

        QProcess process;
        process.setProgram(binary);
        const QString url = endpoint.toString();
        process.setArguments(cli->arguments(spec, url));
        process.setProcessEnvironment(cli->environment(spec, url));
        process.setWorkingDirectory(spec.workspace);
        QSignalSpy finished(&process, &QProcess::finished);
        process.start();
        process.write(spec.prompt.toUtf8());
        process.closeWriteChannel();
        // The scripted endpoints answer in this thread's event loop, so wait by spinning it.
        if (!finished.wait(120000)) {
            process.kill();
            qWarning("%s did not finish: %s", qPrintable(harness), process.readAllStandardError().constData());
            return false;
        }
        const QByteArray stdOut = process.readAllStandardOutput();
        if (process.exitCode() != 0)
            qWarning("%s exited %d: %s", qPrintable(harness), process.exitCode(),
                     process.readAllStandardError().right(2000).constData());
        const Result<CliRunOutput> output = cli->readOutput(stdOut);
        if (!output) {
            qWarning("%s", qPrintable(output.error));
            return false;
        }
        run->output = *output.value;
        run->sessionFile = cli->sessionFile(spec);
        if (run->sessionFile.isEmpty())
            return false;
        const Trace trace = load(run->sessionFile);
        run->activation = detectSkillActivation(trace, harness, kSkill);
        run->sessionUsage = trace.totalUsage();
        return true;
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    // What the CLIs printed.

    void claudeCodeResult_answerUsageCostTurnsAndSession()
    {
        const Result<CliRunOutput> result =
            parseClaudeCodeResult(readAll(fixture(u"claude-code-with-skill/stdout.json"_s)));
        QVERIFY2(result, qPrintable(result.error));
        const CliRunOutput &output = *result.value;
        QCOMPARE(output.finalText, u"ANSWER-WITH-SKILL"_s);
        QVERIFY(!output.isError);
        QCOMPARE(output.sessionId, kClaudeSession);
        QCOMPARE(output.turns, 5); // four model calls; Claude Code counts the skill's expansion as a turn of its own
        QCOMPARE(output.usage.uncachedInput, 22132);
        QCOMPARE(output.usage.cacheRead, 44260);
        QCOMPARE(output.usage.cacheWrite5m, 22129);
        QCOMPARE(output.usage.output, 4 * test::ScriptedAgentEndpoints::kOutputTokens);
        QVERIFY(output.costUsd);
        QVERIFY(qFuzzyCompare(*output.costUsd, 0.16307775000000002));
    }

    void claudeCodeResult_errorResult_givesItsMessage()
    {
        // As Claude Code 2.1.332 printed it when a stream lost its content_block_stop (shortened).
        const QByteArray printed =
            jsonLine({{"type"_L1, "result"_L1},
                      {"subtype"_L1, "success"_L1},
                      {"is_error"_L1, true},
                      {"num_turns"_L1, 3},
                      {"session_id"_L1, "s1"_L1},
                      {"result"_L1, "The model's tool call could not be parsed (retry also failed)."_L1},
                      {"total_cost_usd"_L1, 0.19},
                      {"usage"_L1, QJsonObject{{"input_tokens"_L1, 65759}, {"output_tokens"_L1, 21}}}});
        const Result<CliRunOutput> result = parseClaudeCodeResult("warning: something on stdout\n" + printed);
        QVERIFY2(result, qPrintable(result.error));
        QVERIFY(result.value->isError);
        QCOMPARE(result.value->errorText, u"The model's tool call could not be parsed (retry also failed)."_s);
        QVERIFY(result.value->finalText.isEmpty());
        QCOMPARE(result.value->usage.uncachedInput, 65759);

        const Result<CliRunOutput> maxTurns =
            parseClaudeCodeResult(jsonLine({{"type"_L1, "result"_L1},
                                            {"subtype"_L1, "error_max_turns"_L1},
                                            {"is_error"_L1, false},
                                            {"errors"_L1, QJsonArray{u"Reached maximum number of turns (2)"_s}}}));
        QVERIFY(maxTurns && maxTurns.value->isError);
        QCOMPARE(maxTurns.value->errorText, u"Reached maximum number of turns (2)"_s);
    }

    void claudeCodeResult_notAResult_failsShowingWhatWasPrinted()
    {
        const Result<CliRunOutput> result = parseClaudeCodeResult("Error: Invalid API key\n");
        QVERIFY(!result);
        QVERIFY2(result.error.contains(u"Invalid API key"_s), qPrintable(result.error));
        QVERIFY(!parseClaudeCodeResult({}));
    }

    void codexExecJson_answerUsageAndThread_warningItemsAreNoError()
    {
        const Result<CliRunOutput> result = parseCodexExecJson(readAll(fixture(u"codex-with-skill/stdout.jsonl"_s)));
        QVERIFY2(result, qPrintable(result.error));
        const CliRunOutput &output = *result.value;
        QCOMPARE(output.finalText, u"ANSWER-WITH-SKILL"_s);
        QVERIFY(!output.isError); // the "Model metadata ... not found" item is a warning
        QCOMPARE(output.sessionId, kCodexThread);
        QCOMPARE(output.turns, 1);
        QCOMPARE(output.usage.totalInput(), 40597);
        QCOMPARE(output.usage.cacheRead, 20298);
        QCOMPARE(output.usage.uncachedInput, 40597 - 20298);
        QCOMPARE(output.usage.output, 4 * test::ScriptedAgentEndpoints::kOutputTokens);
        QVERIFY(!output.costUsd);
    }

    void codexExecJson_failedTurn_isAnErrorWithItsMessage()
    {
        // As Codex 0.163.0 printed it when the endpoint never sent response.completed (shortened).
        const QString lost = u"stream disconnected before completion: stream closed before response.completed"_s;
        const QByteArray printed =
            jsonLine({{"type"_L1, "thread.started"_L1}, {"thread_id"_L1, "t1"_L1}}) +
            jsonLine({{"type"_L1, "turn.started"_L1}}) +
            jsonLine({{"type"_L1, "error"_L1}, {"message"_L1, QString(u"Reconnecting... 1/5 ("_s + lost + u')')}}) +
            jsonLine({{"type"_L1, "item.completed"_L1},
                      {"item"_L1, QJsonObject{{"type"_L1, "agent_message"_L1}, {"text"_L1, "half an answer"_L1}}}}) +
            jsonLine({{"type"_L1, "error"_L1}, {"message"_L1, lost}}) +
            jsonLine({{"type"_L1, "turn.failed"_L1}, {"error"_L1, QJsonObject{{"message"_L1, lost}}}});
        const Result<CliRunOutput> result = parseCodexExecJson(printed);
        QVERIFY2(result, qPrintable(result.error));
        QVERIFY(result.value->isError);
        QCOMPARE(result.value->errorText, lost);

        // A retry that then succeeded is no error.
        const Result<CliRunOutput> retried = parseCodexExecJson(
            jsonLine({{"type"_L1, "turn.started"_L1}}) +
            jsonLine({{"type"_L1, "error"_L1}, {"message"_L1, "Reconnecting... 1/5"_L1}}) +
            jsonLine({{"type"_L1, "turn.completed"_L1},
                      {"usage"_L1,
                       QJsonObject{{"input_tokens"_L1, 10}, {"cached_input_tokens"_L1, 4}, {"output_tokens"_L1, 3}}}}));
        QVERIFY(retried && !retried.value->isError);
        QCOMPARE(retried.value->usage.uncachedInput, 6);
        QVERIFY(!parseCodexExecJson("codex: command not found\n"));
    }

    // Where the CLIs left their session files.

    void findClaudeCodeSession_theNamedSessionElseTheNewestNeverASubagent()
    {
        QTemporaryDir dir;
        const QString config = dir.path();
        const QDateTime now = QDateTime::currentDateTime();
        QVERIFY(writeFile(config + "/projects/-work-a/old.jsonl"_L1, "{}\n", now.addSecs(-300)));
        QVERIFY(writeFile(config + "/projects/-work-b/named.jsonl"_L1, "{}\n", now.addSecs(-600)));
        QVERIFY(writeFile(config + "/projects/-work-b/newer.jsonl"_L1, "{}\n", now.addSecs(-60)));
        QVERIFY(writeFile(config + "/projects/-work-b/newer/subagents/agent-1.jsonl"_L1, "{}\n", now));
        QCOMPARE(findClaudeCodeSession(config, u"named"_s), config + "/projects/-work-b/named.jsonl"_L1);
        QCOMPARE(findClaudeCodeSession(config, u"unknown"_s), config + "/projects/-work-b/newer.jsonl"_L1);
        QCOMPARE(findClaudeCodeSession(config, {}), config + "/projects/-work-b/newer.jsonl"_L1);
        QCOMPARE(findClaudeCodeSession(dir.filePath(u"absent"_s), u"named"_s), QString());

        const QString real = findClaudeCodeSession(claudeCodeHome(u"with-skill"_s), kClaudeSession);
        QVERIFY(real.endsWith(u"-tmp-skillforge-fixture-claude-code-with-skill-workspace/"_s + kClaudeSession +
                              ".jsonl"_L1));
    }

    void findCodexRollout_theNewestUnderSessions()
    {
        QTemporaryDir dir;
        const QDateTime now = QDateTime::currentDateTime();
        QVERIFY(writeFile(dir.path() + "/sessions/2026/12/03/rollout-2026-12-03T10-00-00-a.jsonl"_L1, "{}\n",
                          now.addSecs(-86400)));
        QVERIFY(writeFile(dir.path() + "/sessions/2026/12/04/rollout-2026-12-04T10-00-00-b.jsonl"_L1, "{}\n",
                          now.addSecs(-60)));
        QVERIFY(writeFile(dir.path() + "/sessions/2026/12/04/notes.jsonl"_L1, "{}\n", now));
        QVERIFY(writeFile(dir.path() + "/rollout-elsewhere.jsonl"_L1, "{}\n", now));
        QCOMPARE(findCodexRollout(dir.path()),
                 dir.path() + "/sessions/2026/12/04/rollout-2026-12-04T10-00-00-b.jsonl"_L1);
        QCOMPARE(findCodexRollout(dir.filePath(u"absent"_s)), QString());

        QVERIFY(findCodexRollout(codexHome(u"with-skill"_s)).endsWith(kCodexThread + ".jsonl"_L1));
    }

    // Whether the skill was loaded.

    void claudeCodeSession_withSkill_loadedByTheSkillToolAtTheFirstTurn()
    {
        const Trace trace = load(findClaudeCodeSession(claudeCodeHome(u"with-skill"_s), kClaudeSession));
        const SkillActivation activation = detectSkillActivation(trace, Harness::ClaudeCode, kSkill);
        QVERIFY(activation.loaded);
        QCOMPARE(activation.atTurn, 1);
        QCOMPARE(activation.how, u"Skill tool"_s);
        QCOMPARE(activation.filesRead, (QStringList{u"SKILL.md"_s, u"reference/rules.md"_s}));
    }

    void codexRollout_withSkill_loadedByReadingSkillMdAtTheFirstTurn()
    {
        const Trace trace = load(findCodexRollout(codexHome(u"with-skill"_s)));
        const SkillActivation activation = detectSkillActivation(trace, Harness::Codex, kSkill);
        QVERIFY(activation.loaded);
        QCOMPARE(activation.atTurn, 1);
        QCOMPARE(activation.how, u"read SKILL.md"_s);
        QCOMPARE(activation.filesRead, (QStringList{u"SKILL.md"_s, u"reference/rules.md"_s}));
    }

    void baselineSessions_notLoaded()
    {
        const Trace claude = load(findClaudeCodeSession(claudeCodeHome(u"baseline"_s), {}));
        QCOMPARE(detectSkillActivation(claude, Harness::ClaudeCode, kSkill).loaded, false);
        QVERIFY(detectSkillActivation(claude, Harness::ClaudeCode, kSkill).filesRead.isEmpty());
        const Trace codex = load(findCodexRollout(codexHome(u"baseline"_s)));
        QCOMPARE(detectSkillActivation(codex, Harness::Codex, kSkill).loaded, false);
        QVERIFY(detectSkillActivation(codex, Harness::Codex, kSkill).filesRead.isEmpty());
    }

    void skillOnlyListed_isNoLoad()
    {
        // Both real sessions list the CLI's bundled skills; none of them was loaded.
        const Trace claude = load(findClaudeCodeSession(claudeCodeHome(u"with-skill"_s), kClaudeSession));
        QCOMPARE(detectSkillActivation(claude, Harness::ClaudeCode, u"dataviz"_s).loaded, false);
        const Trace codex = load(findCodexRollout(codexHome(u"with-skill"_s)));
        QCOMPARE(detectSkillActivation(codex, Harness::Codex, u"skill-creator"_s).loaded, false);

        TraceBuilder session;
        session.turn(u"user"_s);
        session.text(StepKind::UserText, u"The following skills are available for use with the Skill tool:\n\n"
                                         "- csv-tidy: Tidy CSV files (.claude/skills/csv-tidy/SKILL.md)\n\nTidy it."_s);
        session.turn(u"assistant"_s);
        session.text(StepKind::AssistantText, u"I could use csv-tidy here, but I will not."_s);
        QCOMPARE(detectSkillActivation(session.trace, Harness::ClaudeCode, kSkill).loaded, false);
        QCOMPARE(detectSkillActivation(session.trace, Harness::Codex, kSkill).loaded, false);
    }

    void anotherSkillsFiles_areNotThisSkillsLoad()
    {
        TraceBuilder session;
        session.turn(u"assistant"_s);
        session.result(session.call(u"Read"_s, {{"file_path"_L1, "/w/.claude/skills/csv-tidy-extra/SKILL.md"_L1}}),
                       false);
        session.turn(u"assistant"_s);
        session.result(session.call(u"Read"_s, {{"file_path"_L1, "/w/.claude/skills/other/SKILL.md"_L1}}), false);
        session.turn(u"assistant"_s);
        session.result(session.call(u"Skill"_s, {{"skill"_L1, "other"_L1}}), false);
        session.turn(u"assistant"_s); // a Write into the folder is not a read
        session.result(session.call(u"Write"_s, {{"file_path"_L1, "/w/.claude/skills/csv-tidy/SKILL.md"_L1}}), false);
        const SkillActivation none = detectSkillActivation(session.trace, Harness::ClaudeCode, kSkill);
        QVERIFY(!none.loaded);
        QVERIFY(none.filesRead.isEmpty());

        // Reading this skill's SKILL.md by hand is a load, at the turn it happened.
        session.turn(u"assistant"_s);
        session.result(session.call(u"Bash"_s, {{"command"_L1, "head -50 .claude/skills/csv-tidy/SKILL.md"_L1}}),
                       false);
        const SkillActivation read = detectSkillActivation(session.trace, Harness::ClaudeCode, kSkill);
        QVERIFY(read.loaded);
        QCOMPARE(read.atTurn, 5);
        QCOMPARE(read.how, u"read SKILL.md"_s);
        QCOMPARE(read.filesRead, QStringList{u"SKILL.md"_s});
    }

    void failedCalls_readNothing()
    {
        TraceBuilder session;
        session.turn(u"assistant"_s);
        session.result(session.call(u"Skill"_s, {{"skill"_L1, "csv-tidy"_L1}}), true); // "Unknown skill"
        session.turn(u"assistant"_s);
        session.result(session.call(u"exec_command"_s, {{"cmd"_L1, "cat .agents/skills/csv-tidy/SKILL.md"_L1}}), true);
        QVERIFY(!detectSkillActivation(session.trace, Harness::ClaudeCode, kSkill).loaded);
        QVERIFY(!detectSkillActivation(session.trace, Harness::Codex, kSkill).loaded);
    }

    void codexShellForms_andOlderSkillInput_allCount()
    {
        TraceBuilder session;
        session.turn(u"assistant"_s);
        session.call(u"shell"_s,
                     {{"command"_L1,
                       QJsonArray{u"bash"_s, u"-lc"_s, u"sed -n 1,80p /w/.agents/skills/csv-tidy/scripts/tidy.py"_s}}});
        session.turn(u"assistant"_s);
        session.call(u"shell_command"_s, {{"command"_L1, "cat \"/w/.agents/skills/csv-tidy/SKILL.md\" | head"_L1}});
        const SkillActivation codex = detectSkillActivation(session.trace, Harness::Codex, kSkill);
        QVERIFY(codex.loaded);
        QCOMPARE(codex.atTurn, 2);
        QCOMPARE(codex.filesRead, (QStringList{u"SKILL.md"_s, u"scripts/tidy.py"_s}));

        TraceBuilder patch; // Codex's apply_patch writes what it names
        patch.turn(u"assistant"_s);
        patch.call(u"apply_patch"_s,
                   {{"input"_L1, "*** Begin Patch\n*** Update File: .agents/skills/csv-tidy/SKILL.md\n"_L1}});
        QVERIFY(!detectSkillActivation(patch.trace, Harness::Codex, kSkill).loaded);

        TraceBuilder older; // Claude Code before 2.1 named the skill "command"
        older.turn(u"assistant"_s);
        older.call(u"Skill"_s, {{"command"_L1, "/csv-tidy"_L1}});
        QVERIFY(detectSkillActivation(older.trace, Harness::ClaudeCode, kSkill).loaded);
        QVERIFY(!detectSkillActivation(older.trace, Harness::Builtin, kSkill).loaded);
    }

    void subagentLoad_countsAtTheTurnThatStartedTheSubagent()
    {
        TraceBuilder session;
        session.turn(u"user"_s);
        session.text(StepKind::UserText, u"Tidy it."_s);
        session.turn(u"assistant"_s);
        session.text(StepKind::AssistantText, u"Looking."_s);
        session.turn(u"assistant"_s);
        const int task = session.call(u"Agent"_s, {{"prompt"_L1, "tidy the CSV"_L1}});
        const int child = session.subagent(task);
        session.turn(u"assistant"_s, child);
        session.call(u"Skill"_s, {{"skill"_L1, "csv-tidy"_L1}}, child);
        const SkillActivation activation = detectSkillActivation(session.trace, Harness::ClaudeCode, kSkill);
        QVERIFY(activation.loaded);
        QCOMPARE(activation.atTurn, 2);
    }

    // The scripted endpoints on their own, as the CLIs' requests look.

    void scriptedMessages_listedAndAsked_loadsWritesThenAnswersAsAnthropicStreams()
    {
        test::AgentPolicy policy;
        policy.skillName = kSkill;
        policy.keywords = {u"tidy"_s};
        policy.writeFile = u"tidy.csv"_s;
        policy.writeContent = u"a\n"_s;
        test::ScriptedAgentEndpoints endpoints(policy);
        const QJsonArray tools{QJsonObject{{"name"_L1, "Skill"_L1},
                                           {"input_schema"_L1, QJsonObject{{"required"_L1, QJsonArray{u"skill"_s}}}}},
                               QJsonObject{{"name"_L1, "Write"_L1}}};
        QJsonArray messages{QJsonObject{
            {"role"_L1, "user"_L1},
            {"content"_L1,
             QJsonArray{
                 QJsonObject{{"type"_L1, "text"_L1},
                             {"text"_L1, "<system-reminder>\n - Primary working directory: /w\n</system-reminder>"_L1}},
                 QJsonObject{{"type"_L1, "text"_L1},
                             {"text"_L1, "<system-reminder>\nThe following skills are available for use with the "
                                         "Skill tool:\n\n- dataviz: Charts.\n- csv-tidy: Tidy CSV files.\n"
                                         "</system-reminder>"_L1}},
                 QJsonObject{{"type"_L1, "text"_L1}, {"text"_L1, "Please tidy data.csv."_L1}}}}}};
        QJsonObject body{{"model"_L1, "m"_L1}, {"tools"_L1, tools}, {"messages"_L1, messages}};

        const test::ScriptedResponse load = endpoints.answerMessages(post("/v1/messages", body));
        const QJsonObject loadReply = QJsonDocument::fromJson(load.body).object();
        QCOMPARE(loadReply["stop_reason"_L1].toString(), u"tool_use"_s);
        const QJsonObject skillCall = loadReply["content"_L1][0].toObject();
        QCOMPARE(skillCall["name"_L1].toString(), u"Skill"_s);
        QCOMPARE(skillCall["input"_L1].toObject(), (QJsonObject{{"skill"_L1, "csv-tidy"_L1}}));
        const qint64 bytes = post("/v1/messages", body).body.size();
        QCOMPARE(loadReply["usage"_L1]["cache_read_input_tokens"_L1].toInteger(), bytes / 4 / 2);

        auto answerCall = [&messages](const QJsonObject &call) {
            messages << QJsonObject{{"role"_L1, "assistant"_L1}, {"content"_L1, QJsonArray{call}}}
                     << QJsonObject{{"role"_L1, "user"_L1},
                                    {"content"_L1, QJsonArray{QJsonObject{{"type"_L1, "tool_result"_L1},
                                                                          {"tool_use_id"_L1, call["id"_L1]},
                                                                          {"content"_L1, "done"_L1}}}}};
        };
        answerCall(skillCall);
        body["messages"_L1] = messages;
        const QJsonObject writeCall = QJsonDocument::fromJson(endpoints.answerMessages(post("/v1/messages", body)).body)
                                          .object()["content"_L1][0]
                                          .toObject();
        QCOMPARE(writeCall["name"_L1].toString(), u"Write"_s);
        QCOMPARE(writeCall["input"_L1]["file_path"_L1].toString(), u"/w/tidy.csv"_s);

        answerCall(writeCall);
        body["messages"_L1] = messages;
        body["stream"_L1] = true;
        const auto answer = events(endpoints.answerMessages(post("/v1/messages", body)));
        QCOMPARE(names(answer), (QList<QByteArray>{"message_start", "content_block_start", "content_block_delta",
                                                   "content_block_stop", "message_delta", "message_stop"}));
        QCOMPARE(answer[2].second["delta"_L1]["text"_L1].toString(), policy.answerWithSkill);
        QCOMPARE(answer[4].second["delta"_L1]["stop_reason"_L1].toString(), u"end_turn"_s);
        QCOMPARE(answer[4].second["usage"_L1]["output_tokens"_L1].toInteger(),
                 test::ScriptedAgentEndpoints::kOutputTokens);

        // A request without tools is a side request (a title, a check): a short answer.
        const QJsonObject side =
            QJsonDocument::fromJson(endpoints.answerMessages(post("/v1/messages", {{"messages"_L1, messages}})).body)
                .object();
        QCOMPARE(side["content"_L1][0]["text"_L1].toString(), u"OK"_s);
        QCOMPARE(endpoints.mainRequests(u"/w"_s), 3);
        QCOMPARE(endpoints.requestsOfferingSkill(u"/w"_s), 3);
    }

    void scriptedResponses_listedAndAsked_readsSkillMdThenAnswersAsCodexNeeds()
    {
        test::AgentPolicy policy;
        policy.skillName = kSkill;
        policy.keywords = {u"TIDY"_s}; // in any case
        test::ScriptedAgentEndpoints endpoints(policy);
        auto message = [](const QString &role, const QString &text) {
            return QJsonObject{
                {"type"_L1, "message"_L1},
                {"role"_L1, role},
                {"content"_L1, QJsonArray{QJsonObject{{"type"_L1, "input_text"_L1}, {"text"_L1, text}}}}};
        };
        QJsonArray input{message(u"developer"_s,
                                 u"<skills_instructions>\n### Skill roots\n- `r1` = `/w/.agents/skills`\n"
                                 "### Available skills\n- csv-tidy: Tidy CSV files. (file: r1/csv-tidy/SKILL.md)\n"
                                 "</skills_instructions>"_s),
                         message(u"user"_s, u"<environment_context>\n  <cwd>/w</cwd>\n</environment_context>"_s),
                         message(u"user"_s, u"Please tidy data.csv."_s)};
        QJsonObject body{
            {"model"_L1, "gpt-5"_L1},
            {"stream"_L1, true},
            {"tools"_L1, QJsonArray{QJsonObject{{"type"_L1, "function"_L1}, {"name"_L1, "exec_command"_L1}}}},
            {"input"_L1, input}};

        const auto load = events(endpoints.answerResponses(post("/v1/responses", body)));
        QCOMPARE(names(load),
                 (QList<QByteArray>{"response.created", "response.in_progress", "response.output_item.added",
                                    "response.function_call_arguments.delta", "response.function_call_arguments.done",
                                    "response.output_item.done", "response.completed"}));
        const QJsonObject call = load[5].second["item"_L1].toObject();
        QCOMPARE(call["name"_L1].toString(), u"exec_command"_s);
        QCOMPARE(QJsonDocument::fromJson(call["arguments"_L1].toString().toUtf8()).object(),
                 (QJsonObject{{"cmd"_L1, "cat '/w/.agents/skills/csv-tidy/SKILL.md'"_L1}}));
        const qint64 input_tokens = post("/v1/responses", body).body.size() / 4;
        QCOMPARE(load[6].second["response"_L1]["usage"_L1]["input_tokens"_L1].toInteger(), input_tokens);

        input << call
              << QJsonObject{{"type"_L1, "function_call_output"_L1},
                             {"call_id"_L1, call["call_id"_L1]},
                             {"output"_L1, "..."_L1}};
        body["input"_L1] = input;
        const auto answer = events(endpoints.answerResponses(post("/v1/responses", body)));
        QCOMPARE(answer[3].first, QByteArray("response.content_part.added"));
        QCOMPARE(answer[4].second["delta"_L1].toString(), policy.answerWithSkill);
        QCOMPARE(answer.last().first, QByteArray("response.completed"));
        QCOMPARE(endpoints.requestsOfferingSkill(u"/w"_s), 2);
    }

    // Totals: the session file against what the CLI printed.

    void claudeCodeSession_totalsAgreeWithThePrintedResult()
    {
        for (const QString &arm : {u"with-skill"_s, u"baseline"_s}) {
            const Result<CliRunOutput> printed =
                parseClaudeCodeResult(readAll(fixture(u"claude-code-%1/stdout.json"_s.arg(arm))));
            QVERIFY2(printed, qPrintable(printed.error));
            const Trace trace = load(findClaudeCodeSession(claudeCodeHome(arm), printed.value->sessionId));
            const TokenUsage session = trace.totalUsage();
            QCOMPARE(session.uncachedInput, printed.value->usage.uncachedInput);
            QCOMPARE(session.cacheRead, printed.value->usage.cacheRead);
            QCOMPARE(session.cacheWrite5m, printed.value->usage.cacheWrite5m);
            QCOMPARE(session.cacheWrite1h, printed.value->usage.cacheWrite1h);
            QCOMPARE(session.output, printed.value->usage.output);
            QVERIFY(trace.reportedCostUsd); // the session's cost-state line
            QVERIFY(qFuzzyCompare(*trace.reportedCostUsd, *printed.value->costUsd));
        }
    }

    void codexRollout_totalsAgreeWithTurnCompleted()
    {
        for (const QString &arm : {u"with-skill"_s, u"baseline"_s}) {
            const Result<CliRunOutput> printed =
                parseCodexExecJson(readAll(fixture(u"codex-%1/stdout.jsonl"_s.arg(arm))));
            QVERIFY2(printed, qPrintable(printed.error));
            const Trace trace = load(findCodexRollout(codexHome(arm)));
            const TokenUsage session = trace.totalUsage();
            QCOMPARE(session.uncachedInput, printed.value->usage.uncachedInput);
            QCOMPARE(session.cacheRead, printed.value->usage.cacheRead);
            QCOMPARE(session.output, printed.value->usage.output);
            QCOMPARE(session.reasoning, printed.value->usage.reasoning);
        }
    }

    // The real binaries against the scripted endpoints, both arms of one item.

    void claudeCodeBinary_wholeItem_loadsTheSkillOnlyWhereListed()
    {
        QByteArray why;
        const QString binary = cliFromEnvironment("SKILLFORGE_CLAUDE_CODE_CLI", &why);
        if (binary.isEmpty())
            SF_SKIP_BECAUSE(why);
        checkLiveItem(Harness::ClaudeCode, binary, u"anthropic:claude-sonnet-4-5"_s, "/v1/messages");
    }

    void codexBinary_wholeItem_loadsTheSkillOnlyWhereListed()
    {
        QByteArray why;
        const QString binary = cliFromEnvironment("SKILLFORGE_CODEX_CLI", &why);
        if (binary.isEmpty())
            SF_SKIP_BECAUSE(why);
        checkLiveItem(Harness::Codex, binary, u"openai:gpt-5"_s, "/v1/responses");
    }

private:
    void checkLiveItem(const QString &harness, const QString &binary, const QString &model, const QByteArray &path)
    {
        test::AgentPolicy policy;
        policy.skillName = kSkill;
        policy.keywords = {u"tidy"_s};
        policy.skillFilesToRead = {u"reference/rules.md"_s};
        policy.writeFile = u"tidy.csv"_s;
        policy.writeContent = u"name,value\na,1\n"_s;
        test::ScriptedAgentEndpoints endpoints(policy);
        test::ScriptedHttpServer server;
        endpoints.install(server);
        QVERIFY(server.listen());
        QTemporaryDir root;

        LiveRun with;
        QVERIFY(runLive(harness, binary, model, true, root.path(), server.baseUrl(), &with));
        QCOMPARE(with.output.finalText, policy.answerWithSkill);
        QVERIFY2(!with.output.isError, qPrintable(with.output.errorText));
        QVERIFY(with.activation.loaded);
        QCOMPARE(with.activation.atTurn, 1);
        QCOMPARE(with.activation.filesRead, (QStringList{u"SKILL.md"_s, u"reference/rules.md"_s}));
        QCOMPARE(readAll(QDir(with.workspace).filePath(u"tidy.csv"_s)), QByteArray("name,value\na,1\n"));
        QCOMPARE(endpoints.mainRequests(with.workspace), 4); // load, read, write, answer
        QCOMPARE(endpoints.requestsOfferingSkill(with.workspace), 4);

        LiveRun baseline;
        QVERIFY(runLive(harness, binary, model, false, root.path(), server.baseUrl(), &baseline));
        QCOMPARE(baseline.output.finalText, policy.answerBaseline);
        QVERIFY(!baseline.activation.loaded);
        QVERIFY(!QFileInfo::exists(QDir(baseline.workspace).filePath(u"tidy.csv"_s)));
        QCOMPARE(endpoints.mainRequests(baseline.workspace), 1);
        QCOMPARE(endpoints.requestsOfferingSkill(baseline.workspace), 0);
        QCOMPARE(server.requestCount(path), endpoints.exchanges().size());

        // What the endpoints replied, what the CLI printed and what its session file says all agree.
        for (const LiveRun *run : {&with, &baseline}) {
            const test::AgentExchange replied = endpoints.tokens(run->workspace);
            QCOMPARE(run->output.usage.totalInput(), replied.inputTokens);
            QCOMPARE(run->output.usage.cacheRead, replied.cacheReadTokens);
            QCOMPARE(run->output.usage.output, replied.outputTokens);
            QCOMPARE(run->sessionUsage.totalInput(), replied.inputTokens);
            QCOMPARE(run->sessionUsage.cacheRead, replied.cacheReadTokens);
            QCOMPARE(run->sessionUsage.output, replied.outputTokens);
        }
    }
};

SF_TEST_GUILESS_MAIN(TestCliSession)
#include "test_cli_session.moc"
