#include "SkippedChecks.h"
#include "usage/Pricing.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

const QByteArray table = R"({"prices": [
  {"pattern": "anthropic:claude-opus-4-5*", "effective": "2025-11-24",
   "usdPerMillionTokens": {"input": 5, "output": 25, "cacheRead": 0.5, "cacheWrite5m": 6.25, "cacheWrite1h": 10}},
  {"pattern": "openai:gpt-4.1*", "effective": "2025-04-14", "usdPerMillionTokens": {"input": 2, "output": 8, "cacheRead": 0.5}},
  {"pattern": "openai:gpt-4.1-mini*", "effective": "2025-04-14", "usdPerMillionTokens": {"input": 0.4, "output": 1.6}},
  {"pattern": "openai:gpt-4.1*", "effective": "2026-01-01", "usdPerMillionTokens": {"input": 1, "output": 4}}
]})";

Pricing parsed(const QByteArray &json)
{
    const Result<Pricing> result = Pricing::fromJson(json, u"pricing.json"_s);
    return result ? *result.value : Pricing();
}

} // namespace

class TestPricing final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void cost_addsEveryBucketAtItsOwnPrice()
    {
        TokenUsage usage;
        usage.uncachedInput = 1000;
        usage.cacheRead = 2000;
        usage.cacheWrite5m = 400;
        usage.cacheWrite1h = 100;
        usage.output = 300;
        usage.reasoning = 200; // inside output: not billed a second time
        const std::optional<double> cost =
            parsed(table).cost(u"anthropic:claude-opus-4-5-20251101"_s, usage, QDate(2025, 12, 1));
        QVERIFY(cost);
        QVERIFY(cost);
        const double expected = (1000 * 5 + 2000 * 0.5 + 400 * 6.25 + 100 * 10 + 300 * 25) / 1e6;
        QCOMPARE(*cost, expected);
    }

    void unpricedModel_hasNoCost_notZero()
    {
        TokenUsage usage;
        usage.output = 10;
        QVERIFY(!parsed(table).cost(u"hf:moonshotai/Kimi-K2"_s, usage));
        QVERIFY(!parsed(table).priceFor(u"anthropic:claude-opus-4-1"_s));
    }

    // What a report's Prices line says of a model no table prices: that, not "from price unknown" (issue 54).
    void sourcesOf_namesTheTableOfEachModel_andAnUnpricedOneAsUnknown()
    {
        const QString text = parsed(table).sourcesOf({u"openai:gpt-4.1"_s, u"generic:echo"_s},
                                                     QDateTime(QDate(2025, 6, 1), QTime(12, 0), Qt::UTC));
        QVERIFY2(text.startsWith(u"in force on 2025-06-01: openai:gpt-4.1 from "_s), qPrintable(text));
        QVERIFY2(text.endsWith(u"; generic:echo: price unknown"_s), qPrintable(text));
    }

    void longestPatternWins_andDatesChooseTheEntryInForce()
    {
        const Pricing pricing = parsed(table);
        QCOMPARE(pricing.priceFor(u"openai:gpt-4.1-mini"_s, QDate(2025, 6, 1))->input.usdPerMillion, 0.4);
        QCOMPARE(pricing.priceFor(u"openai:gpt-4.1"_s, QDate(2025, 6, 1))->input.usdPerMillion, 2.0);
        QCOMPARE(pricing.priceFor(u"openai:gpt-4.1"_s, QDate(2026, 2, 1))->input.usdPerMillion, 1.0);
        QVERIFY(!pricing.priceFor(u"openai:gpt-4.1"_s, QDate(2025, 1, 1))); // before any price took effect
    }

    void globStar_matchesAcrossSlashes()
    {
        // Built from parts: moc reads the "/" "*" of a glob inside a raw string as a comment.
        const QByteArray pattern = QByteArray("hf:meta-llama/") + '*';
        const Pricing pricing = parsed("{\"prices\": [{\"pattern\": \"" + pattern + "\", \"effective\": \"2025-01-01\", "
                                       "\"usdPerMillionTokens\": {\"input\": 0.1, \"output\": 0.2}}]}");
        QVERIFY(pricing.priceFor(u"hf:meta-llama/Llama-3.1-8B-Instruct:cerebras"_s));
        QVERIFY(!pricing.priceFor(u"hf:Qwen/Qwen3-8B"_s));
    }

    void missingCachePrices_fallBackToInput()
    {
        const std::optional<ModelRates> price = parsed(table).priceFor(u"openai:gpt-4.1-mini"_s, QDate(2025, 6, 1));
        QVERIFY(price);
        QCOMPARE(price->cacheRead.usdPerMillion, 0.4);
        QCOMPARE(price->cacheWrite1h.usdPerMillion, 0.4);
    }

    void override_winsForTheModelsItPrices()
    {
        Pricing pricing = parsed(table);
        pricing.overrideWith(parsed(R"({"prices": [{"pattern": "openai:*", "effective": "2020-01-01",
            "usdPerMillionTokens": {"input": 9, "output": 9}}]})"));
        QCOMPARE(pricing.priceFor(u"openai:gpt-4.1-mini"_s, QDate(2025, 6, 1))->input.usdPerMillion, 9.0);
        QCOMPARE(pricing.priceFor(u"anthropic:claude-opus-4-5"_s, QDate(2025, 12, 1))->input.usdPerMillion, 5.0);
    }

    void badFile_errorsNameFileLineAndProblem()
    {
        Result<Pricing> result = Pricing::fromJson("{\"prices\": [\n  {\"pattern\": \"openai:x\", \"effective\": \"soon\",\n"
                                                   "   \"usdPerMillionTokens\": {\"input\": 1, \"output\": 1}}]}",
                                                   u"/home/u/.config/skillforge/pricing.json"_s);
        QVERIFY(!result.ok());
        QVERIFY2(result.error.startsWith("/home/u/.config/skillforge/pricing.json:2:"_L1), qPrintable(result.error));
        QVERIFY2(result.error.contains("effective"_L1), qPrintable(result.error));

        result = Pricing::fromJson("{\"prices\": [\n{\"pattern\": ", u"p.json"_s);
        QVERIFY(!result.ok());
        QVERIFY2(result.error.startsWith("p.json:2:"_L1), qPrintable(result.error));

        result = Pricing::fromJson(R"({"prices": [{"pattern": "gpt-4.1", "effective": "2025-01-01",
            "usdPerMillionTokens": {"input": 1, "output": 1}}]})", u"p.json"_s);
        QVERIFY2(result.error.contains("PROVIDER"_L1) || result.error.contains("pattern"_L1), qPrintable(result.error));
    }

    // Issue 19: 2026's models bill long prompts at another tier; cost is asked per request, so each request is
    // billed at the tier its own input reaches.
    void longContextTier_billsEveryTokenOfALongRequestAtItsRates()
    {
        const Result<Pricing> table = Pricing::fromJson(R"({"prices": [{"pattern": "anthropic:small*",
            "effective": "2026-01-01", "usdPerMillionTokens": {"input": 1, "output": 5, "cacheRead": 0.1},
            "longContext": {"aboveInputTokens": 100000,
                            "usdPerMillionTokens": {"input": 2, "output": 10, "cacheRead": 0.2}}}]})",
                                                        u"p.json"_s);
        QVERIFY2(table.ok(), qPrintable(table.error));
        TokenUsage shortRequest;
        shortRequest.uncachedInput = 60000;
        shortRequest.cacheRead = 40000; // exactly at the threshold: not above it
        shortRequest.output = 1000;
        QCOMPARE(*table.value->cost(u"anthropic:small-1"_s, shortRequest, QDate(2026, 6, 1)),
                 (60000 * 1.0 + 40000 * 0.1 + 1000 * 5.0) / 1e6);
        TokenUsage longRequest = shortRequest;
        longRequest.cacheRead = 40001;
        QCOMPARE(*table.value->cost(u"anthropic:small-1"_s, longRequest, QDate(2026, 6, 1)),
                 (60000 * 2.0 + 40001 * 0.2 + 1000 * 10.0) / 1e6);

        const Result<Pricing> bad = Pricing::fromJson(R"({"prices": [
{"pattern": "openai:x", "effective": "2026-01-01", "usdPerMillionTokens": {"input": 1, "output": 1},
 "longContext": {"usdPerMillionTokens": {"input": 2, "output": 2}}}]})",
                                                      u"p.json"_s);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error.startsWith("p.json:2:"_L1) && bad.error.contains("aboveInputTokens"_L1),
                 qPrintable(bad.error));
    }

    void untilDate_endsAnEntry_andTheNextTableTakesOver()
    {
        Pricing pricing = parsed(R"({"prices": [{"pattern": "anthropic:claude-x*", "effective": "2026-01-01",
            "until": "2026-02-01", "usdPerMillionTokens": {"input": 3, "output": 15}}]})");
        pricing.overrideWith(parsed(R"({"prices": [{"pattern": "anthropic:claude-x-1", "effective": "2026-01-15",
            "until": "2026-01-20", "usdPerMillionTokens": {"input": 9, "output": 9}}]})"));
        QCOMPARE(pricing.priceFor(u"anthropic:claude-x-1"_s, QDate(2026, 1, 10))->input.usdPerMillion, 3.0);
        QCOMPARE(pricing.priceFor(u"anthropic:claude-x-1"_s, QDate(2026, 1, 19))->input.usdPerMillion, 9.0);
        QCOMPARE(pricing.priceFor(u"anthropic:claude-x-1"_s, QDate(2026, 1, 20))->input.usdPerMillion, 3.0);
        QCOMPARE(pricing.priceFor(u"anthropic:claude-x-1"_s, QDate(2026, 1, 31))->until, QDate(2026, 2, 1));
        QVERIFY(!pricing.priceFor(u"anthropic:claude-x-1"_s, QDate(2026, 2, 1)));

        const Result<Pricing> bad = Pricing::fromJson(R"({"prices": [{"pattern": "openai:x", "effective": "2026-01-01",
            "until": "2025-12-01", "usdPerMillionTokens": {"input": 1, "output": 1}}]})",
                                                      u"p.json"_s);
        QVERIFY2(!bad.ok() && bad.error.contains("until"_L1), qPrintable(bad.error));
    }

    void summary_namesEveryBucketAndTier()
    {
        const Result<Pricing> table = Pricing::fromJson(R"({"prices": [{"pattern": "anthropic:small*",
            "effective": "2026-01-01", "usdPerMillionTokens": {"input": 1, "output": 5, "cacheRead": 0.1,
            "cacheWrite5m": 1.25, "cacheWrite1h": 2},
            "longContext": {"aboveInputTokens": 200000, "usdPerMillionTokens": {"input": 2, "output": 7.5}}}]})",
                                                        u"p.json"_s);
        QVERIFY2(table.ok(), qPrintable(table.error));
        const ModelRates rates = *table.value->priceFor(u"anthropic:small-1"_s, QDate(2026, 6, 1));
        QCOMPARE(rates.summary(),
                 u"$1 input, $5 output, $0.10 cache read, $1.25 cache write (5 min), $2 cache write (1 h) per million "
                 u"tokens; above 200K input tokens: $2 input, $7.50 output, $2 cache read, $2 cache write"_s);
        QCOMPARE(rates.origin, u"p.json: anthropic:small*"_s);
    }
};

SF_TEST_GUILESS_MAIN(TestPricing)
#include "test_pricing.moc"
