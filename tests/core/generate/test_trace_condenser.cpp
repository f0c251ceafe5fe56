// Condensing a trace for the teacher: what matters first, never a blind cut, gaps marked.
#include "SkippedChecks.h"
#include "generate/TraceCondenser.h"

#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

TraceStep step(Trace &trace, StepKind kind, const QString &text, bool isError = false)
{
    TraceStep s;
    s.kind = kind;
    s.text = trace.store(text);
    s.isError = isError;
    if (kind == StepKind::ToolCall || kind == StepKind::ToolResult) {
        s.toolName = trace.store(u"Bash"_s);
    }
    return s;
}

// A session: the task, a long build log, a failing build, its fix, and chatter.
Trace session()
{
    Trace trace;
    TraceThread main;
    main.id = u"main"_s;
    main.steps = {step(trace, StepKind::UserText, u"Write a fused RMSNorm kernel for Flux"_s),
                  step(trace, StepKind::ToolCall, QString()),
                  step(trace, StepKind::ToolResult, u"LOGSTART "_s + QString(20000, u'x') + u" LOGEND"_s),
                  step(trace, StepKind::ToolCall, QString()),
                  step(trace, StepKind::ToolResult, u"error: identifier \"__hmul2\" is undefined"_s, true),
                  step(trace, StepKind::AssistantText, u"Include cuda_bf16.h and use __hmul2 on __nv_bfloat162."_s),
                  step(trace, StepKind::ToolResult, u"ok: 3 tests passed"_s),
                  step(trace, StepKind::AssistantText, u"Done: 1.8x faster than eager."_s)};
    main.steps[1].input = trace.store(u"{\"command\":\"make\"}"_s);
    main.steps[3].input = trace.store(u"{\"command\":\"nvcc -arch=sm_90 rmsnorm.cu\"}"_s);
    trace.threads.push_back(main);
    return trace;
}

} // namespace

class TestTraceCondenser final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void bigBudget_keepsEveryStepInOrder_longOutputShortenedInTheMiddle()
    {
        const QString text = condenseTrace(session(), 100000);
        QVERIFY(text.startsWith(u"USER: Write a fused RMSNorm kernel for Flux"_s));
        QVERIFY(text.indexOf(u"__hmul2\" is undefined"_s) < text.indexOf(u"Include cuda_bf16.h"_s));
        QVERIFY(text.contains(u"LOGSTART"_s));
        QVERIFY(text.contains(u"LOGEND"_s));             // both ends kept...
        QVERIFY(text.contains(u"characters omitted"_s)); // ...the middle cut, and said so
        QVERIFY(!text.contains(u"steps omitted"_s));
    }

    void smallBudget_keepsTaskErrorAndFix_dropsRoutineOutputWithAMark()
    {
        const QString text = condenseTrace(session(), 200); // about 800 characters
        QVERIFY(text.contains(u"Write a fused RMSNorm kernel"_s));
        QVERIFY(text.contains(u"TOOL RESULT (error) Bash: error: identifier"_s));
        QVERIFY(text.contains(u"Include cuda_bf16.h"_s));
        QVERIFY(text.contains(u"nvcc -arch=sm_90"_s));
        QVERIFY(!text.contains(u"LOGSTART"_s));
        QVERIFY(text.contains(u"steps omitted ...]"_s));
        QVERIFY(text.size() <= 200 * 4 + 200);
    }

    void selectedSteps_comeFirst_evenPastTheBudget()
    {
        const Trace trace = session();
        TraceSelection selection;
        selection.steps.push_back({0, 6, u"main"_s, 0, u"tool_result"_s});
        const QString text = condenseTrace(trace, 60, &selection);
        QVERIFY(text.contains(u"ok: 3 tests passed"_s));
    }

    void subagentThreads_areHeaded()
    {
        Trace trace = session();
        TraceThread sub;
        sub.id = u"agent-1"_s;
        sub.title = u"Profile the kernel"_s;
        sub.steps = {step(trace, StepKind::AssistantText, u"ncu says 92% of peak bandwidth"_s)};
        trace.threads.push_back(sub);
        const QString text = condenseTrace(trace, 100000);
        QVERIFY(text.contains(u"## Subagent: Profile the kernel\n\nASSISTANT: ncu says 92% of peak bandwidth"_s));
    }

    void shortenMiddle_keepsShortTextWhole()
    {
        QCOMPARE(shortenMiddle(u"abc"_s, 10), u"abc"_s);
        const QString cut = shortenMiddle(u"aaaaabbbbbccccc"_s, 10);
        QVERIFY(cut.startsWith(u"aaaaa"_s));
        QVERIFY(cut.endsWith(u"ccccc"_s));
        QVERIFY(cut.contains(u"[... 5 characters omitted ...]"_s));
    }
};

SF_TEST_GUILESS_MAIN(TestTraceCondenser)
#include "test_trace_condenser.moc"
