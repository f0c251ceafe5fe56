#include "SkippedChecks.h"
#include "eval/RunEstimate.h"
#include "eval/RunStore.h"
#include "llm/LocalRuntime.h"

#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

TestSuite suiteWithRepeats(int a, int b)
{
    TestSuite suite;
    TestCase first;
    first.id = u"a"_s;
    first.repeats = a;
    TestCase second;
    second.id = u"b"_s;
    second.repeats = b;
    suite.cases = {first, second};
    return suite;
}

/// A finished run in @p runsDir: @p count items of @p model per arm that each took @p seconds, at @p concurrency.
void writeRun(const QString &runsDir, const QString &model, int count, double seconds, int concurrency, int errors = 0)
{
    EvalConfig config;
    config.models = {model};
    config.concurrency = concurrency;
    RunManifest manifest;
    manifest.parameters = config.toJson();
    auto created = RunStore::create(runsDir, manifest);
    QVERIFY(std::holds_alternative<RunStore>(created));
    RunStore &store = std::get<RunStore>(created);
    for (int i = 0; i < count + errors; ++i) {
        for (const QString &arm : {kWithSkillArm, kBaselineArm}) {
            ItemResult item;
            item.key = {model, arm, u"case-%1"_s.arg(i), 1};
            item.latencyMs = i < count ? qint64(seconds * 1000) : 5;
            item.stopReason = i < count ? StopReason::Answered : StopReason::Error;
            item.error = i < count ? QString() : u"connection refused"_s;
            QVERIFY(store.append(item).isEmpty());
        }
    }
    store.releaseWriterLock();
}

TestSuite suiteOf(int cases)
{
    TestSuite suite;
    for (int i = 0; i < cases; ++i) {
        TestCase c;
        c.id = u"case-%1"_s.arg(i);
        suite.cases.append(c);
    }
    return suite;
}

} // namespace

class TestRunEstimate final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void items_countModelsArmsAndEachCasesOwnRepeats()
    {
        EvalConfig config;
        config.models = {LocalRuntime::qualifiedModelName(), u"openai:gpt-4.1"_s};
        config.runs = 1;
        const RunEstimate estimate = estimateRun(suiteWithRepeats(3, 0), config, 1000);
        QCOMPARE(estimate.items, 2 * 2 * (3 + 1)); // case a runs 3 times (its own), b once (the run's)
        QCOMPARE(estimate.casesOwnRepeats, 1);
        QVERIFY(estimate.seconds > 0);
    }

    void localTime_growsWithTheSkill_andShrinksWithConcurrency()
    {
        EvalConfig config;
        config.models = {LocalRuntime::qualifiedModelName()};
        config.concurrency = 1;
        const TestSuite suite = suiteWithRepeats(2, 2);
        const qint64 small = estimateRun(suite, config, 100).seconds;
        const qint64 large = estimateRun(suite, config, 4000).seconds;
        QVERIFY2(large > small, qPrintable(u"%1 vs %2"_s.arg(large).arg(small)));
        config.concurrency = 4;
        QVERIFY(estimateRun(suite, config, 4000).seconds < large);
    }

    // Issue 35, item 18: "about 30 s" for 2 local items that took 3:41. Once the embedded model has run, its pace is
    // what it measured: the next run of the same shape is estimated at what the last one took.
    void localModel_estimatedFromItsMeasuredPace()
    {
        QTemporaryDir runs;
        const QString local = LocalRuntime::qualifiedModelName();
        writeRun(runs.path(), local, 1, 221, 4); // one case, both arms side by side: 3:41 each
        const MeasuredPace pace = measuredPace(runs.path());
        QVERIFY(pace.of(local));
        QCOMPARE(pace.of(local)->items, 2);
        EvalConfig config;
        config.models = {local};
        config.concurrency = 4;
        const RunEstimate estimate = estimateRun(suiteOf(1), config, 1000, pace);
        QCOMPARE(estimate.items, 2);
        QVERIFY2(std::abs(estimate.seconds - 221) <= 2, qPrintable(QString::number(estimate.seconds)));
        QCOMPARE(estimate.measured, QStringList{local});
        QVERIFY(estimate.guessed.isEmpty());
        // Alone, one item after the other, the same two take longer in all but less than twice as long.
        config.concurrency = 1;
        const qint64 alone = estimateRun(suiteOf(1), config, 1000, pace).seconds;
        QVERIFY2(alone > 221 && alone < 2 * 221, qPrintable(QString::number(alone)));
    }

    // "about 5 min" for a run that took 26 s: a remote model that answered in about a second is estimated so.
    void remoteModel_estimatedFromItsMeasuredPace_errorsLeftOut()
    {
        QTemporaryDir runs;
        writeRun(runs.path(), u"openai:gpt-4.1-mini"_s, 40, 1.25, 4, 3);
        const MeasuredPace pace = measuredPace(runs.path());
        QCOMPARE(pace.of(u"openai:gpt-4.1-mini"_s)->items, 80); // the 6 errors say nothing of its pace
        QCOMPARE(pace.of(u"openai:gpt-4.1-mini"_s)->secondsPerItem, 1.25);
        EvalConfig config;
        config.models = {u"openai:gpt-4.1-mini"_s};
        config.concurrency = 4;
        const RunEstimate estimate = estimateRun(suiteOf(40), config, 1000, pace);
        QCOMPARE(estimate.items, 80);
        QCOMPARE(estimate.seconds, qint64(25));
        QCOMPARE(roughDuration(estimate.seconds), u"about 30 s"_s);
    }

    // Never run before: a first guess that errs long rather than short (the 2 local items guessed at 30 s).
    void firstGuess_forTheEmbeddedModel_isConservative()
    {
        EvalConfig config;
        config.models = {LocalRuntime::qualifiedModelName()};
        config.concurrency = 4;
        const RunEstimate estimate = estimateRun(suiteOf(1), config, 1000);
        QCOMPARE(estimate.guessed, QStringList{LocalRuntime::qualifiedModelName()});
        QVERIFY(estimate.measured.isEmpty());
        QVERIFY2(estimate.seconds >= 60, qPrintable(QString::number(estimate.seconds)));
        config.studentTools = ToolOffer::Always; // more model calls per item
        QVERIFY(estimateRun(suiteOf(1), config, 1000).seconds > estimate.seconds);
    }

    void remaining_fromTheItemsFinished_elseFromTheEstimate()
    {
        QCOMPARE(remainingSeconds(20000, 2, 6), qint64(60)); // 10 s an item so far, 6 to go
        QCOMPARE(remainingSeconds(5000, 0, 6, 100), qint64(95));
        QCOMPARE(remainingSeconds(120000, 0, 6, 100), qint64(-1)); // past the guess, nothing finished
        QCOMPARE(remainingSeconds(5000, 0, 6), qint64(-1));
        QCOMPARE(remainingSeconds(5000, 3, 0), qint64(0));
    }

    void roughDuration_speaksInWholeUnits()
    {
        QCOMPARE(roughDuration(3), u"about 10 s"_s);
        QCOMPARE(roughDuration(44), u"about 40 s"_s);
        QCOMPARE(roughDuration(600), u"about 10 min"_s);
        QCOMPARE(roughDuration(3 * 3600), u"about 3.0 h"_s);
    }
};

SF_TEST_GUILESS_MAIN(TestRunEstimate)
#include "test_run_estimate.moc"
