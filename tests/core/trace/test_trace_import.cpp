#include "SkippedChecks.h"
#include "trace/TraceExport.h"
#include "trace/TraceImport.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

QString fixture(const QString &relative)
{
    return QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/trace/") + relative;
}

const TraceStep *findCall(const TraceThread &thread, const QString &id)
{
    for (const TraceStep &step : thread.steps)
        if (step.kind == StepKind::ToolCall && step.toolId.toString() == id)
            return &step;
    return nullptr;
}

} // namespace

/// Each importer on its fixture: counts, pairing, and token totals in separate buckets.
class TestTraceImport : public QObject
{
    Q_OBJECT

private:
    Trace load(const QString &path, const QString &format = {})
    {
        TraceImportOptions options;
        options.format = format;
        Result<Trace> result = importTrace(path, options);
        if (!result) // the tests index into the trace, so stop here with the reason
            qFatal("%s", qPrintable(result.error));
        return std::move(*result.value);
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void sampleSession_usageCountedOncePerMessage()
    {
        const Trace trace =
            load(QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/sample-project/traces/rmsnorm-flux-session.jsonl"));
        QCOMPARE(trace.format, u"claude-code"_s);
        const TraceStats stats = TraceStats::of(trace);
        QCOMPARE(stats.threads, 1);
        QCOMPARE(stats.stepsByKind[int(StepKind::ToolCall)], 26);
        QCOMPARE(stats.stepsByKind[int(StepKind::ToolResult)], 26);
        QCOMPARE(stats.stepsByKind[int(StepKind::Thinking)], 13);
        QCOMPARE(stats.stepsByKind[int(StepKind::AssistantText)], 10);
        QCOMPARE(stats.stepsByKind[int(StepKind::UserText)], 2);
        QCOMPARE(stats.stepsByKind[int(StepKind::System)], 2);
        // 49 assistant lines but 25 distinct responses.
        QCOMPARE(stats.assistantTurnsWithUsage, 25);
        QCOMPARE(stats.usage.uncachedInput, 107);
        QCOMPARE(stats.usage.cacheRead, 718229);
        QCOMPARE(stats.usage.cacheWrite5m, 23257);
        QCOMPARE(stats.usage.cacheWrite1h, 16914);
        QCOMPARE(stats.usage.output, 16679);
        QCOMPARE(trace.skippedCount, 0);
        QVERIFY(!trace.title.isEmpty());
        for (const TraceStep &step : trace.threads[0].steps)
            if (step.kind == StepKind::ToolResult)
                QVERIFY2(step.paired >= 0, qPrintable(step.toolId.toString()));
    }

    void claudeCode_nastySession_skipsBadLinesAndKeepsTheRest()
    {
        const Trace trace = load(fixture(u"claude-code/nasty-session.jsonl"_s));
        QCOMPARE(trace.format, u"claude-code"_s);
        QCOMPARE(trace.title, u"Fix the build"_s);
        QCOMPARE(trace.skippedCount, 4);
        QList<qint64> lines;
        for (const SkippedRecord &skipped : trace.skipped)
            lines.append(skipped.line);
        QCOMPARE(lines, (QList<qint64>{9, 15, 17, 18}));
        QVERIFY(trace.skipped[2].reason.contains(u"not a JSON object"_s));

        const TraceStats stats = TraceStats::of(trace);
        QCOMPARE(stats.threads, 2);
        QCOMPARE(trace.threads[0].steps.size(), size_t(12));
        QCOMPARE(trace.threads[0].turns.size(), size_t(8));
        QCOMPARE(trace.threads[1].steps.size(), size_t(4));
        QCOMPARE(stats.toolErrors, 1);
        QCOMPARE(stats.skills, QStringList{u"cuda-kernels"_s});
    }

    void claudeCode_duplicateUsageLines_countedOnceWithLargestOutput()
    {
        const Trace trace = load(fixture(u"claude-code/nasty-session.jsonl"_s));
        const TokenUsage usage = trace.totalUsage();
        QCOMPARE(usage.uncachedInput, 44);
        QCOMPARE(usage.cacheRead, 300);
        QCOMPARE(usage.cacheWrite5m, 50);
        QCOMPARE(usage.cacheWrite1h, 40);
        QCOMPARE(usage.output, 59);
        const TraceTurn &first = trace.threads[0].turns[1];
        QCOMPARE(first.messageId.toString(), u"msg_1"_s);
        QCOMPARE(first.stepCount, 3); // thinking + two tool calls written as three lines
        QCOMPARE(first.usage->output, 30);
        QCOMPARE(first.attributionSkill, u"cuda-kernels"_s);
        QCOMPARE(first.model, u"claude-opus-4-5"_s);
    }

    void claudeCode_outOfOrderResults_pairedById()
    {
        const Trace trace = load(fixture(u"claude-code/nasty-session.jsonl"_s));
        const TraceThread &main = trace.threads[0];
        const TraceStep *bash = findCall(main, u"toolu_1"_s);
        const TraceStep *read = findCall(main, u"toolu_2"_s);
        QVERIFY(bash && read);
        QCOMPARE(main.steps[size_t(bash->paired)].text.toString(), u"make: *** [all] Error 1"_s);
        QVERIFY(main.steps[size_t(bash->paired)].isError);
        QCOMPARE(main.steps[size_t(bash->paired)].toolName.toString(), u"Bash"_s);
        QVERIFY(main.steps[size_t(read->paired)].text.toString().startsWith(u"all: main.o"_s));
        QVERIFY(main.steps[size_t(read->paired)].line < main.steps[size_t(bash->paired)].line);
    }

    void claudeCode_parentUuid_ordersRecordsWrittenOutOfOrder()
    {
        const Trace trace = load(fixture(u"claude-code/nasty-session.jsonl"_s));
        const TraceThread &main = trace.threads[0];
        // "Thanks, finish up." (line 13) is the parent of "Done." (line 12).
        QCOMPARE(main.steps[9].text.toString(), u"Thanks, finish up."_s);
        QCOMPARE(main.steps[9].line, 13);
        QCOMPARE(main.steps[10].text.toString(), u"Done."_s);
        QCOMPARE(main.steps[11].kind, StepKind::System);
        QVERIFY(main.steps[11].text.contains(u"compact"_s));
    }

    void claudeCode_subagentFile_nestedUnderTheTaskCall()
    {
        const Trace trace = load(fixture(u"claude-code/nasty-session.jsonl"_s));
        const TraceThread &sub = trace.threads[1];
        QCOMPARE(sub.id, u"a1b2"_s);
        QCOMPARE(sub.title, u"Explore: Find config"_s);
        QCOMPARE(sub.parentThread, 0);
        const TraceStep *task = findCall(trace.threads[0], u"toolu_3"_s);
        QVERIFY(task);
        QCOMPARE(task->childThread, 1);
        QCOMPARE(trace.threads[0].steps[size_t(sub.parentStep)].toolId.toString(), u"toolu_3"_s);
        QCOMPARE(sub.turns[1].model, u"claude-haiku-4-5"_s);
        QCOMPARE(sub.steps[2].paired, 1);
    }

    void streamJson_resultCostAndSubagentThread()
    {
        const Trace trace = load(fixture(u"claude-stream/run.jsonl"_s));
        QCOMPARE(trace.format, u"claude-stream-json"_s);
        QVERIFY(trace.reportedCostUsd.has_value());
        QCOMPARE(*trace.reportedCostUsd, 0.0123);
        QCOMPARE(trace.threads.size(), size_t(2));
        QCOMPARE(trace.threads[0].steps.size(), size_t(6));
        QCOMPARE(trace.threads[0].turns.size(), size_t(5));
        QCOMPARE(trace.threads[1].steps.size(), size_t(2));
        QCOMPARE(trace.threads[1].parentStep, 2);
        QCOMPARE(trace.threads[0].steps[2].childThread, 1);
        const TokenUsage usage = trace.totalUsage();
        QCOMPARE(usage.uncachedInput, 7);
        QCOMPARE(usage.cacheRead, 2200);
        QCOMPARE(usage.cacheWrite5m, 200);
        QCOMPARE(usage.output, 34);
        QCOMPARE(trace.skippedCount, 0);
    }

    void codex_callsJoinedOnCallIdAndCachedInputSeparated()
    {
        const Trace trace = load(fixture(u"codex/rollout-2026-02-01T12-00-00-0199.jsonl"_s));
        QCOMPARE(trace.format, u"codex"_s);
        QCOMPARE(trace.skippedCount, 1);
        QCOMPARE(trace.skipped[0].line, 11);
        const TraceThread &main = trace.threads[0];
        QCOMPARE(main.turns.size(), size_t(6));
        QCOMPARE(main.steps.size(), size_t(7));
        const TraceStep *shell = findCall(main, u"call_1"_s);
        QVERIFY(shell);
        QCOMPARE(shell->input.toString(), u"{\"command\":[\"pytest\"]}"_s);
        QCOMPARE(main.steps[size_t(shell->paired)].text.toString(), u"1 failed"_s);
        QVERIFY(main.steps[size_t(shell->paired)].isError);
        QCOMPARE(main.turns[1].model, u"gpt-5-codex"_s);
        const TokenUsage usage = trace.totalUsage();
        QCOMPARE(usage.uncachedInput, 350);
        QCOMPARE(usage.cacheRead, 1800);
        QCOMPARE(usage.output, 150);
        QCOMPARE(usage.reasoning, 40);
    }

    // Sessions the real CLIs wrote (tests/fixtures/agents/README.md): every step and token kept, and the totals
    // those CLIs printed.
    void claudeCode_2_1_332_realSession_everyStepTokenAndTheCostKept()
    {
        const Trace trace = load(QStringLiteral(SKILLFORGE_SOURCE_DIR
                                                "/tests/fixtures/agents/claude-code-with-skill/home/.claude/projects/"
                                                "-tmp-skillforge-fixture-claude-code-with-skill-workspace/"
                                                "a56ff5a9-f558-486e-937c-3d8b892baae9.jsonl"));
        QCOMPARE(trace.format, u"claude-code"_s);
        QCOMPARE(trace.skippedCount, 0); // api-request-blob, atis-latch, cost-state and the rest are bookkeeping
        const TraceStats stats = TraceStats::of(trace);
        QCOMPARE(stats.threads, 1);
        QCOMPARE(stats.toolCalls, (QList<QPair<QString, qint64>>{{u"Read"_s, 1}, {u"Skill"_s, 1}, {u"Write"_s, 1}}));
        QCOMPARE(stats.stepsByKind[int(StepKind::ToolResult)], 3);
        QCOMPARE(stats.toolErrors, 0);
        QCOMPARE(stats.stepsByKind[int(StepKind::System)], 1); // the skill's content, which Claude Code marks isMeta
        QCOMPARE(stats.assistantTurnsWithUsage, 4);
        const TraceStep *skill = findCall(trace.threads[0], u"toolu_sf_skill_1"_s);
        QVERIFY(skill);
        QCOMPARE(skill->input.toString(), u"{\"skill\":\"csv-tidy\"}"_s);
        QCOMPARE(trace.threads[0].steps.back().text.toString(), u"ANSWER-WITH-SKILL"_s);
        // The CLI printed: usage {input_tokens 22132, cache_read 44260, cache_creation 22129, output 28}, cost 0.163...
        QCOMPARE(stats.usage.uncachedInput, 22132);
        QCOMPARE(stats.usage.cacheRead, 44260);
        QCOMPARE(stats.usage.cacheWrite5m, 22129);
        QCOMPARE(stats.usage.output, 28);
        QVERIFY(trace.reportedCostUsd);
        QVERIFY(qFuzzyCompare(*trace.reportedCostUsd, 0.16307775000000002));

        // Read on two threads, the cost-state line lies in the second half: the same cost and tokens.
        TraceImportOptions twoThreads;
        twoThreads.twoThreadsFromBytes = 0;
        const Result<Trace> halves = importTrace(trace.path, twoThreads);
        QVERIFY2(halves, qPrintable(halves.error));
        QCOMPARE(halves.value->reportedCostUsd, trace.reportedCostUsd);
        QCOMPARE(TraceStats::of(*halves.value).usage.cacheRead, stats.usage.cacheRead);
        QCOMPARE(halves.value->stepCount(), trace.stepCount());
    }

    void codex_0_163_realRollout_everyCallAndTokenKept()
    {
        const Trace trace = load(QStringLiteral(
            SKILLFORGE_SOURCE_DIR "/tests/fixtures/agents/codex-with-skill/home/.codex/sessions/2026/12/04/"
                                  "rollout-2026-12-04T15-14-06-01a2419e-a82b-7af1-8421-4a78ed042d42.jsonl"));
        QCOMPARE(trace.format, u"codex"_s);
        QCOMPARE(trace.skippedCount, 0); // world_state, token_usage_record and the rest are bookkeeping
        const TraceStats stats = TraceStats::of(trace);
        QCOMPARE(stats.toolCalls, (QList<QPair<QString, qint64>>{{u"exec_command"_s, 3}}));
        QCOMPARE(stats.stepsByKind[int(StepKind::ToolResult)], 3);
        QCOMPARE(stats.toolErrors, 0);
        QCOMPARE(stats.assistantTurnsWithUsage, 4);
        QCOMPARE(stats.models, QStringList{u"gpt-5"_s});
        QCOMPARE(trace.threads[0].steps.back().text.toString(), u"ANSWER-WITH-SKILL"_s);
        // turn.completed printed: input_tokens 40597 (cached 20298), output_tokens 28.
        QCOMPARE(stats.usage.totalInput(), 40597);
        QCOMPARE(stats.usage.cacheRead, 20298);
        QCOMPARE(stats.usage.output, 28);
    }

    void codex_execCommandExitCodeHeader_nonZeroIsAnError()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"rollout-2026-12-04T10-00-00-x.jsonl"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        auto item = [&file](const QJsonObject &payload) {
            file.write(QJsonDocument(QJsonObject{{u"timestamp"_s, u"2026-12-04T10:00:00Z"_s},
                                                 {u"type"_s, u"response_item"_s},
                                                 {u"payload"_s, payload}})
                           .toJson(QJsonDocument::Compact) +
                       '\n');
        };
        file.write(R"({"timestamp":"2026-12-04T10:00:00Z","type":"session_meta","payload":{"id":"x","cwd":"/w"}})"
                   "\n");
        const QStringList outputs = {
            u"Chunk ID: a1\nWall time: 0.0010 seconds\nProcess exited with code 1\nOriginal token count: 9\nOutput:\n"
            "cat: SKILL.md: No such file or directory\n"_s,
            u"Chunk ID: a2\nWall time: 0.0010 seconds\nProcess exited with code 0\nOriginal token count: 9\nOutput:\n"
            "Process exited with code 3\n"_s, // the command's own output says so: not the exit code
            u"Chunk ID: a3\nWall time: 10.0 seconds\nProcess running with session ID 7\nOutput:\n"_s};
        for (int i = 0; i < outputs.size(); ++i) {
            const QString id = u"call_%1"_s.arg(i);
            item({{u"type"_s, u"function_call"_s},
                  {u"name"_s, u"exec_command"_s},
                  {u"arguments"_s, u"{\"cmd\":\"cat SKILL.md\"}"_s},
                  {u"call_id"_s, id}});
            item({{u"type"_s, u"function_call_output"_s}, {u"call_id"_s, id}, {u"output"_s, outputs[i]}});
        }
        file.close();
        const Trace trace = load(path);
        const TraceThread &main = trace.threads[0];
        QList<bool> errors;
        for (const QString &id : {u"call_0"_s, u"call_1"_s, u"call_2"_s}) {
            const TraceStep *call = findCall(main, id);
            QVERIFY(call && call->paired >= 0);
            errors << main.steps[size_t(call->paired)].isError;
        }
        QCOMPARE(errors, (QList<bool>{true, false, false}));
    }

    void openAiMessages_toolMessagesPairedOutOfOrder()
    {
        const Trace trace = load(fixture(u"openai/messages.json"_s));
        QCOMPARE(trace.format, u"openai-messages"_s);
        const TraceStats stats = TraceStats::of(trace);
        QCOMPARE(stats.turns, 5);
        QCOMPARE(stats.steps, 8);
        QCOMPARE(stats.stepsByKind[int(StepKind::Image)], 1);
        QCOMPARE(trace.skippedCount, 1);
        QVERIFY(trace.skipped[0].reason.contains(u"critic"_s));
        const TraceThread &main = trace.threads[0];
        QCOMPARE(main.steps[size_t(findCall(main, u"call_1"_s)->paired)].text.toString(), u"Paris: 15C"_s);
        QCOMPARE(main.steps[size_t(findCall(main, u"call_2"_s)->paired)].text.toString(), u"Rome: 20C"_s);
        QCOMPARE(findCall(main, u"call_1"_s)->input.toString(), u"{\"city\":\"Paris\"}"_s);

        const Trace list = load(fixture(u"openai/messages-list.json"_s));
        QCOMPARE(list.format, u"openai-messages"_s);
        QCOMPARE(list.turnCount(), 2);
    }

    void fastAgent_channelsGiveUsageAndReasoning()
    {
        const Trace trace = load(fixture(u"fast-agent/history_evaluator.json"_s));
        QCOMPARE(trace.format, u"fast-agent"_s);
        const TraceStats stats = TraceStats::of(trace);
        QCOMPARE(stats.turns, 4);
        QCOMPARE(stats.steps, 6);
        QCOMPARE(stats.stepsByKind[int(StepKind::Thinking)], 1);
        QCOMPARE(stats.usage.uncachedInput, 50);
        QCOMPARE(stats.usage.cacheRead, 210);
        QCOMPARE(stats.usage.output, 24);
        QCOMPARE(stats.usage.reasoning, 5);
        const TraceStep *call = findCall(trace.threads[0], u"call_1"_s);
        QCOMPARE(trace.threads[0].steps[size_t(call->paired)].text.toString(), u"hello"_s);
    }

    // Issue 33: fast-agent 0.10.48 (what upskill installs) writes fast-agent.usage/v2, one entry per provider attempt;
    // read as the old layout it gave 0 tokens. Every attempt was billed: a retried request counts twice.
    void fastAgent_usageV2_addsEveryProviderAttempt()
    {
        const Trace trace = load(fixture(u"fast-agent/history_usage_v2.json"_s));
        QCOMPARE(trace.format, u"fast-agent"_s);
        const TraceStats stats = TraceStats::of(trace);
        QCOMPARE(stats.turns, 4);
        QCOMPARE(stats.usage.uncachedInput, 20 + 20 + 100); // Anthropic's uncached; OpenAI's total less cached
        QCOMPARE(stats.usage.cacheRead, 1000 + 1200 + 1400);
        QCOMPARE(stats.usage.cacheWrite5m, 200);
        QCOMPARE(stats.usage.output, 55 + 30);
        QCOMPARE(stats.usage.reasoning, 12);
        QCOMPARE(trace.threads[0].turns[1].model, u"claude-sonnet-4-5-20250929"_s);
        QCOMPARE(trace.threads[0].turns[3].model, u"gpt-5.6-terra"_s);
    }

    void smolagents_stepsBecomeTurnsWithErrors()
    {
        const Trace trace = load(fixture(u"smolagents/steps.json"_s));
        QCOMPARE(trace.format, u"smolagents"_s);
        const TraceStats stats = TraceStats::of(trace);
        QCOMPARE(stats.turns, 7);
        QCOMPARE(stats.steps, 9);
        QCOMPARE(stats.toolErrors, 1);
        QCOMPARE(stats.usage.uncachedInput, 650);
        QCOMPARE(stats.usage.output, 60);
        QCOMPARE(findCall(trace.threads[0], u"c2"_s)->input.toString(), u"{\"answer\":\"4\"}"_s);
    }

    void smolagentsAnswers_eachQuestionAThread_toolUsePaired_tokensCounted()
    {
        // smolagents' benchmark output (issue 19): JSON Lines, messages with tool-call / tool-response roles on the
        // first line, the memory as one string on the second, token_counts in both spellings.
        const Trace trace = load(fixture(u"smolagents/answers.jsonl"_s));
        QCOMPARE(trace.format, u"smolagents-answers"_s);
        QCOMPARE(trace.threads.size(), size_t(2));
        const TraceThread &first = trace.threads[0];
        QVERIFY2(first.title.contains(u"What is 17 * 23?"_s), qPrintable(first.title));
        const TraceStep *call = findCall(first, u"call_1"_s);
        QVERIFY(call);
        QCOMPARE(call->toolName.toString(), u"python_interpreter"_s);
        QVERIFY(call->paired >= 0);
        QVERIFY(first.steps[size_t(call->paired)].text.toString().contains(u"391"_s));
        QVERIFY(findCall(first, u"call_2"_s));
        QCOMPARE(first.steps.back().text.toString(), u"Final answer: 391"_s);
        const TraceThread &second = trace.threads[1];
        QCOMPARE(second.steps.front().kind, StepKind::UserText); // the question, since the memory is one string
        QVERIFY(second.steps[1].text.toString().contains(u"ActionStep(step_number=1"_s));
        QCOMPARE(second.steps.back().text.toString(), u"Final answer: 24"_s);
        const TokenUsage usage = trace.totalUsage();
        QCOMPARE(usage.uncachedInput, 1830 + 910);
        QCOMPARE(usage.output, 96 + 40);
    }

    void atif_stepsAndSubagents_embeddedAndReferenced_andTheCostLogged()
    {
        const Trace trace = load(fixture(u"atif/trajectory.json"_s));
        QCOMPARE(trace.format, u"atif"_s);
        QCOMPARE(trace.title, u"harbor-agent — claude-sonnet-4-5"_s);
        QCOMPARE(trace.threads.size(), size_t(3)); // main, the embedded subagent, the one in its own file
        const TraceThread &main = trace.threads[0];
        const TraceStep *delegate = findCall(main, u"call_1"_s);
        QVERIFY(delegate && delegate->childThread > 0);
        QCOMPARE(trace.threads[size_t(delegate->childThread)].title, u"search-subagent"_s);
        QCOMPARE(trace.threads[size_t(delegate->childThread)].parentStep, int(delegate - main.steps.data()));
        const TraceStep *bench = findCall(main, u"call_3"_s);
        QVERIFY(bench && bench->childThread > 0);
        QCOMPARE(trace.threads[size_t(bench->childThread)].title, u"bench-subagent"_s);
        const TraceStep *write = findCall(main, u"call_2"_s);
        QCOMPARE(write->input.toString(), u"{\"content\":\"__global__ void rmsnorm() {}\",\"path\":\"rmsnorm.cu\"}"_s);
        QCOMPARE(main.steps[size_t(write->paired)].text.toString(), u"wrote rmsnorm.cu"_s);
        // prompt_tokens include the cached ones: 1500 of which 1200 cached is 300 uncached.
        const TraceStats stats = TraceStats::of(trace);
        QCOMPARE(stats.usage.cacheRead, 1200);
        QCOMPARE(stats.usage.uncachedInput, (1500 - 1200) + 700 + 840 + 300 + 340 + 200);
        QCOMPARE(stats.usage.output, 180 + 20 + 45 + 20 + 15 + 10);
        QCOMPARE(stats.usage.reasoning, 40);
        QCOMPARE(trace.reportedCostUsd.value_or(0), 0.0123);
        QCOMPARE(main.turns[2].model, u"claude-sonnet-4-5"_s);
    }

    void atifExport_readsBackTheSameTrace()
    {
        // Round trips: the ATIF fixture, and a Claude Code session with a subagent, exported as ATIF and read again.
        QTemporaryDir dir;
        for (const QString &name : {u"atif/trajectory.json"_s, u"claude-code/nasty-session.jsonl"_s}) {
            const Trace original = load(fixture(name));
            const QJsonObject atif = traceToAtif(original);
            QCOMPARE(atif.value(u"schema_version"_s).toString(), u"ATIF-v1.4"_s);
            const QString path = dir.filePath(QFileInfo(name).completeBaseName() + u".atif.json"_s);
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QJsonDocument(atif).toJson());
            file.close();
            const Trace again = load(path);
            QCOMPARE(again.format, u"atif"_s);
            QCOMPARE(again.threads.size(), original.threads.size());
            const TraceStats before = TraceStats::of(original), after = TraceStats::of(again);
            QCOMPARE(after.usage.totalInput(), before.usage.totalInput());
            QCOMPARE(after.usage.cacheRead, before.usage.cacheRead);
            QCOMPARE(after.usage.output, before.usage.output);
            QCOMPARE(after.toolCalls, before.toolCalls);
            if (name.startsWith(u"atif"_s)) {
                QCOMPARE(after.steps, before.steps);
                QVERIFY(findCall(again.threads[0], u"call_1"_s)->childThread > 0);
            } else {
                QCOMPARE(findCall(again.threads[0], u"toolu_3"_s)->childThread, 1); // the subagent under its call
            }
        }
    }

