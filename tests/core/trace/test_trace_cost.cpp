#include "SkippedChecks.h"
#include "trace/TraceCost.h"
#include "trace/TraceImport.h"
#include "usage/Pricing.h"

#include <QStandardPaths>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

/// A one-thread trace of assistant turns, each (model, timestamp, usage).
Trace traceOf(const QString &format, const std::vector<std::tuple<QString, QString, TokenUsage>> &turns)
{
    Trace trace;
    trace.format = format;
    TraceThread thread;
    for (const auto &[model, timestamp, usage] : turns) {
        TraceTurn turn;
        turn.role = u"assistant"_s;
        turn.model = model;
        turn.timestamp = trace.store(timestamp);
        turn.usage = usage;
        thread.turns.push_back(turn);
    }
    trace.threads.push_back(std::move(thread));
    return trace;
}

Pricing table()
{
    const Result<Pricing> pricing = Pricing::fromJson(R"({"prices": [
        {"pattern": "anthropic:claude-opus-4-5*", "effective": "2025-11-24",
         "usdPerMillionTokens": {"input": 5, "output": 25, "cacheRead": 0.5, "cacheWrite5m": 6.25, "cacheWrite1h": 10}},
        {"pattern": "anthropic:claude-opus-4-5*", "effective": "2026-06-01",
         "usdPerMillionTokens": {"input": 2, "output": 10, "cacheRead": 0.2, "cacheWrite5m": 2.5, "cacheWrite1h": 4}},
        {"pattern": "openai:gpt-5*", "effective": "2025-08-07",
         "usdPerMillionTokens": {"input": 1.25, "output": 10, "cacheRead": 0.125}}]})",
                                                      u"test-pricing.json"_s);
    if (!pricing)
        qFatal("%s", qPrintable(pricing.error));
    return *pricing.value;
}

} // namespace

/// A trace's cost by the pricing table: per turn, running, in total; models without a price cost nothing known.
class TestTraceCost : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); } // the shipped table, no user override

    void pricingModelName_providerFromTheFormatOrTheName_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("name");
        QTest::newRow("claude code") << u"claude-code"_s << u"claude-opus-4-5-20251101"_s
                                     << u"anthropic:claude-opus-4-5-20251101"_s;
        QTest::newRow("stream-json") << u"claude-stream-json"_s << u"claude-haiku-4-5"_s
                                     << u"anthropic:claude-haiku-4-5"_s;
        QTest::newRow("codex") << u"codex"_s << u"gpt-5-codex"_s << u"openai:gpt-5-codex"_s;
        QTest::newRow("inspect provider/model") << u"inspect-json"_s << u"openai/gpt-4o"_s << u"openai:gpt-4o"_s;
        QTest::newRow("already named") << u"openai-messages"_s << u"local:gemma"_s << u"local:gemma"_s;
        QTest::newRow("claude by name") << u"fast-agent"_s << u"claude-sonnet-4-5"_s
                                        << u"anthropic:claude-sonnet-4-5"_s;
        QTest::newRow("unknown stays") << u"smolagents"_s << u"my-model"_s << u"my-model"_s;
        QTest::newRow("none") << u"claude-code"_s << QString() << QString();
    }
    void pricingModelName_providerFromTheFormatOrTheName()
    {
        QFETCH(QString, format);
        QFETCH(QString, model);
        QFETCH(QString, name);
        QCOMPARE(pricingModelName(format, model), name);
    }

    void turns_pricedOnTheDayOfTheirTimestamp()
    {
        const TokenUsage usage{1000, 10000, 2000, 0, 500, 100};
        const Trace trace =
            traceOf(u"claude-code"_s, {{u"claude-opus-4-5-20251101"_s, u"2026-03-01T10:00:00Z"_s, usage},
                                       {u"claude-opus-4-5-20251101"_s, u"2026-07-01T10:00:00Z"_s, usage}});
        const TraceCost cost = TraceCost::of(trace, table());
        // Before June: 1000*5 + 10000*0.5 + 2000*6.25 + 500*25 = 35000 per million; after: 14000.
        QCOMPARE(*cost.turn(0, 0), 0.035);
        QCOMPARE(*cost.turn(0, 1), 0.014);
        QCOMPARE(*cost.runningTotal(0, 1), 0.049);
        QCOMPARE(cost.totalUsd, 0.049);
        QCOMPARE(cost.pricedTurns, 2);
        QCOMPARE(cost.unpricedTurns, 0);
        QVERIFY(cost.hasCost());
    }

    void modelWithoutAPrice_noCostNeverZero_andTheRestStillCounted()
    {
        const TokenUsage usage{1000, 0, 0, 0, 1000, 0};
        const Trace trace = traceOf(u"codex"_s, {{u"house-model"_s, u"2026-03-01T10:00:00Z"_s, usage},
                                                 {u"gpt-5-codex"_s, u"2026-03-01T10:01:00Z"_s, usage},
                                                 {u"house-model"_s, u"2026-03-01T10:02:00Z"_s, usage}});
        const TraceCost cost = TraceCost::of(trace, table());
        QVERIFY(!cost.turn(0, 0));
        QVERIFY(!cost.runningTotal(0, 0)); // nothing priced yet: no running total either
        QCOMPARE(*cost.turn(0, 1), 0.01125);
        QVERIFY(!cost.turn(0, 2));
        QCOMPARE(*cost.runningTotal(0, 2), 0.01125);
        QCOMPARE(cost.pricedTurns, 1);
        QCOMPARE(cost.unpricedTurns, 2);
        QCOMPARE(cost.unpricedModels, QStringList{u"house-model"_s});

        const TraceCost none = TraceCost::of(traceOf(u"codex"_s, {{u"house-model"_s, QString(), usage}}), table());
        QVERIFY(!none.hasCost());
        QCOMPARE(none.totalUsd, 0.0);
    }

    void turnsWithoutUsage_neitherPricedNorUnpriced()
    {
        Trace trace = traceOf(u"claude-code"_s, {{u"claude-opus-4-5"_s, u"2026-03-01T10:00:00Z"_s, TokenUsage{}}});
        trace.threads[0].turns[0].usage.reset();
        const TraceCost cost = TraceCost::of(trace, table());
        QVERIFY(!cost.turn(0, 0));
        QCOMPARE(cost.pricedTurns, 0);
        QCOMPARE(cost.unpricedTurns, 0);
        QVERIFY(!cost.turn(5, 0));
        QVERIFY(!cost.turn(0, 7));
    }

    void sampleSession_pricedByTheShippedTable()
    {
        Result<Trace> trace = importTrace(
            QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/sample-project/traces/rmsnorm-flux-session.jsonl"));
        QVERIFY2(trace, qPrintable(trace.error));
        const TraceCost cost = TraceCost::of(*trace.value);
        QCOMPARE(cost.pricedTurns, 25);
        QCOMPARE(cost.unpricedTurns, 0);
        // Its usage (107 uncached, 718,229 read, 23,257 written 5m, 16,914 written 1h, 16,679 out) at
        // claude-opus-4-5 prices.
        QCOMPARE(qRound64(cost.totalUsd * 1e8),
                 qRound64((107 * 5 + 718229 * 0.5 + 23257 * 6.25 + 16914 * 10.0 + 16679 * 25) * 100));
    }

    void formatUsd_centsAboveADollar()
    {
        QCOMPARE(formatUsd(0.0011625), u"$0.0012"_s);
        QCOMPARE(formatUsd(12.345), u"$12.35"_s);
    }
};

SF_TEST_GUILESS_MAIN(TestTraceCost)
#include "test_trace_cost.moc"
