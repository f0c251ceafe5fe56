#include "TriggerMeasure.h"

#include <QJsonArray>

using namespace Qt::StringLiterals;

namespace sf {

TriggerMeasurement measureTrigger(const QList<TriggerQuery> &queries, const QString &candidate,
                                  const QStringList &models, const QList<TriggerTrial> &trials)
{
    TriggerMeasurement m;
    for (const QString &model : models) {
        const qsizetype first = m.outcomes.size();
        for (int i = 0; i < queries.size(); ++i)
            m.outcomes.append({i, model});
        int positives = 0, truePositives = 0, negatives = 0, falsePositives = 0;
        ModelTriggerRates rates;
        rates.model = model;
        for (const TriggerTrial &t : trials) {
            if (t.model != model || t.queryIndex < 0 || t.queryIndex >= queries.size())
                continue;
            QueryOutcome &o = m.outcomes[first + t.queryIndex];
            if (!t.error.isEmpty()) {
                ++o.errors;
                ++rates.errors;
                continue;
            }
            if (t.costUsd)
                rates.costUsd += *t.costUsd;
            else
                rates.costKnown = false;
            ++o.trials;
            const bool loaded = t.loaded == candidate;
            if (loaded)
                ++o.candidateLoads;
            else
                ++o.others[t.loaded];
            if (queries.at(t.queryIndex).shouldTrigger) {
                ++positives;
                truePositives += loaded;
            } else {
                ++negatives;
                falsePositives += loaded;
            }
        }
        for (qsizetype i = first; i < m.outcomes.size(); ++i) {
            const QueryOutcome &o = m.outcomes.at(i);
            if (!o.trials)
                continue;
            ++rates.queries;
            rates.queriesPassed += o.passes(queries.at(o.queryIndex).shouldTrigger);
        }
        rates.recall = stats::wilson(truePositives, positives);
        rates.falsePositiveRate = stats::wilson(falsePositives, negatives);
        rates.precision = stats::wilson(truePositives, truePositives + falsePositives);
        m.models.append(rates);
    }
    return m;
}

namespace {

QJsonObject proportionJson(const stats::Proportion &p)
{
    return {
        {u"k"_s, p.successes}, {u"n"_s, p.trials}, {u"rate"_s, p.rate}, {u"ci95"_s, QJsonArray{p.ci.low, p.ci.high}}};
}

} // namespace

QJsonObject triggerMeasurementJson(const TriggerMeasurement &measurement, const QList<TriggerQuery> &queries)
{
    QJsonArray models;
    for (const ModelTriggerRates &r : measurement.models) {
        QJsonObject o{{u"model"_s, r.model},
                      {u"recall"_s, proportionJson(r.recall)},
                      {u"false_positive_rate"_s, proportionJson(r.falsePositiveRate)},
                      {u"precision"_s, proportionJson(r.precision)},
                      {u"queries_passed"_s, r.queriesPassed},
                      {u"queries"_s, r.queries},
                      {u"errors"_s, r.errors}};
        o.insert(u"cost_usd"_s, r.costKnown ? QJsonValue(r.costUsd) : QJsonValue());
        models.append(o);
    }
    QJsonArray outcomes;
    for (const QueryOutcome &o : measurement.outcomes) {
        QJsonObject others;
        for (auto it = o.others.cbegin(); it != o.others.cend(); ++it)
            others.insert(it.key().isEmpty() ? u"(none)"_s : it.key(), it.value());
        const TriggerQuery &q = queries.at(o.queryIndex);
        outcomes.append(QJsonObject{{u"query"_s, q.query},
                                    {u"should_trigger"_s, q.shouldTrigger},
                                    {u"model"_s, o.model},
                                    {u"trials"_s, o.trials},
                                    {u"errors"_s, o.errors},
                                    {u"triggers"_s, o.candidateLoads},
                                    {u"trigger_rate"_s, o.share()},
                                    {u"pass"_s, o.passes(q.shouldTrigger)},
                                    {u"loaded_instead"_s, others}});
    }
    return {{u"models"_s, models}, {u"queries"_s, outcomes}};
}

} // namespace sf
