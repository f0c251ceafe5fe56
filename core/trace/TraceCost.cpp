#include "trace/TraceCost.h"

#include "usage/Pricing.h"

#include <QDateTime>
#include <QHash>

namespace sf {

using namespace Qt::StringLiterals;

namespace {

/// When a turn was made, for the price in force then: its timestamp, or its day at noon UTC when only the day reads,
/// or now when it has none.
QDateTime requestTime(const QString &timestamp, const QDateTime &now)
{
    QDateTime at = QDateTime::fromString(timestamp, Qt::ISODateWithMs);
    if (at.isValid())
        return at.timeSpec() == Qt::LocalTime ? QDateTime(at.date(), at.time(), Qt::UTC) : at;
    const QDate day = QDate::fromString(timestamp.left(10), Qt::ISODate);
    return day.isValid() ? QDateTime(day, QTime(12, 0), Qt::UTC) : now;
}

} // namespace

QString pricingModelName(const QString &format, const QString &model)
{
    if (model.isEmpty() || model.contains(u':'))
        return model;
    if (format == "claude-code"_L1 || format == "claude-stream-json"_L1)
        return u"anthropic:"_s + model;
    if (format == "codex"_L1)
        return u"openai:"_s + model;
    // inspect_ai and others write provider/model.
    if (const qsizetype slash = model.indexOf(u'/'); slash > 0)
        return model.left(slash) + u':' + model.mid(slash + 1);
    if (model.startsWith("claude"_L1))
        return u"anthropic:"_s + model;
    if (model.startsWith("gpt-"_L1) || model.startsWith("o1"_L1) || model.startsWith("o3"_L1) ||
        model.startsWith("o4"_L1))
        return u"openai:"_s + model;
    return model;
}

std::optional<double> TraceCost::turn(int thread, int turnIndex) const
{
    if (thread < 0 || thread >= int(turns.size()) || turnIndex < 0 || turnIndex >= int(turns[size_t(thread)].size()))
        return std::nullopt;
    return turns[size_t(thread)][size_t(turnIndex)];
}

std::optional<double> TraceCost::runningTotal(int thread, int turnIndex) const
{
    if (thread < 0 || thread >= int(running.size()) || turnIndex < 0 ||
        turnIndex >= int(running[size_t(thread)].size()))
        return std::nullopt;
    return running[size_t(thread)][size_t(turnIndex)];
}

TraceCost TraceCost::of(const Trace &trace)
{
    return of(trace, *Pricing::current());
}

TraceCost TraceCost::of(const Trace &trace, const Pricing &pricing)
{
    TraceCost cost;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    // A session has a handful of models and days: the price of each model is looked up once per minute of the
    // session (a price may change at a time of day: off-peak rates), so a million-step session is priced in one pass.
    // Each key's price and the index of its "priced as" text, both worked out once per key.
    struct KeyPrice
    {
        std::optional<ModelRates> rates;
        qint32 source = -1;
    };
    QHash<QString, KeyPrice> prices;
    QHash<QString, qint32> sourceIndexOf;
    cost.turns.reserve(trace.threads.size());
    cost.running.reserve(trace.threads.size());
    cost.sourceIndex.reserve(trace.threads.size());
    for (const TraceThread &thread : trace.threads) {
        std::vector<std::optional<double>> turns(thread.turns.size());
        std::vector<std::optional<double>> running(thread.turns.size());
        std::vector<qint32> sources(thread.turns.size(), -1);
        std::optional<double> soFar;
        for (size_t i = 0; i < thread.turns.size(); ++i) {
            const TraceTurn &turn = thread.turns[i];
            if (turn.usage) {
                const QString name = pricingModelName(trace.format, turn.model);
                const QString key = name + u'@' + turn.timestamp.left(16);
                auto price = prices.constFind(key);
                if (price == prices.cend()) {
                    KeyPrice found;
                    if (!name.isEmpty())
                        found.rates = pricing.priceFor(name, requestTime(turn.timestamp.toString(), now));
                    if (found.rates) {
                        const QString source =
                            u"%1: %2, from %3"_s.arg(name, found.rates->summary(), found.rates->origin);
                        auto index = sourceIndexOf.constFind(source);
                        if (index == sourceIndexOf.cend()) {
                            index = sourceIndexOf.insert(source, qint32(cost.priceSources.size()));
                            cost.priceSources.append(source);
                        }
                        found.source = *index;
                    }
                    price = prices.insert(key, found);
                }
                if (price->rates) {
                    const double usd = price->rates->costOf(*turn.usage);
                    turns[i] = usd;
                    sources[i] = price->source;
                    soFar = soFar.value_or(0) + usd;
                    cost.totalUsd += usd;
                    ++cost.pricedTurns;
                } else {
                    ++cost.unpricedTurns;
                    const QString shown = turn.model.isEmpty() ? u"(no model named)"_s : turn.model;
                    if (!cost.unpricedModels.contains(shown))
                        cost.unpricedModels.append(shown);
                }
            }
            running[i] = soFar;
        }
        cost.turns.push_back(std::move(turns));
        cost.running.push_back(std::move(running));
        cost.sourceIndex.push_back(std::move(sources));
    }
    return cost;
}

QString TraceCost::priceSource(int thread, int turnIndex) const
{
    if (thread < 0 || thread >= int(sourceIndex.size()) || turnIndex < 0 ||
        turnIndex >= int(sourceIndex[size_t(thread)].size()))
        return {};
    const qint32 index = sourceIndex[size_t(thread)][size_t(turnIndex)];
    return index >= 0 ? priceSources.at(index) : QString();
}

} // namespace sf
