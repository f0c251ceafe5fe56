#include "SkippedChecks.h"
#include "trace/TraceFilterModel.h"
#include "trace/TraceImport.h"
#include "trace/TraceTimelineModel.h"

#include <QAbstractItemModelTester>
#include <QStandardPaths>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

std::shared_ptr<const Trace> load(const QString &relative)
{
    Result<Trace> result = importTrace(QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/trace/") + relative);
    if (!result)
        qFatal("%s", qPrintable(result.error));
    return std::make_shared<const Trace>(std::move(*result.value));
}

} // namespace

/// The timeline's tree (subagents under their calls, thread headers for independent threads) and its filter.
class TestTraceTimelineModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); } // the shipped pricing table only

    void subagentSteps_nestedUnderTheSpawningCall()
    {
        TraceTimelineModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTrace(load(u"claude-code/nasty-session.jsonl"_s));
        QCOMPARE(model.rowCount(), 12);
        const QModelIndex task = model.index(7, 0);
        QCOMPARE(task.data(TraceTimelineModel::ToolNameRole).toString(), u"Task"_s);
        QCOMPARE(model.rowCount(task), 4);
        const QModelIndex subStep = model.index(1, 0, task);
        QCOMPARE(subStep.data(TraceTimelineModel::ThreadRole).toInt(), 1);
        QCOMPARE(subStep.parent(), task);
        QCOMPARE(model.indexFor(1, 1), subStep);
        QVERIFY(subStep.data().toString().startsWith(u"Glob"_s));
        QCOMPARE(model.displayOrder().size(), size_t(16));
        QCOMPARE(model.displayOrder()[8], std::make_pair(1, 0)); // right after the Task call
    }

    void tokensAndRunningTotal_onTheFirstStepOfAnAssistantTurn()
    {
        TraceTimelineModel model;
        model.setTrace(load(u"claude-code/nasty-session.jsonl"_s));
        const QModelIndex thinking = model.index(1, TraceTimelineModel::TokensColumn);
        QCOMPARE(thinking.data().toString(), u"in 160 · out 30"_s);
        QCOMPARE(model.index(1, TraceTimelineModel::TotalColumn).data().toString(), u"190"_s);
        QCOMPARE(model.index(1, TraceTimelineModel::ModelColumn).data().toString(), u"claude-opus-4-5"_s);
        QVERIFY(model.index(2, TraceTimelineModel::TokensColumn).data().toString().isEmpty());
        QCOMPARE(model.runningTotal(0, 3), 190 + 20 + 200 + 40 + 12);
    }

    void costAndCostSoFar_byThePricingTable_onTheFirstStepOfAPricedTurn()
    {
        TraceTimelineModel model;
        model.setTrace(load(u"claude-code/nasty-session.jsonl"_s));
        // claude-opus-4-5 at $5 / $25 / cache read $0.5 / write 5m $6.25 / 1h $10 per million tokens:
        // msg_1 (10 uncached, 100 read, 50 written 5m, 30 out) = $0.0011625; msg_2 adds $0.0009.
        QCOMPARE(model.index(1, TraceTimelineModel::CostColumn).data().toString(), u"$0.0012"_s);
        QCOMPARE(model.index(1, TraceTimelineModel::TotalCostColumn).data().toString(), u"$0.0012"_s);
        QVERIFY(model.index(2, TraceTimelineModel::CostColumn).data().toString().isEmpty());
        QCOMPARE(*model.cost().turn(0, 3), 0.0009);
        QCOMPARE(*model.cost().runningTotal(0, 3), 0.0011625 + 0.0009);
        QCOMPARE(model.headerData(TraceTimelineModel::CostColumn, Qt::Horizontal).toString(), u"Cost"_s);
    }

    void cost_modelWithoutAPrice_showsNothingAndSaysWhy()
    {
        auto trace = std::make_shared<Trace>();
        trace->format = u"claude-code"_s;
        TraceThread thread;
        TraceTurn turn;
        turn.role = u"assistant"_s;
        turn.model = u"in-house-model-7"_s;
        turn.usage = TokenUsage{100, 0, 0, 0, 50, 0};
        turn.stepCount = 1;
        thread.turns.push_back(turn);
        TraceStep step;
        step.kind = StepKind::AssistantText;
        step.turn = 0;
        step.text = trace->store(u"Hello"_s);
        thread.steps.push_back(step);
        trace->threads.push_back(std::move(thread));
        TraceTimelineModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTrace(trace);
        QVERIFY(model.index(0, TraceTimelineModel::TokensColumn).data().toString().startsWith(u"in 100"_s));
        QVERIFY(model.index(0, TraceTimelineModel::CostColumn).data().toString().isEmpty());
        QVERIFY(model.index(0, TraceTimelineModel::TotalCostColumn).data().toString().isEmpty());
        QVERIFY(model.index(0, TraceTimelineModel::CostColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(u"No price for model \"in-house-model-7\""_s));
        QVERIFY(!model.cost().hasCost());
        QCOMPARE(model.cost().unpricedTurns, 1);
    }

    void thinking_foldedUntilExpanded()
    {
        TraceTimelineModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTrace(load(u"claude-code/nasty-session.jsonl"_s));
        QVERIFY(model.index(1, 0).data().toString().contains(u"folded"_s));
        model.setThinkingExpanded(true);
        QCOMPARE(model.index(1, 0).data().toString(), u"Check the log first."_s);
    }

    void independentThreads_getHeaderRows()
    {
        TraceTimelineModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTrace(load(u"inspect/log.json"_s));
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, 0).data(TraceTimelineModel::StepRole).toInt(), -1);
        QCOMPARE(model.rowCount(model.index(0, 0)), 6);
        QCOMPARE(model.rowCount(model.index(1, 0)), 2);
        QVERIFY(model.index(1, 0).data().toString().startsWith(u"Sample b"_s));
        model.setTrace(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void filter_byKindAndTool_keepsCallsWhoseSubagentMatches()
    {
        TraceTimelineModel model;
        TraceFilterModel filter;
        filter.setSourceModel(&model);
        QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setTrace(load(u"claude-code/nasty-session.jsonl"_s));
        for (StepKind kind :
             {StepKind::UserText, StepKind::AssistantText, StepKind::Thinking, StepKind::System, StepKind::ToolResult})
            filter.setKindVisible(kind, false);
        QCOMPARE(filter.rowCount(), 3); // Bash, Read, Task
        filter.setToolName(u"Glob"_s);
        // The Glob call lives in the subagent, so its Task call stays as the path to it.
        QCOMPARE(filter.rowCount(), 1);
        QCOMPARE(filter.rowCount(filter.index(0, 0)), 1);
        filter.setToolName(QString());
        filter.setKindVisible(StepKind::ToolResult, true);
        QCOMPARE(filter.rowCount(), 6);
    }
};

SF_TEST_MAIN(TestTraceTimelineModel)
#include "test_trace_timeline_model.moc"