    void olderAndSmallerShapes_areDetectedAndRead()
    {
        // Claude Code records without uuid and sessionId, the same as claude-code-transcripts' loglines, and a
        // Codex rollout from before session_meta (issue 19).
        for (const QString &name : {u"claude-code/stripped.jsonl"_s, u"claude-code/loglines.json"_s}) {
            const Trace trace = load(fixture(name));
            QCOMPARE(trace.format, name.endsWith(u".json"_s) ? u"claude-code-loglines"_s : u"claude-code"_s);
            QCOMPARE(trace.path, fixture(name));
            const TraceStats stats = TraceStats::of(trace);
            QCOMPARE(stats.steps, 5);
            QCOMPARE(stats.usage.cacheRead, 1750);
            QCOMPARE(stats.usage.output, 42);
            const TraceStep *call = findCall(trace.threads[0], u"toolu_s1"_s);
            QVERIFY(call && call->paired >= 0);
            QVERIFY(trace.threads[0].steps[size_t(call->paired)].text.toString().contains(u"util.cpp"_s));
        }
        const Trace codex = load(fixture(u"codex/before-session-meta.jsonl"_s));
        QCOMPARE(codex.format, u"codex"_s);
        QCOMPARE(codex.skippedCount, 0); // the state lines are known, not failures
        QCOMPARE(codex.threads[0].id, u"0197a1b2-c3d4-7e8f-9a0b-1c2d3e4f5a6b"_s);
        const TraceStep *shell = findCall(codex.threads[0], u"call_old_1"_s);
        QVERIFY(shell && shell->paired >= 0);
        QVERIFY(codex.threads[0].steps[size_t(shell->paired)].text.toString().contains(u"3 passed"_s));
        QCOMPARE(codex.threads[0].steps.back().text.toString(), u"All 3 tests pass."_s);
    }

