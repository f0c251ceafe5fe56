#include "trace/TraceCost.h"

#include "usage/Pricing.h"

#include <QDate>
#include <QHash>

namespace sf {

using namespace Qt::StringLiterals;

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
    return of(trace, Pricing::shared());
}

TraceCost TraceCost::of(const Trace &trace, const Pricing &pricing)
{
    TraceCost cost;
    const QDate today = QDate::currentDate();
    // A session has a handful of models and days: the price of each pair is looked up once.
    QHash<QString, QDate> days;
    QHash<QString, std::optional<ModelPrice>> prices;
    cost.turns.reserve(trace.threads.size());
    cost.running.reserve(trace.threads.size());
    for (const TraceThread &thread : trace.threads) {
        std::vector<std::optional<double>> turns(thread.turns.size());
        std::vector<std::optional<double>> running(thread.turns.size());
        std::optional<double> soFar;
        for (size_t i = 0; i < thread.turns.size(); ++i) {
            const TraceTurn &turn = thread.turns[i];
            if (turn.usage) {
                const QString dayText = turn.timestamp.left(10);
                auto day = days.constFind(dayText);
                if (day == days.cend()) {
                    const QDate parsed = QDate::fromString(dayText, Qt::ISODate);
                    day = days.insert(dayText, parsed.isValid() ? parsed : today);
                }
                const QString name = pricingModelName(trace.format, turn.model);
                const QString key = name + u'@' + day->toString(Qt::ISODate);
                auto price = prices.constFind(key);
                if (price == prices.cend())
                    price = prices.insert(key, name.isEmpty() ? std::nullopt : pricing.priceFor(name, *day));
                if (*price) {
                    const double usd = (*price)->costOf(*turn.usage);
                    turns[i] = usd;
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
    }
    return cost;
}

QString formatUsd(double usd)
{
    return u'$' + QString::number(usd, 'f', usd < 1.0 ? 4 : 2);
}

} // namespace sf
