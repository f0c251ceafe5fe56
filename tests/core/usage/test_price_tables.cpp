#include "SkippedChecks.h"
#include "trace/TraceCost.h"
#include "usage/OpenAiUsage.h"
#include "usage/PriceTableUpdate.h"
#include "usage/Pricing.h"

#include <QFile>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

QDateTime utc(int year, int month, int day)
{
    return QDateTime(QDate(year, month, day), QTime(12, 0), Qt::UTC);
}

std::optional<ModelRates> price(const QString &model, QDate day)
{
    return Pricing::current()->priceFor(model, day);
}

QByteArray shippedGenaiTable()
{
    QFile file(QStringLiteral(SKILLFORGE_SOURCE_DIR) + u"/resources/pricing/genai-prices.json"_s);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

/// The prices Skillforge ships: genai-prices with Skillforge's own small table on top, pinned to the figures each
/// model's provider publishes and the day each took effect (issue 36).
class TestPriceTables final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        // Updates are kept under the home directory: a private one, so no other test sees them.
        QVERIFY(m_home.isValid());
        qputenv("HOME", QFile::encodeName(m_home.path()));
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY2(Pricing::current()->maintained(), "the shipped genai-prices table must read");
        QVERIFY(Pricing::current()->maintained()->modelCount() > 1000);
    }

    void sonnet55_cacheReadsCostWhatEachDaysPriceSays()
    {
        QCOMPARE(price(u"anthropic:claude-sonnet-5-5"_s, QDate(2026, 10, 1))->cacheRead.usdPerMillion, 0.2);
        QCOMPARE(price(u"anthropic:claude-sonnet-5-5"_s, QDate(2026, 10, 6))->cacheRead.usdPerMillion, 0.2);
        QCOMPARE(price(u"anthropic:claude-sonnet-5-5"_s, QDate(2026, 10, 7))->cacheRead.usdPerMillion, 0.1);
        QCOMPARE(price(u"anthropic:claude-sonnet-5-5-20260928"_s, QDate(2026, 11, 1))->cacheRead.usdPerMillion, 0.1);
        TokenUsage usage;
        usage.cacheRead = 1'000'000;
        usage.output = 1000;
        QCOMPARE(*Pricing::costFor(u"anthropic:claude-sonnet-5-5"_s, usage, utc(2026, 10, 1)), 0.2 + 0.01);
        QCOMPARE(*Pricing::costFor(u"anthropic:claude-sonnet-5-5"_s, usage, utc(2026, 11, 1)), 0.1 + 0.01);
        QVERIFY(
            price(u"anthropic:claude-sonnet-5-5"_s, QDate(2026, 10, 1))->origin.startsWith("Skillforge's table"_L1));
        QVERIFY(price(u"anthropic:claude-sonnet-5-5"_s, QDate(2026, 11, 1))->origin.startsWith("genai-prices"_L1));
    }

    void longContextTiers_billEveryTokenOfALongRequest_whileTheyWereInForce()
    {
        // Opus 4.6: above 200K input tokens 10 / 37.5, cache 1 / 12.5 / 20, until 2026-03-12.
        const ModelRates opus = *price(u"anthropic:claude-opus-4-6"_s, QDate(2026, 3, 12));
        QCOMPARE(opus.input.at(200001), 10.0);
        QCOMPARE(opus.output.at(200001), 37.5);
        QCOMPARE(opus.cacheRead.at(200001), 1.0);
        QCOMPARE(opus.cacheWrite5m.at(200001), 12.5);
        QCOMPARE(opus.cacheWrite1h.at(200001), 20.0);
        QCOMPARE(opus.input.at(200000), 5.0);
        QCOMPARE(price(u"anthropic:claude-opus-4-6"_s, QDate(2026, 3, 13))->input.at(500000), 5.0);

        // Sonnet 4, 4.5 (1M-context beta) and 4.6: above 200K 6 / 22.5 until 2026-03-13.
        for (const QString &model : {u"anthropic:claude-sonnet-4-20250514"_s, u"anthropic:claude-sonnet-4-5"_s,
                                     u"anthropic:claude-sonnet-4-6"_s}) {
            const ModelRates sonnet = *price(model, QDate(2026, 3, 12));
            QCOMPARE(sonnet.input.at(250000), 6.0);
            QCOMPARE(sonnet.output.at(250000), 22.5);
            QCOMPARE(sonnet.output.at(150000), 15.0);
        }
        QCOMPARE(price(u"anthropic:claude-sonnet-4-6"_s, QDate(2026, 3, 13))->output.at(250000), 15.0);
        QCOMPARE(price(u"anthropic:claude-sonnet-4"_s, QDate(2026, 3, 13))->output.at(250000), 15.0);

        TokenUsage longRequest;
        longRequest.uncachedInput = 250000;
        longRequest.output = 2000;
        QCOMPARE(*Pricing::costFor(u"anthropic:claude-sonnet-4-6"_s, longRequest, utc(2026, 3, 1)),
                 (250000 * 6.0 + 2000 * 22.5) / 1e6);
        QCOMPARE(*Pricing::costFor(u"anthropic:claude-sonnet-4-6"_s, longRequest, utc(2026, 4, 1)),
                 (250000 * 3.0 + 2000 * 15.0) / 1e6);
    }

    void longContextTiers_haiku55Above100K_openAiAbove272K_billAtTheTablesRates()
    {
        // genai-prices: Haiku 5.5 is 0.1 / 0.5 / 0.01 / 0.125 / 0.2, and 0.5 / 2.5 / 0.05 / 0.625 / 1 above 100K.
        const QDate today(2026, 12, 6);
        const ModelRates haiku = *price(u"anthropic:claude-haiku-5-5"_s, today);
        QCOMPARE(haiku.input.at(100000), 0.1);
        QCOMPARE(haiku.output.at(100000), 0.5);
        QCOMPARE(haiku.input.at(100001), 0.5);
        QCOMPARE(haiku.output.at(100001), 2.5);
        QCOMPARE(haiku.cacheRead.at(100001), 0.05);
        QCOMPARE(haiku.cacheWrite5m.at(100001), 0.625);
        QCOMPARE(haiku.cacheWrite1h.at(100001), 1.0);

        // GPT-5.5: 5 / 30 / cache 0.5, doubled input and cache and 1.5x output above 272K.
        const ModelRates gpt55 = *price(u"openai:gpt-5.5"_s, today);
        QCOMPARE(gpt55.input.at(272000), 5.0);
        QCOMPARE(gpt55.output.at(272000), 30.0);
        QCOMPARE(gpt55.input.at(272001), 10.0);
        QCOMPARE(gpt55.output.at(272001), 45.0);
        QCOMPARE(gpt55.cacheRead.at(272001), 1.0);
        // GPT-6.2 Astra: 8 / 40, 16 / 60 above 272K.
        const ModelRates astra = *price(u"openai:gpt-6.2-astra"_s, today);
        QCOMPARE(astra.input.at(272001), 16.0);
        QCOMPARE(astra.output.at(272001), 60.0);

        // Every token of the long request, cached ones counting toward the threshold, is billed at the tier's rate.
        TokenUsage longRequest;
        longRequest.uncachedInput = 72001;
        longRequest.cacheRead = 200000;
        longRequest.output = 1000;
        QCOMPARE(*Pricing::costFor(u"openai:gpt-5.5"_s, longRequest, utc(2026, 12, 6)),
                 (72001 * 10.0 + 200000 * 1.0 + 1000 * 45.0) / 1e6);
        longRequest.uncachedInput = 72000;
        QCOMPARE(*Pricing::costFor(u"openai:gpt-5.5"_s, longRequest, utc(2026, 12, 6)),
                 (72000 * 5.0 + 200000 * 0.5 + 1000 * 30.0) / 1e6);
        TokenUsage haikuRequest;
        haikuRequest.uncachedInput = 100001;
        haikuRequest.output = 1000;
        QCOMPARE(*Pricing::costFor(u"anthropic:claude-haiku-5-5"_s, haikuRequest, utc(2026, 12, 6)),
                 (100001 * 0.5 + 1000 * 2.5) / 1e6);
    }

    void gpt5PointReleaseWithoutAConfirmedPrice_isUnpriced_notPricedAsItsElder()
    {
        const QDate today(2026, 12, 6);
        // The families and their dated snapshots are priced...
        QCOMPARE(price(u"openai:gpt-5"_s, today)->input.usdPerMillion, 1.25);
        QCOMPARE(price(u"openai:gpt-5-2025-08-07"_s, today)->input.usdPerMillion, 1.25);
        QCOMPARE(price(u"openai:gpt-5.4"_s, today)->input.usdPerMillion, 2.5);
        QCOMPARE(price(u"openai:gpt-5.4-2026-03-05"_s, today)->input.usdPerMillion, 2.5);
        // ...a point release or sub-release no table confirms is not (gpt-5.3 itself is priced in genai-prices).
        for (const QString &model : {u"openai:gpt-5.7"_s, u"openai:gpt-5.4.1"_s, u"openai:gpt-5.5.2"_s,
                                     u"openai:gpt-5.9-chat-latest"_s, u"openai:gpt-5-turbo"_s})
            QVERIFY2(!price(model, today), qPrintable(model + u" has a price"_s));
        TokenUsage usage;
        usage.output = 1000;
        QVERIFY(!Pricing::costFor(u"openai:gpt-5.7"_s, usage, utc(2026, 12, 6)));
    }

    void modelsReleasedBeforeToday_havePrices()
    {
        const QDate today(2026, 12, 6);
        for (const QString &model : {u"anthropic:claude-fable-5-2"_s, u"anthropic:claude-mythos-5-2"_s}) {
            QCOMPARE(price(model, today)->input.usdPerMillion, 8.0);
            QCOMPARE(price(model, today)->output.usdPerMillion, 40.0);
        }
        for (const QString &model : {u"openai:gpt-6.1-sol"_s, u"openai:gpt-6.1-terra"_s, u"openai:gpt-6.2-astra"_s,
                                     u"openai:gpt-5.6-sol"_s, u"openai:gpt-5.5"_s})
            QVERIFY2(price(model, today), qPrintable(model));
        QCOMPARE(price(u"openai:gpt-6.2-astra"_s, today)->output.usdPerMillion, 40.0);
        QCOMPARE(price(u"openai:gpt-5.5"_s, today)->input.usdPerMillion, 5.0);
    }

    void openAiCacheWrites_areBilledAtTheirOwnRate()
    {
        // GPT-6.1 Sol: input 2, cache writes 1.25x input.
        const ModelRates sol = *price(u"openai:gpt-6.1-sol"_s, QDate(2026, 12, 6));
        QCOMPARE(sol.cacheWrite5m.usdPerMillion, 2.5);
        const TokenUsage usage = openAiChatUsage(QJsonDocument::fromJson(R"({"prompt_tokens": 10000,
            "completion_tokens": 100, "prompt_tokens_details": {"cached_tokens": 6000, "cache_write_tokens": 3000}})")
                                                     .object());
        QCOMPARE(usage.uncachedInput, 1000);
        QCOMPARE(usage.cacheRead, 6000);
        QCOMPARE(usage.cacheWrite5m, 3000);
        QCOMPARE(sol.costOf(usage), (1000 * 2.0 + 6000 * 0.1 + 3000 * 2.5 + 100 * 10.0) / 1e6);
    }

    void patternsReachNoFurtherThanTheirModel_andUnknownStaysUnknown()
    {
        const QDate today(2026, 12, 6);
        QCOMPARE(price(u"openai:o4-mini-deep-research"_s, today)->input.usdPerMillion, 2.0);
        QCOMPARE(price(u"openai:o4-mini"_s, today)->input.usdPerMillion, 1.1);
        QCOMPARE(price(u"openai:o3"_s, QDate(2025, 6, 1))->input.usdPerMillion, 10.0);
        QCOMPARE(price(u"openai:o3"_s, QDate(2025, 6, 10))->input.usdPerMillion, 2.0);
        QVERIFY(!price(u"openai:gpt-6-sol-imaginary"_s, today));
        QVERIFY(!price(u"anthropic:claude-nonesuch-9"_s, today));
        QVERIFY(!price(u"hf:moonshotai/Kimi-K2.6"_s, today)); // the router's choice of provider decides the price
        QVERIFY(!price(u"generic:my-model"_s, today));
        TokenUsage usage;
        usage.output = 1000;
        QVERIFY(!Pricing::costFor(u"openai:gpt-6-sol-imaginary"_s, usage));
        QCOMPARE(Pricing::costFor(u"local:gemma-3-270m"_s, usage), std::optional<double>(0.0));
        // Ollama serves models on the user's own hardware and bills no tokens (a paid host goes in pricing.json).
        QCOMPARE(Pricing::costFor(u"ollama:llama3.2"_s, usage), std::optional<double>(0.0));
    }

    void huggingFaceRoutes_fromGenaiPricesOrSkillforgesTable()
    {
        const QDate today(2026, 12, 6);
        const ModelRates gptOss = *price(u"hf:openai/gpt-oss-120b:fireworks-ai"_s, today);
        QVERIFY2(gptOss.origin.startsWith("genai-prices: huggingface_fireworks-ai/"_L1), qPrintable(gptOss.origin));
        const ModelRates kimi = *price(u"hf:moonshotai/Kimi-K2.6:fireworks-ai"_s, today);
        QCOMPARE(kimi.output.usdPerMillion, 4.0);
        QVERIFY(kimi.origin.startsWith("Skillforge's table"_L1));
    }

    void traceTurns_arePricedAtTheirOwnTime()
    {
        Trace trace;
        trace.format = u"claude-code"_s;
        TraceThread thread;
        TokenUsage usage;
        usage.cacheRead = 1'000'000;
        for (const QString &when : {u"2026-10-01T09:00:00.000Z"_s, u"2026-11-01T09:00:00.000Z"_s}) {
            TraceTurn turn;
            turn.role = u"assistant"_s;
            turn.model = u"claude-sonnet-5-5"_s;
            turn.timestamp = trace.store(when);
            turn.usage = usage;
            thread.turns.push_back(turn);
        }
        trace.threads.push_back(std::move(thread));
        const TraceCost cost = TraceCost::of(trace);
        QCOMPARE(cost.turn(0, 0), std::optional<double>(0.2));
        QCOMPARE(cost.turn(0, 1), std::optional<double>(0.1));
    }

    void update_installsANewerTable_andRefusesOneThatDoesNotRead()
    {
        // A table with one change: Sonnet 5.5's output at $11.
        QByteArray newer = shippedGenaiTable();
        QVERIFY(!newer.isEmpty());
        const QByteArray before = R"("id":"claude-sonnet-5-5",)";
        const qsizetype model = newer.indexOf(before);
        QVERIFY(model > 0);
        const qsizetype output = newer.indexOf(R"("output_mtok":10)", model);
        newer.replace(output, qsizetype(strlen(R"("output_mtok":10)")), R"("output_mtok":11)");

        const Result<PriceTableSummary> installed = installPriceTable(newer, u"/tmp/newer-data.json"_s);
        QVERIFY2(installed.ok(), qPrintable(installed.error));
        QVERIFY(installed.value->models > 1000);
        QCOMPARE(price(u"anthropic:claude-sonnet-5-5"_s, QDate(2026, 12, 6))->output.usdPerMillion, 11.0);
        QVERIFY(Pricing::current()->maintainedOrigin()->description.contains("/tmp/newer-data.json"_L1));

        // Cut off half-way, as a failed download is: refused with the file and line, the table in use kept.
        Result<PriceTableSummary> refused = installPriceTable(newer.left(newer.size() / 3), u"/tmp/cut.json"_s);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error.startsWith("/tmp/cut.json:1:"_L1) && refused.error.contains("kept"_L1),
                 qPrintable(refused.error));
        QCOMPARE(price(u"anthropic:claude-sonnet-5-5"_s, QDate(2026, 12, 6))->output.usdPerMillion, 11.0);

        // Reads, but is not a price table Skillforge can use.
        refused = installPriceTable(R"([{"id": "someone", "models": []}])", u"other.json"_s);
        QVERIFY2(!refused.ok() && refused.error.contains("Claude Sonnet 4.5"_L1), qPrintable(refused.error));
        refused = installPriceTable(R"({"prices": []})", u"pricing.json"_s);
        QVERIFY2(!refused.ok() && refused.error.contains("list of providers"_L1), qPrintable(refused.error));
        QCOMPARE(price(u"anthropic:claude-sonnet-5-5"_s, QDate(2026, 12, 6))->output.usdPerMillion, 11.0);

        // An installed table that no longer reads (edited by hand) is passed over for the shipped one.
        QFile broken(Pricing::updatedTablePath());
        QVERIFY(broken.open(QIODevice::WriteOnly | QIODevice::Truncate));
        broken.write("[{");
        broken.close();
        Pricing::reload();
        QCOMPARE(price(u"anthropic:claude-sonnet-5-5"_s, QDate(2026, 12, 6))->output.usdPerMillion, 10.0);
        QVERIFY(Pricing::current()->maintainedOrigin()->description.contains("shipped"_L1));
    }

private:
    QTemporaryDir m_home;
};

SF_TEST_GUILESS_MAIN(TestPriceTables)
#include "test_price_tables.moc"