    void jsonThatIsNotATrace_saysWhatItIs()
    {
        QTemporaryDir dir;
        const auto message = [&](const QByteArray &json) {
            const QString path = dir.filePath(u"file.json"_s);
            QFile file(path);
            file.open(QIODevice::WriteOnly | QIODevice::Truncate);
            file.write(json);
            file.close();
            const Result<Trace> result = importTrace(path);
            return result ? QString() : result.error;
        };
        QVERIFY(message(R"({"skill_name": "x", "evals": [{"id": 1, "prompt": "p", "expected_output": "o"}]})")
                    .contains(u"a skill-creator evals.json (test cases), not a trace"_s));
        QVERIFY(message(R"({"metadata": {"skill_name": "x"}, "runs": [], "run_summary": {}})")
                    .contains(u"a skill-creator benchmark.json"_s));
        QVERIFY(message(R"({"assertion_results": [], "summary": {"passed": 1}})").contains(u"grading.json"_s));
        QVERIFY(message(R"({"total_tokens": 10, "duration_ms": 5})").contains(u"timing.json"_s));
        QVERIFY(message(R"([{"query": "make a chart", "should_trigger": true}])").contains(u"trigger query set"_s));
        QVERIFY(message(R"({"unrelated": true})").contains(u"not a trace in any known format"_s));
    }

