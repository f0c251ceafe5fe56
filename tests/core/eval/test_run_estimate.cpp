#include "eval/RunEstimate.h"
#include "llm/LocalRuntime.h"

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

    void roughDuration_speaksInWholeUnits()
    {
        QCOMPARE(roughDuration(3), u"about 10 s"_s);
        QCOMPARE(roughDuration(44), u"about 40 s"_s);
        QCOMPARE(roughDuration(600), u"about 10 min"_s);
        QCOMPARE(roughDuration(3 * 3600), u"about 3.0 h"_s);
    }
};

QTEST_GUILESS_MAIN(TestRunEstimate)
#include "test_run_estimate.moc"
