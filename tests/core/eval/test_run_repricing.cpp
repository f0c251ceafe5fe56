// Issue 46: a run recorded before each request was priced (usage, no cost) is priced when it is opened, from the
// requests its transcripts recorded, each at its own tier, or from its token totals where there is no such record;
// either way marked, and results.jsonl is never rewritten.
#include "SkippedChecks.h"
#include "eval/CostEffectiveness.h"
#include "eval/RunRepricing.h"
#include "eval/RunSpend.h"
#include "eval/RunStore.h"
#include "eval/RunSummary.h"
#include "usage/Pricing.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

const QString kTiered = u"generic:old-student"_s;
const QString kUnpriced = u"generic:never-priced"_s;

TokenUsage input(qint64 uncached, qint64 output)
{
    TokenUsage usage;
    usage.uncachedInput = uncached;
    usage.output = output;
    return usage;
}

/// An item as runs recorded it before issue 46: usage, and a null cost for every paid model.
ItemResult oldItem(const QString &model, const QString &caseId, const TokenUsage &usage)
{
    ItemResult r;
    r.key = {model, kWithSkillArm, caseId, 1};
    r.passed = true;
    r.usage = usage;
    r.stopReason = StopReason::Answered;
    r.startedAt = u"2026-11-20T10:00:00.000Z"_s;
    return r;
}

QJsonObject assistantTurn(const TokenUsage &usage)
{
    return {{u"role"_s, u"assistant"_s}, {u"content"_s, u"..."_s}, {u"usage"_s, usageToJson(usage)}};
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

const ItemResult *find(const QList<ItemResult> &results, const QString &model, const QString &caseId)
{
    for (const ItemResult &r : results)
        if (r.key.model == model && r.key.caseId == caseId)
            return &r;
    return nullptr;
}

} // namespace

