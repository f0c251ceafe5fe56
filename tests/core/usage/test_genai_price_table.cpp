#include "SkippedChecks.h"
#include "usage/GenaiPriceTable.h"

#include <QFile>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

// genai-prices' v2 data.json shape (prices/new_data/v2/data.json): providers, match clauses, dated and tiered prices,
// an off-peak window and a provider that resells another's models.
QByteArray sampleTable()
{
    QFile file(QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/pricing/genai-prices-sample.json"));
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

GenaiPriceTable parsed()
{
    const Result<GenaiPriceTable> result = GenaiPriceTable::fromJson(sampleTable(), u"data.json"_s);
    if (!result)
        qFatal("%s", qPrintable(result.error));
    return *result.value;
}

QDateTime utc(int year, int month, int day, int hour = 12, int minute = 0)
{
    return QDateTime(QDate(year, month, day), QTime(hour, minute), Qt::UTC);
}

} // namespace

/// pydantic's genai-prices table read as genai-prices itself reads it.
class TestGenaiPriceTable final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void matchRules_areCaseInsensitive_andTheFirstMatchingModelWins()
    {
        const GenaiPriceTable prices = parsed();
        QCOMPARE(prices.providerCount(), 4);
        QCOMPARE(prices.modelCount(), 7);
        QCOMPARE(prices.ratesFor(u"anthropic"_s, u"Claude-Big-4.6-20260205"_s, utc(2026, 6, 1))->modelName,
                 u"Claude Big 4.6"_s);
        QVERIFY(prices.ratesFor(u"anthropic"_s, u"claude-dated-20260101"_s, utc(2026, 6, 1)));
        QVERIFY(!prices.ratesFor(u"anthropic"_s, u"claude-dated-2026"_s, utc(2026, 6, 1)));
        // An exact rule reaches no further than its id: the deep-research model has its own, higher price.
        QCOMPARE(prices.ratesFor(u"openai"_s, u"o4-mini-deep-research"_s, utc(2026, 6, 1))->input.usdPerMillion, 2.0);
        QCOMPARE(prices.ratesFor(u"openai"_s, u"o4-mini"_s, utc(2026, 6, 1))->input.usdPerMillion, 1.1);
        QVERIFY(!prices.ratesFor(u"openai"_s, u"o4-mini-high-research"_s, utc(2026, 6, 1)));
        QVERIFY(!prices.ratesFor(u"mistral"_s, u"o4-mini"_s, utc(2026, 6, 1)));
    }

    void compactDates_andFallbackProviders_asGenaiPricesLooksUp()
    {
        const GenaiPriceTable prices = parsed();
        QCOMPARE(prices.ratesFor(u"openai"_s, u"gpt-9.2-20261211"_s, utc(2026, 12, 12))->output.usdPerMillion, 9.0);
        QCOMPARE(prices.ratesFor(u"aws"_s, u"claude-dated"_s, utc(2026, 6, 1))->input.usdPerMillion, 1.0);
        QCOMPARE(prices.ratesFor(u"anthropic-vertex"_s, u"claude-dated"_s, utc(2026, 6, 1))->input.usdPerMillion,
                 1.0); // found by the provider's own match rule
    }

    void datedPrices_theLastOneInForceWins_theFirstBeforeAny()
    {
        const GenaiPriceTable prices = parsed();
        const ModelRates before = *prices.ratesFor(u"anthropic"_s, u"claude-big-4-6"_s, utc(2026, 3, 12, 23, 59));
        QCOMPARE(before.input.at(200000), 5.0);
        QCOMPARE(before.input.at(200001), 10.0);
        QCOMPARE(before.output.at(250000), 37.5);
        QCOMPARE(before.cacheRead.at(250000), 1.0);
        QCOMPARE(before.cacheWrite5m.at(250000), 12.5);
        QCOMPARE(before.cacheWrite1h.at(250000), 20.0);
        QVERIFY(!before.since.isValid());
        const ModelRates after = *prices.ratesFor(u"anthropic"_s, u"claude-big-4-6"_s, utc(2026, 3, 13, 0, 0));
        QCOMPARE(after.input.at(250000), 5.0);
        QCOMPARE(after.since, QDate(2026, 3, 13));
        QCOMPARE(after.origin, u"genai-prices: anthropic/claude-big-4-6"_s);

        TokenUsage longRequest;
        longRequest.uncachedInput = 150000;
        longRequest.cacheRead = 60000;
        longRequest.cacheWrite1h = 1000;
        longRequest.output = 2000;
        QCOMPARE(before.costOf(longRequest), (150000 * 10.0 + 60000 * 1.0 + 1000 * 20.0 + 2000 * 37.5) / 1e6);
        QCOMPARE(after.costOf(longRequest), (150000 * 5.0 + 60000 * 0.5 + 1000 * 10.0 + 2000 * 25.0) / 1e6);
    }

    void timeOfDayPrices_offPeakWrapsPastMidnight()
    {
        const GenaiPriceTable prices = parsed();
        QCOMPARE(prices.ratesFor(u"deepseek"_s, u"deepseek-chat"_s, utc(2026, 6, 1, 12))->input.usdPerMillion, 0.27);
        QCOMPARE(prices.ratesFor(u"deepseek"_s, u"deepseek-chat"_s, utc(2026, 6, 1, 17))->input.usdPerMillion, 0.135);
        QCOMPARE(prices.ratesFor(u"deepseek"_s, u"deepseek-chat"_s, utc(2026, 6, 2, 0, 10))->input.usdPerMillion,
                 0.135);
        QCOMPARE(prices.ratesFor(u"deepseek"_s, u"deepseek-chat"_s, utc(2026, 6, 2, 0, 30))->input.usdPerMillion, 0.27);
    }

    void missingCachePrices_billAsInput_andAModelWithoutTokenPricesHasNone()
    {
        const GenaiPriceTable prices = parsed();
        const ModelRates dated = *prices.ratesFor(u"anthropic"_s, u"claude-dated"_s, utc(2026, 6, 1));
        QCOMPARE(dated.cacheRead.usdPerMillion, 1.0);
        QCOMPARE(dated.cacheWrite5m.usdPerMillion, 1.0);
        QCOMPARE(dated.cacheWrite1h.usdPerMillion, 1.0);
        const ModelRates mini = *prices.ratesFor(u"openai"_s, u"o4-mini"_s, utc(2026, 6, 1));
        QCOMPARE(mini.cacheRead.usdPerMillion, 0.275);
        QCOMPARE(mini.cacheWrite5m.usdPerMillion, 1.1);
        QVERIFY(!prices.ratesFor(u"anthropic"_s, u"claude-embed"_s, utc(2026, 6, 1)));
    }

    void badTables_errorsNameFileLineAndProblem()
    {
        Result<GenaiPriceTable> result =
            GenaiPriceTable::fromJson(sampleTable().left(sampleTable().size() / 2), u"cut.json"_s);
        QVERIFY(!result.ok());
        QVERIFY2(result.error.startsWith("cut.json:"_L1) && result.error.contains("not valid JSON"_L1),
                 qPrintable(result.error));

        result = GenaiPriceTable::fromJson("{\"prices\": []}", u"pricing.json"_s);
        QVERIFY2(!result.ok() && result.error.contains("list of providers"_L1), qPrintable(result.error));

        result = GenaiPriceTable::fromJson(
            "[{\"id\": \"x\", \"models\": [\n"
            "  {\"id\": \"fine\", \"match\": {\"equals\": \"fine\"}, \"prices\": {\"input_mtok\": 1}},\n"
            "  {\"id\": \"broken\", \"match\": {\"regex\": \"[unclosed\"}, \"prices\": "
            "{\"input_mtok\": 1}}]}]",
            u"data.json"_s);
        QVERIFY(!result.ok());
        QVERIFY2(result.error.startsWith("data.json:3:"_L1) && result.error.contains("broken"_L1) &&
                     result.error.contains("regex"_L1),
                 qPrintable(result.error));

        result = GenaiPriceTable::fromJson(
            "[{\"id\": \"x\", \"models\": [\n"
            "  {\"id\": \"odd\", \"match\": {\"equals\": \"odd\"}, \"prices\": {\"input_mtok\": \"cheap\"}}]}]",
            u"data.json"_s);
        QVERIFY2(!result.ok() && result.error.startsWith("data.json:2:"_L1) && result.error.contains("input_mtok"_L1),
                 qPrintable(result.error));

        // A per-request fee that is not a number is refused, not read as no fee.
        result = GenaiPriceTable::fromJson("[{\"id\": \"x\", \"models\": [\n"
                                           "  {\"id\": \"fee\", \"match\": {\"equals\": \"fee\"}, \"prices\": "
                                           "{\"input_mtok\": 1, \"requests_kcount\": "
                                           "\"a lot\"}}]}]",
                                           u"data.json"_s);
        QVERIFY2(!result.ok() && result.error.startsWith("data.json:2:"_L1) &&
                     result.error.contains("requests_kcount"_L1),
                 qPrintable(result.error));
    }
};

SF_TEST_GUILESS_MAIN(TestGenaiPriceTable)
#include "test_genai_price_table.moc"
