#include "SkippedChecks.h"
#include "trace/TraceImport.h"

#include <QFile>
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

Trace load(const QString &path)
{
    Result<Trace> result = importTrace(path);
    if (!result) // the tests index into the trace, so stop here with the reason
        qFatal("%s", qPrintable(result.error));
    return std::move(*result.value);
}

bool anyNoteContains(const Trace &trace, const QString &text)
{
    return std::any_of(trace.notes.cbegin(), trace.notes.cend(), [&](const QString &n) { return n.contains(text); });
}

} // namespace

/// What Harbor writes: its exported traces (*.traces.json) read as conversations, and its ATIF trajectories' token
/// counts read by the convention each file follows, held against the file's own final_metrics.
class TestTraceHarbor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void importHarborTraces_list_readsEachConversationOnceWithRolesKept_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("JSON list") << u"harbor/job.traces.json"_s;
        QTest::newRow("JSON Lines") << u"harbor/job.traces.jsonl"_s;
    }

    void importHarborTraces_list_readsEachConversationOnceWithRolesKept()
    {
        // Four rows: trial A's episodes 0, 1 and 2 (each the one before plus a step) and trial B's last episode.
        // Read before as smolagents, one user step a row; now two conversations of six messages.
        QFETCH(QString, name);
        const Trace trace = load(fixture(name));
        QCOMPARE(trace.format, u"harbor-traces"_s);
        QCOMPARE(trace.title, u"fix-parse-test"_s);
        QCOMPARE(trace.threads.size(), size_t(2));
        QCOMPARE(trace.threads[0].title, u"fix-parse-test__A1 · episode-2"_s);
        QCOMPARE(trace.threads[1].title, u"fix-parse-test__B2 · episode-2"_s);
        QCOMPARE(trace.turnCount(), 12);
        const TraceThread &thread = trace.threads[0];
        QStringList roles;
        for (const TraceTurn &turn : thread.turns)
            roles.append(turn.role);
        QCOMPARE(roles, QStringList({u"user"_s, u"assistant"_s, u"user"_s, u"assistant"_s, u"user"_s, u"assistant"_s}));
        QCOMPARE(thread.turns[1].model, u"claude-sonnet-4-5"_s);
        // The assistant's "<think>…</think>", text and "<tool_call>" JSON become steps of their own.
        const TraceStats stats = TraceStats::of(trace);
        QCOMPARE(stats.stepsByKind[int(StepKind::Thinking)], 2);
        QCOMPARE(stats.stepsByKind[int(StepKind::AssistantText)], 4);
        QCOMPARE(stats.stepsByKind[int(StepKind::ToolCall)], 4);
        QCOMPARE(stats.stepsByKind[int(StepKind::UserText)], 6);
        QCOMPARE(thread.steps[1].kind, StepKind::Thinking);
        QCOMPARE(thread.steps[1].text.toString(), u"Reproduce before changing anything."_s);
        QCOMPARE(thread.steps[2].text.toString(), u"Running the tests first."_s);
        QCOMPARE(thread.steps[3].toolName.toString(), u"Bash"_s);
        QCOMPARE(thread.steps[3].input.toString(), u"{\"command\":\"pytest -q\"}"_s);
        QVERIFY(anyNoteContains(trace, u"2 of 4 rows are earlier episodes"_s));
        QVERIFY(anyNoteContains(trace, u"carry no token counts"_s));
        QCOMPARE(trace.skippedCount, 0);
    }

    void importAtif_cacheWritesApartFromPromptTokens_countedOnTop()
    {
        // Harbor's older Claude Code converter: prompt_tokens = input + cache read; the writes are only in extra.
        // Subtracting them as well left steps 1 and 2 at 0 uncached and step 3 at 600: 307 tokens low.
        const Trace trace = load(fixture(u"atif/harbor-claude-code-writes-apart.json"_s));
        const TokenUsage u = TraceStats::of(trace).usage;
        QCOMPARE(u.uncachedInput, 4 + 3 + 900);
        QCOMPARE(u.cacheRead, 5200 + 6240);
        QCOMPARE(u.cacheWrite5m, 5200 + 300);
        QCOMPARE(u.cacheWrite1h, 1040);
        QCOMPARE(u.output, 120 + 80 + 60);
        // final_metrics' 12347 prompt tokens are uncached + cache read; the writes are said to come on top.
        QCOMPARE(u.uncachedInput + u.cacheRead, 12347);
        QCOMPARE(trace.notes.size(), 1);
        QVERIFY(anyNoteContains(trace, u"leave out the cache writes"_s));
        QVERIFY(anyNoteContains(trace, u"(6540 tokens)"_s));
    }

    void importAtif_cacheWritesInsidePromptTokens_sameBucketsAsApart()
    {
        // Harbor's newer converter (ATIF-v1.7): prompt_tokens = input + cache read + cache creation, the RFC's
        // "full size of the prompt". The same run reads into the same buckets, and agrees with final_metrics.
        const Trace inside = load(fixture(u"atif/harbor-claude-code-writes-inside.json"_s));
        const Trace apart = load(fixture(u"atif/harbor-claude-code-writes-apart.json"_s));
        const TokenUsage a = TraceStats::of(inside).usage, b = TraceStats::of(apart).usage;
        QCOMPARE(a.uncachedInput, b.uncachedInput);
        QCOMPARE(a.cacheRead, b.cacheRead);
        QCOMPARE(a.cacheWrite5m, b.cacheWrite5m);
        QCOMPARE(a.cacheWrite1h, b.cacheWrite1h);
        QCOMPARE(a.output, b.output);
        QCOMPARE(a.totalInput(), 18887); // final_metrics' total_prompt_tokens
        QVERIFY2(inside.notes.isEmpty(), qPrintable(inside.notes.join(u'\n')));
    }

    void importAtif_finalMetricsOfTheMainTrajectoryOnly_noted()
    {
        // The RFC fixture's final_metrics (3040 / 245 / 1200) are its own steps'; the subagents add 840 / 45 / 0.
        const Trace trace = load(fixture(u"atif/trajectory.json"_s));
        QCOMPARE(trace.notes.size(), 1);
        QVERIFY(anyNoteContains(trace, u"count the main trajectory's own steps and agree with them"_s));
        QVERIFY(anyNoteContains(trace, u"prompt 840, completion 45, cached 0"_s));
    }

    void importAtif_finalMetricsDisagreeWithTheSteps_noted()
    {
        QFile source(fixture(u"atif/harbor-claude-code-writes-inside.json"_s));
        QVERIFY(source.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(source.readAll()).object();
        QJsonObject final = root.value(u"final_metrics"_s).toObject();
        final.insert(u"total_prompt_tokens"_s, 20000);
        root.insert(u"final_metrics"_s, final);
        QTemporaryDir dir;
        const QString path = dir.filePath(u"trajectory.json"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QJsonDocument(root).toJson());
        file.close();
        const Trace trace = load(path);
        QCOMPARE(trace.notes.size(), 1);
        QVERIFY(anyNoteContains(trace, u"final_metrics say prompt 20000, completion 260, cached 11440, but the "
                                       "steps add up to prompt 18887"_s));
    }
};

SF_TEST_GUILESS_MAIN(TestTraceHarbor)
#include "test_trace_harbor.moc"