    void inspectJson_samplesAsThreadsWithAttachmentsResolved()
    {
        const Trace trace = load(fixture(u"inspect/log.json"_s));
        QCOMPARE(trace.format, u"inspect-json"_s);
        QCOMPARE(trace.title, u"arith — openai/gpt-4o"_s);
        QCOMPARE(trace.threads.size(), size_t(2));
        QCOMPARE(trace.threads[0].steps.size(), size_t(6));
        QCOMPARE(trace.threads[1].steps[0].text.toString(), u"A long prompt kept as an attachment."_s);
        const TokenUsage usage = trace.totalUsage();
        QCOMPARE(usage.uncachedInput, 150);
        QCOMPARE(usage.cacheRead, 20);
        QCOMPARE(usage.output, 18);
        QCOMPARE(trace.threads[0].turns[1].model, u"gpt-4o"_s);
    }

    void inspectEval_zstdEntriesDecompressed()
    {
        const Trace trace = load(fixture(u"inspect/log.eval"_s));
        QCOMPARE(trace.format, u"inspect-eval"_s);
        QCOMPARE(trace.skippedCount, 0);
        QCOMPARE(trace.title, u"arith — openai/gpt-4o"_s);
        QCOMPARE(trace.threads.size(), size_t(2));
        QCOMPARE(trace.stepCount(), 8);
        QCOMPARE(trace.totalUsage().uncachedInput, 150);
        QCOMPARE(trace.totalUsage().output, 18);
    }

