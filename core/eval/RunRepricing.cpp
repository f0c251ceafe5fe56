#include "RunRepricing.h"

#include "EvalLogging.h"
#include "usage/Pricing.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

namespace sf {

namespace {

/// One model request as a transcript recorded it: the built-in loop's assistant messages, an agent CLI's door
/// requests.
struct RecordedRequest
{
    TokenUsage usage;
    QDateTime endedAt;
};

QList<RecordedRequest> recordedRequests(const QString &runDir, const ItemResult &item, const QDateTime &itemTime)
{
    QList<RecordedRequest> requests;
    if (item.transcript.isEmpty())
        return requests;
    QFile file(QDir(runDir).filePath(item.transcript));
    if (!file.open(QIODevice::ReadOnly))
        return requests;
    const QJsonObject transcript = QJsonDocument::fromJson(file.readAll()).object();
    QJsonArray entries = transcript.value(QStringLiteral("requests")).toArray();
    for (const QJsonValue &message : transcript.value(QStringLiteral("messages")).toArray())
        if (message[QStringLiteral("role")].toString() == QLatin1String("assistant"))
            entries.append(message);
    for (const QJsonValue &entry : std::as_const(entries)) {
        const QJsonObject usage = entry[QStringLiteral("usage")].toObject();
        if (usage.isEmpty())
            continue;
        RecordedRequest request{usageFromJson(usage),
                                QDateTime::fromString(entry[QStringLiteral("ended_at")].toString(), Qt::ISODateWithMs)};
        if (request.usage.totalInput() + request.usage.output == 0)
            continue; // refused or failed before an answer: not billed
        if (!request.endedAt.isValid())
            request.endedAt = itemTime;
        requests.append(request);
    }
    return requests;
}

} // namespace

bool needsPricingAfterwards(const ItemResult &item)
{
    return !item.costUsd && item.unpricedRequests == 0 && item.totalTokens() > 0;
}

int priceAfterwards(QList<ItemResult> &results, const QString &runDir, const Pricing &pricing)
{
    int priced = 0;
    for (ItemResult &item : results) {
        if (!needsPricingAfterwards(item))
            continue;
        QDateTime itemTime = QDateTime::fromString(item.startedAt, Qt::ISODateWithMs);
        if (!itemTime.isValid())
            itemTime = QDateTime::currentDateTimeUtc();
        CostTally tally;
        // A model no table prices stays unknown whatever its transcript holds: the file is not read for it (a run of
        // such a model is read this way each time it is opened).
        const QList<RecordedRequest> requests = pricing.priceFor(item.key.model, itemTime)
                                                    ? recordedRequests(runDir, item, itemTime)
                                                    : QList<RecordedRequest>();
        for (const RecordedRequest &request : requests)
            tally.addRequest(pricing, item.key.model, request.usage, request.endedAt);
        QString how = CostPriced::Afterwards;
        if (requests.isEmpty()) {
            tally.addRequest(pricing, item.key.model, item.usage, itemTime);
            how = CostPriced::AfterwardsFromTotals;
        }
        item.setCost(tally);
        if (item.costUsd) {
            item.costPriced = how;
            ++priced;
        }
    }
    if (priced > 0)
        qCDebug(lcEval).noquote() << "priced" << priced << "items of" << runDir << "afterwards";
    return priced;
}

} // namespace sf
