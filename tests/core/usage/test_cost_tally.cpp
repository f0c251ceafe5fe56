// Issue 46: many requests' costs are added up request by request, never priced as one sum; a request without a price
// makes the whole unknown, said as such, never $0.
#include "SkippedChecks.h"
#include "agents/ModelDoor.h"
#include "usage/CostTally.h"
#include "usage/Pricing.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

// Sonnet 4.5's rates in 2026: $3 / $15 per million, every token of a request above 200K input at $6 / $22.5.
const QByteArray kTiered = R"({"prices": [{"pattern": "anthropic:tiered-model", "effective": "2025-01-01",
  "usdPerMillionTokens": {"input": 3, "output": 15, "cacheRead": 0.3, "cacheWrite5m": 3.75, "cacheWrite1h": 6},
  "longContext": {"aboveInputTokens": 200000, "usdPerMillionTokens":
    {"input": 6, "output": 22.5, "cacheRead": 0.6, "cacheWrite5m": 7.5, "cacheWrite1h": 12}}}]})";

TokenUsage request(qint64 uncached, qint64 cacheRead, qint64 output)
{
    TokenUsage usage;
    usage.uncachedInput = uncached;
    usage.cacheRead = cacheRead;
    usage.output = output;
    return usage;
}

} // namespace

class TestCostTally final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void cleanup()
    {
        QFile::remove(Pricing::userFilePath());
        Pricing::reload();
    }

    void threeRequestsUnderTheTier_pricedAtBaseRates_theirSumWouldCrossIt()
    {
        const Pricing pricing = *Pricing::fromJson(kTiered, u"pricing.json"_s).value;
        const QDateTime at(QDate(2026, 12, 1), QTime(12, 0), Qt::UTC);
        CostTally tally;
        TokenUsage sum;
        for (int i = 0; i < 3; ++i) {
            const TokenUsage one = request(30000, 50000, 2000);
            tally.addRequest(pricing, u"anthropic:tiered-model"_s, one, at);
            sum += one;
        }
        const double perRequest = (30000 * 3 + 50000 * 0.3 + 2000 * 15) / 1e6;
        QCOMPARE(tally.requests(), 3);
        QVERIFY(tally.total());
        QVERIFY(qAbs(*tally.total() - 3 * perRequest) < 1e-12);
        const double lumped = *pricing.cost(u"anthropic:tiered-model"_s, sum, at);
        QVERIFY(qAbs(lumped - (90000 * 6 + 150000 * 0.6 + 6000 * 22.5) / 1e6) < 1e-12);
        QVERIFY(lumped > *tally.total() * 1.5);
    }

    void unpricedRequest_makesTheWholeUnknown_andTheTextSaysWhatIsMissing()
    {
        const Pricing pricing = *Pricing::fromJson(kTiered, u"pricing.json"_s).value;
        const QDateTime now = QDateTime::currentDateTimeUtc();
        CostTally tally;
        tally.addRequest(pricing, u"anthropic:tiered-model"_s, request(1000, 0, 100), now);
        tally.addRequest(pricing, u"generic:nobody-prices-me"_s, request(1000, 0, 100), now);
        QVERIFY(!tally.total());
        QVERIFY(tally.isPartlyPriced());
        QCOMPARE(tally.unpricedModels, QStringList{u"generic:nobody-prices-me"_s});
        const QString text = tally.text();
        QVERIFY2(text.contains(u"1 of 2 requests"_s) && text.contains(u"generic:nobody-prices-me"_s) &&
                     text.contains(u"pricing.json"_s),
                 qPrintable(text));

        CostTally none;
        none.add(u"generic:nobody-prices-me"_s, std::nullopt);
        QVERIFY(!none.total());
        QVERIFY(none.text().startsWith(u"price unknown"_s));
        QVERIFY(!none.text().contains(u"$0"_s));
    }

    void noRequestAtAll_costsNothing() { QCOMPARE(CostTally().total(), std::optional<double>(0.0)); }

    void tallies_addUp()
    {
        CostTally a;
        a.add(u"m"_s, 0.25);
        CostTally b;
        b.add(u"m"_s, 0.5);
        b.add(u"x"_s, std::nullopt);
        a += b;
        QCOMPARE(a.pricedRequests, 2);
        QCOMPARE(a.unpricedRequests, 1);
        QCOMPARE(a.pricedUsd, 0.75);
    }

    // The door's record: each request at its own end time and tier; requests that used no tokens (refused, a token
    // count, the model list) are not billed.
    void doorRecords_eachPricedOnItsOwn_unbilledOnesLeftOut()
    {
        QDir().mkpath(QFileInfo(Pricing::userFilePath()).absolutePath());
        QFile file(Pricing::userFilePath());
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kTiered);
        file.close();
        Pricing::reload();
        QList<DoorRequestRecord> records;
        for (int i = 0; i < 3; ++i) {
            DoorRequestRecord record;
            record.path = u"/v1/messages"_s;
            record.status = 200;
            record.usage = request(80000, 0, 1000);
            record.endedAt = QDateTime::currentDateTimeUtc();
            records.append(record);
        }
        DoorRequestRecord countTokens;
        countTokens.path = u"/v1/messages/count_tokens"_s;
        countTokens.status = 200;
        records.append(countTokens);
        DoorRequestRecord refused;
        refused.status = 429;
        records.append(refused);
        const CostTally tally = costOfRequests(records, u"anthropic:tiered-model"_s);
        QCOMPARE(tally.requests(), 3);
        QVERIFY(qAbs(*tally.total() - 3 * (80000 * 3 + 1000 * 15) / 1e6) < 1e-12);
    }
};

SF_TEST_GUILESS_MAIN(TestCostTally)
#include "test_cost_tally.moc"
