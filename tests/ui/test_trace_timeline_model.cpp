#include "trace/TraceFilterModel.h"
#include "trace/TraceImport.h"
#include "trace/TraceTimelineModel.h"

#include <QAbstractItemModelTester>
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

QTEST_MAIN(TestTraceTimelineModel)
#include "test_trace_timeline_model.moc"