    void upskillRunFolder_readsItsSessionHistory()
    {
        const Trace trace = load(fixture(u"upskill/run_1"_s));
        QCOMPARE(trace.format, u"upskill-run"_s);
        QCOMPARE(trace.stepCount(), 6);
        QCOMPARE(trace.threads[0].title, u"history_evaluator.json"_s);
        QCOMPARE(trace.totalUsage().output, 24);
    }

    void plainMarkdown_oneMessage()
    {
        const Trace trace = load(fixture(u"text/notes.md"_s));
        QCOMPARE(trace.format, u"text"_s);
        QCOMPARE(trace.stepCount(), 1);
        QCOMPARE(trace.title, u"# How I fixed the build"_s);
    }

    void notATrace_errorNamesTheFormatsTried_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("expected");
        QTest::newRow("binary") << fixture(u"nasty/binary-garbage.dat"_s) << u"tried: claude-code"_s;
        QTest::newRow("json") << fixture(u"nasty/not-a-trace.json"_s) << u"tried: claude-code"_s;
        QTest::newRow("broken json") << fixture(u"nasty/broken.json"_s) << u"broken.json:3:"_s;
        QTest::newRow("missing") << u"/nonexistent/trace.jsonl"_s << u"/nonexistent/trace.jsonl"_s;
        QTest::newRow("folder") << fixture(u"nasty"_s) << u"not an upskill run"_s;
    }
    void notATrace_errorNamesTheFormatsTried()
    {
        QFETCH(QString, path);
        QFETCH(QString, expected);
        const Result<Trace> result = importTrace(path);
        QVERIFY(!result);
        QVERIFY2(result.error.contains(expected), qPrintable(result.error));
    }

    void explicitFormat_overridesDetectionAndWrongOneFails()
    {
        TraceImportOptions options;
        options.format = u"codex"_s;
        const Result<Trace> wrong = importTrace(fixture(u"claude-code/nasty-session.jsonl"_s), options);
        QVERIFY(!wrong);
        QVERIFY2(wrong.error.contains(u"codex"_s) && wrong.error.contains(u"as asked"_s), qPrintable(wrong.error));

        options.format = u"text"_s;
        const Result<Trace> asText = importTrace(fixture(u"openai/messages.json"_s), options);
        QVERIFY(asText);
        QCOMPARE(asText.value->format, u"text"_s);

        options.format = u"yaml"_s;
        const Result<Trace> unknown = importTrace(fixture(u"openai/messages.json"_s), options);
        QVERIFY(unknown.error.contains(u"unknown trace format 'yaml'"_s));
    }

    void hugeLineAndNulBytes_skippedAndTheRestLoads()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"big.jsonl"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"type\":\"user\",\"sessionId\":\"s\",\"uuid\":\"u1\",\"message\":{\"role\":\"user\",\"content\":"
                   "\"first\"}}"
                   "\n");
        // A 100 MB line that never closes its string.
        file.write("{\"type\":\"user\",\"uuid\":\"u2\",\"message\":{\"content\":\"");
        const QByteArray block(1024 * 1024, 'a');
        for (int i = 0; i < 100; ++i)
            file.write(block);
        file.write("\n");
        file.write(QByteArray("{\"type\":\0\"user\"}\n", 17));
        file.write("{\"type\":\"user\",\"sessionId\":\"s\",\"uuid\":\"u3\",\"parentUuid\":\"u1\",\"message\":{\"role\":"
                   "\"user\",\"content\":\"last\"}}");
        file.close();
        const Result<Trace> result = importTrace(path);
        QVERIFY2(result, qPrintable(result.error));
        QCOMPARE(result.value->stepCount(), 2);
        QCOMPARE(result.value->skippedCount, 2);
        QCOMPARE(result.value->skipped[0].line, 2);
        QCOMPARE(result.value->skipped[1].line, 3);
    }

    void claudeCode_firstLineLongerThanTheDetectionHead_stillDetected()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"long-prompt.jsonl"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(
            "{\"type\":\"user\",\"sessionId\":\"s\",\"uuid\":\"u1\",\"message\":{\"role\":\"user\",\"content\":\"");
        file.write(QByteArray(300 * 1024, 'x'));
        file.write("\"}}\n");
        file.close();
        const Result<Trace> result = importTrace(path);
        QVERIFY2(result, qPrintable(result.error));
        QCOMPARE(result.value->format, u"claude-code"_s);
        QCOMPARE(result.value->threads[0].steps[0].text.toString().size(), 300 * 1024);
    }

    void claudeCode_sessionSeveralReadBuffersLong_everyLineImported()
    {
        // 12 MB: lines of varied length cross the reader's buffer ends, half of them end in CRLF.
        QTemporaryDir dir;
        const QString path = dir.filePath(u"several-buffers.jsonl"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        const int lines = 60000;
        for (int i = 0; i < lines; ++i)
            file.write(QStringLiteral("{\"type\":\"user\",\"uuid\":\"u%1\",\"parentUuid\":%2,\"message\":{\"role\":"
                                      "\"user\",\"content\":\"prompt %1 %3\"}}%4")
                           .arg(i)
                           .arg(i == 0 ? u"null"_s : QStringLiteral("\"u%1\"").arg(i - 1))
                           .arg(QString(i % 397, u'x'))
                           .arg(i % 2 ? u"\r\n"_s : u"\n"_s)
                           .toUtf8());
        file.close();
        QVERIFY(file.size() > 3 * 4 * 1024 * 1024);
        const Result<Trace> result = importTrace(path);
        QVERIFY2(result, qPrintable(result.error));
        QCOMPARE(result.value->skippedCount, 0);
        const TraceThread &main = result.value->threads[0];
        QCOMPARE(main.steps.size(), size_t(lines));
        for (int i : {0, 1, 20001, 40002, lines - 1}) {
            QCOMPARE(main.steps[size_t(i)].line, i + 1);
            QCOMPARE(main.steps[size_t(i)].text.toString(),
                     QStringLiteral("prompt %1 %2").arg(i).arg(QString(i % 397, u'x')));
        }
    }

    void claudeCode_laterLineIsAnEarlierOnesParent_readAgainInParentOrder()
    {
        // Records are placed as they are read, until line 1,002 turns out to be the parent of line 1,000:
        // then the file is read again and ordered, and nothing of the first reading is left or counted twice.
        QTemporaryDir dir;
        const QString path = dir.filePath(u"late-parent.jsonl"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        auto user = [&file](const QString &uuid, const QString &parent, const QString &text) {
            file.write(QStringLiteral("{\"type\":\"user\",\"uuid\":\"%1\",\"parentUuid\":%2,\"message\":{\"role\":"
                                      "\"user\",\"content\":\"%3\"}}\n")
                           .arg(uuid, parent.isEmpty() ? u"null"_s : u'"' + parent + u'"', text)
                           .toUtf8());
        };
        file.write("{\"type\":\"assistant\",\"uuid\":\"a0\",\"parentUuid\":null,\"requestId\":\"r1\",\"message\":{"
                   "\"id\":\"m1\",\"role\":\"assistant\",\"model\":\"claude-opus-4-5\",\"content\":[{\"type\":"
                   "\"text\",\"text\":\"Hello\"}],\"usage\":{\"input_tokens\":7,\"output_tokens\":11}}}\n");
        for (int i = 0; i < 998; ++i)
            user(QStringLiteral("u%1").arg(i), i == 0 ? u"a0"_s : QStringLiteral("u%1").arg(i - 1),
                 QStringLiteral("prompt %1").arg(i));
        file.write("not json\n");
        user(u"u998"_s, u"late"_s, u"after the late one"_s);
        user(u"late"_s, u"u997"_s, u"written late"_s);
        file.close();

        const Result<Trace> result = importTrace(path);
        QVERIFY2(result, qPrintable(result.error));
        const Trace &trace = *result.value;
        QCOMPARE(trace.skippedCount, 1);
        QCOMPARE(trace.threads.size(), size_t(1));
        const TraceThread &main = trace.threads[0];
        QCOMPARE(main.steps.size(), size_t(1001));
        QCOMPARE(main.steps[0].text.toString(), u"Hello"_s);
        QCOMPARE(main.steps[998].text.toString(), u"prompt 997"_s);
        QCOMPARE(main.steps[999].text.toString(), u"written late"_s);
        QCOMPARE(main.steps[1000].text.toString(), u"after the late one"_s);
        QCOMPARE(trace.totalUsage().output, 11);
        QCOMPARE(trace.totalUsage().uncachedInput, 7);
    }

    void claudeCode_lineOfSeveralMegabytes_readWholeWithItsToolCall()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"long-result.jsonl"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"type\":\"assistant\",\"uuid\":\"a1\",\"message\":{\"id\":\"m1\",\"model\":\"claude-opus-4-5\","
                   "\"content\":[{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"Read\",\"input\":{\"path\":\"a\"}}],"
                   "\"usage\":{\"input_tokens\":3,\"output_tokens\":5}}}\n");
        file.write(
            "{\"type\":\"user\",\"uuid\":\"u1\",\"parentUuid\":\"a1\",\"message\":{\"role\":\"user\",\"content\":"
            "[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":\"");
        file.write(QByteArray(5 * 1024 * 1024, 'y'));
        file.write("\"}]}}\n");
        file.close();
        const Result<Trace> result = importTrace(path);
        QVERIFY2(result, qPrintable(result.error));
        const TraceThread &main = result.value->threads[0];
        QCOMPARE(main.steps.size(), size_t(2));
        QCOMPARE(main.steps[1].text.toString().size(), 5 * 1024 * 1024);
        QCOMPARE(main.steps[1].paired, 0);
        QCOMPARE(main.steps[0].input.toString(), u"{\"path\":\"a\"}"_s);
        QCOMPARE(result.value->totalUsage().output, 5);
    }

    void claudeCode_toolInputs_areQtsCompactJson_whicheverWayTheLineIsRead()
    {
        // Tool inputs are written as Qt's compact JSON of the input: keys sorted, the last of a repeated key, Qt's
        // escapes. Straight from the parser where it can (strings, whole numbers, ASCII keys), through QJsonDocument
        // for what only Qt renders exactly (fractions, integers past 2^53, non-ASCII keys): the same text either way.
        const QList<QByteArray> inputs{
            "{\"zeta\":1,\"alpha\":\"first\",\"Upper\":\"x\",\"command\":\"a\\\"b\\\\c\\/d\\u0001e\\u001b[0m\\u001f"
            "\\n\\t\\r\\b\\f \\u00e9\\ud83d\\ude00\\u2028\\u007f\",\"mid\":{\"b\":[true,false,null,-42,[]],\"a\":{}},"
            "\"alpha\":\"last wins\",\"empty\":\"\"}",
            "{\"timeout\":1e-7,\"b\":9007199254740993,\"a\":0.1,\"c\":[2.5e300,-0.0,1E+2],\"d\":\"x\"}",
            "{\"\\u00e9t\\u00e9\":1,\"z\":2,\"a\":{\"y\":1,\"x\":2}}"};
        QStringList expected;
        for (const QByteArray &input : inputs) {
            QJsonParseError error;
            const QJsonDocument document = QJsonDocument::fromJson(input, &error);
            QVERIFY2(document.isObject(), qPrintable(error.errorString()));
            expected << QString::fromUtf8(document.toJson(QJsonDocument::Compact));
        }
        // What that is, spelled out for the first: sorted, the later "alpha", escapes as Qt writes them.
        const QString sortedStart = u"{\"Upper\":\"x\",\"alpha\":\"last wins\",\"command\":\"a\\\"b\\\\c/d\\u0001e"_s;
        const QString sortedEnd = u",\"empty\":\"\",\"mid\":{\"a\":{},\"b\":[true,false,null,-42,[]]},\"zeta\":1}"_s;
        QVERIFY2(expected[0].startsWith(sortedStart) && expected[0].endsWith(sortedEnd), qPrintable(expected[0]));

        for (const bool lateParent : {false, true}) {
            // With the user's prompt written after the call that answers it, the file is read again in parent order.
            QTemporaryDir dir;
            const QString path = dir.filePath(u"tool-inputs.jsonl"_s);
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            const QByteArray prompt = "{\"type\":\"user\",\"uuid\":\"p0\",\"parentUuid\":null,\"message\":{\"role\":"
                                      "\"user\",\"content\":\"run it\"}}\n";
            if (!lateParent)
                file.write(prompt);
            QByteArray parent = "p0";
            for (qsizetype i = 0; i < inputs.size(); ++i) {
                const QByteArray n = QByteArray::number(i);
                const QByteArray call =
                    "{\"type\":\"tool_use\",\"id\":\"t" + n + "\",\"name\":\"Bash\",\"input\":" + inputs[i] + "}";
                file.write("{\"type\":\"assistant\",\"uuid\":\"a" + n + "\",\"parentUuid\":\"" + parent +
                           "\",\"message\":{\"id\":\"m" + n +
                           "\",\"role\":\"assistant\",\"model\":\"claude-opus-4-5\",\"content\":[" + call +
                           "],\"usage\":{\"input_tokens\":3,\"output_tokens\":5}}}\n");
                parent = "a" + n;
            }
            if (lateParent)
                file.write(prompt);
            file.close();

            const Result<Trace> result = importTrace(path);
            QVERIFY2(result, qPrintable(result.error));
            const TraceThread &main = result.value->threads[0];
            QCOMPARE(main.steps.size(), size_t(1 + inputs.size()));
            QCOMPARE(main.steps[0].text.toString(), u"run it"_s);
            for (qsizetype i = 0; i < inputs.size(); ++i) {
                const TraceStep *call = findCall(main, u"t%1"_s.arg(i));
                QVERIFY2(call, qPrintable(u"t%1"_s.arg(i)));
                QCOMPARE(call->input.toString(), expected[i]);
            }
        }
    }

    void progressCallback_canCancel()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"long.jsonl"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        for (int i = 0; i < 20000; ++i)
            file.write(QStringLiteral("{\"type\":\"user\",\"sessionId\":\"s\",\"uuid\":\"u%1\",\"message\":{\"role\":"
                                      "\"user\",\"content\":\"prompt %1\"}}"
                                      "\n")
                           .arg(i)
                           .toUtf8());
        file.close();
        int calls = 0;
        TraceImportOptions options;
        options.progress = [&calls](qint64 done, qint64 total) {
            ++calls;
            return done < total / 2;
        };
        const Result<Trace> result = importTrace(path, options);
        QVERIFY(!result);
        QCOMPARE(result.error, traceImportCancelledMessage());
        QVERIFY(calls >= 2);
    }
};

SF_TEST_GUILESS_MAIN(TestTraceImport)
#include "test_trace_import.moc"