class TestRunRepricing final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QDir().mkpath(QFileInfo(Pricing::userFilePath()).absolutePath());
        QFile prices(Pricing::userFilePath());
        QVERIFY(prices.open(QIODevice::WriteOnly));
        prices.write(R"({"prices": [{"pattern": "generic:old-student", "effective": "2025-01-01",
          "usdPerMillionTokens": {"input": 3, "output": 15},
          "longContext": {"aboveInputTokens": 200000, "usdPerMillionTokens": {"input": 6, "output": 22.5}}}]})");
        prices.close();
        Pricing::reload();
    }

    void cleanupTestCase()
    {
        QFile::remove(Pricing::userFilePath());
        Pricing::reload();
    }

    void oldRun_pricedOnOpen_perRequestWhereRecorded_fromTotalsElse_fileUntouched()
    {
        QTemporaryDir runs;
        auto created = RunStore::create(runs.path(), {});
        QVERIFY(std::holds_alternative<RunStore>(created));
        RunStore &store = std::get<RunStore>(created);

        // Two requests of 150K input each: under the 200K tier one by one, over it together.
        ItemResult recorded = oldItem(kTiered, u"recorded"_s, input(300000, 2000));
        recorded.transcript = store.writeTranscript(
            recorded.key,
            {{u"messages"_s, QJsonArray{QJsonObject{{u"role"_s, u"user"_s}}, assistantTurn(input(150000, 1000)),
                                        assistantTurn(input(150000, 1000))}}});
        QVERIFY(!recorded.transcript.isEmpty());
        QVERIFY(store.append(recorded).isEmpty());
        QVERIFY(store.append(oldItem(kTiered, u"totals-only"_s, input(300000, 2000))).isEmpty());
        QVERIFY(store.append(oldItem(kUnpriced, u"unpriced"_s, input(1000, 10))).isEmpty());
        ItemResult current = oldItem(kTiered, u"priced-as-it-ran"_s, input(1000, 10));
        current.costUsd = 0.5; // what it was priced at as it ran: kept, whatever the table says now
        QVERIFY(store.append(current).isEmpty());
        store.releaseWriterLock();
        const QString resultsPath = QDir(store.dir()).filePath(u"results.jsonl"_s);
        const QByteArray before = readAll(resultsPath);

        auto opened = RunStore::open(store.dir(), RunStore::Access::ReadOnly);
        QVERIFY(std::holds_alternative<RunStore>(opened));
        const QList<ItemResult> results = std::get<RunStore>(opened).results();

        const ItemResult *perRequest = find(results, kTiered, u"recorded"_s);
        QVERIFY(perRequest && perRequest->costUsd);
        QVERIFY(qAbs(*perRequest->costUsd - 2 * (150000 * 3 + 1000 * 15) / 1e6) < 1e-12);
        QCOMPARE(perRequest->costPriced, CostPriced::Afterwards);

        const ItemResult *fromTotals = find(results, kTiered, u"totals-only"_s);
        QVERIFY(fromTotals && fromTotals->costUsd);
        QVERIFY(qAbs(*fromTotals->costUsd - (300000 * 6 + 2000 * 22.5) / 1e6) < 1e-12);
        QCOMPARE(fromTotals->costPriced, CostPriced::AfterwardsFromTotals);

        const ItemResult *unpriced = find(results, kUnpriced, u"unpriced"_s);
        QVERIFY(unpriced && !unpriced->costUsd);
        QCOMPARE(unpriced->unpricedRequests, 1);
        QVERIFY(unpriced->costPriced.isEmpty());
        QCOMPARE(unpriced->costText(), u"price unknown"_s);

        const ItemResult *kept = find(results, kTiered, u"priced-as-it-ran"_s);
        QVERIFY(kept && kept->costUsd);
        QCOMPARE(*kept->costUsd, 0.5);
        QVERIFY(kept->costPriced.isEmpty());

        QCOMPARE(readAll(resultsPath), before);

        // What a reader is told: how the cost was worked out, and for the unpriced model, where to add a price.
        const RunSummary summary = summarizeRun(results);
        const QList<ArmCostEffectiveness> effectiveness = costEffectiveness(summary);
        const ArmCostEffectiveness *tiered = findCostEffectiveness(effectiveness, kTiered, kWithSkillArm);
        QVERIFY(tiered && tiered->totalCost);
        QVERIFY2(tiered->costNote().contains(u"priced afterwards: 1 of 3 items from their recorded requests, 1 from "
                                             "their token totals"_s),
                 qPrintable(tiered->costNote()));
        const ArmCostEffectiveness *none = findCostEffectiveness(effectiveness, kUnpriced, kWithSkillArm);
        QVERIFY(none && !none->totalCost);
        QVERIFY2(none->costNote().startsWith(u"price unknown (no table prices generic:never-priced; add a price to "_s),
                 qPrintable(none->costNote()));
    }

    // An item one request of which had no price keeps its priced part and says so, through results.jsonl and back:
    // never written as $0, never priced again when opened, counted in the run's spend and in its arm's note.
    void partlyPricedItem_roundTripsThroughResultsJsonl_andIsSaidSo()
    {
        CostTally tally;
        tally.add(kUnpriced, 0.25);
        tally.add(kUnpriced, std::nullopt);
        ItemResult partly = oldItem(kUnpriced, u"partly"_s, input(2000, 100));
        partly.setCost(tally);
        ItemResult pricedThen = oldItem(kUnpriced, u"priced-then"_s, input(2000, 100));
        pricedThen.costUsd = 0.5; // priced as it ran, on a day a table had a price for the model

        QTemporaryDir runs;
        auto created = RunStore::create(runs.path(), {});
        QVERIFY(std::holds_alternative<RunStore>(created));
        RunStore &store = std::get<RunStore>(created);
        QVERIFY(store.append(partly).isEmpty());
        QVERIFY(store.append(pricedThen).isEmpty());
        store.releaseWriterLock();
        QFile lines(QDir(store.dir()).filePath(u"results.jsonl"_s));
        QVERIFY(lines.open(QIODevice::ReadOnly));
        const QJsonObject written = QJsonDocument::fromJson(lines.readLine()).object();
        QVERIFY(written[u"cost_usd"_s].isNull());
        QCOMPARE(written[u"cost_unpriced_requests"_s].toInt(), 1);
        QCOMPARE(written[u"cost_priced_part_usd"_s].toDouble(), 0.25);

        auto opened = RunStore::open(store.dir(), RunStore::Access::ReadOnly);
        QVERIFY(std::holds_alternative<RunStore>(opened));
        const QList<ItemResult> results = std::get<RunStore>(opened).results();
        const ItemResult *read = find(results, kUnpriced, u"partly"_s);
        QVERIFY(read);
        QVERIFY(!read->costUsd);
        QCOMPARE(read->unpricedRequests, 1);
        QCOMPARE(read->pricedPartUsd, 0.25);
        QVERIFY(read->costPriced.isEmpty());
        QCOMPARE(read->costText(), u"$0.2500 for part of its requests, 1 unpriced"_s);

        RunSpend spend;
        for (const ItemResult &r : results)
            spend.add(r);
        QCOMPARE(spend.spentUsd(), 0.75);
        QCOMPARE(spend.describe(), u"$0.7500 spent and 1 item unpriced"_s);

        const QList<ArmCostEffectiveness> effectiveness = costEffectiveness(summarizeRun(results));
        const ArmCostEffectiveness *arm = findCostEffectiveness(effectiveness, kUnpriced, kWithSkillArm);
        QVERIFY(arm && !arm->totalCost);
        QVERIFY2(arm->costNote().startsWith(u"partly priced: 1 of 2 items made requests without a price, so no total "
                                            "is shown"_s),
                 qPrintable(arm->costNote()));
    }

    void newRun_itemsPricedAsTheyRan_areNotPricedAgain()
    {
        ItemResult partly = oldItem(kUnpriced, u"x"_s, input(10, 1));
        partly.unpricedRequests = 1;
        QVERIFY(!needsPricingAfterwards(partly));
        ItemResult free = oldItem(kTiered, u"y"_s, input(10, 1));
        free.costUsd = 0.0;
        QVERIFY(!needsPricingAfterwards(free));
        QVERIFY(needsPricingAfterwards(oldItem(kTiered, u"z"_s, input(10, 1))));
        QVERIFY(!needsPricingAfterwards(oldItem(kTiered, u"w"_s, input(0, 0))));
    }
};

SF_TEST_GUILESS_MAIN(TestRunRepricing)
#include "test_run_repricing.moc"
