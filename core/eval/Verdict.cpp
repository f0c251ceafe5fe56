#include "Verdict.h"

#include <QJsonArray>
#include <cmath>

namespace sf {

namespace {

QString interval(const stats::Interval &ci)
{
    return QStringLiteral("[%1, %2]")
        .arg(QString::number(ci.low * 100, 'f', 1), QString::number(ci.high * 100, 'f', 1));
}

bool excludesZero(const stats::Interval &ci)
{
    return ci.low > 0 || ci.high < 0;
}

} // namespace

QString VerdictThresholds::describe() const
{
    return QStringLiteral("keep when the lift is above %1 and its 95% interval above 0; cut when there is no lift or "
                          "the interval lies below 0; can't tell yet under %2 paired cases or while the interval "
                          "spans 0")
        .arg(liftInPoints(minLift))
        .arg(minPairs);
}

QJsonObject VerdictThresholds::toJson() const
{
    return {{QStringLiteral("min_lift"), minLift}, {QStringLiteral("min_pairs"), minPairs}};
}

QString Verdict::word() const
{
    switch (kind) {
    case Kind::Keep:
        return QStringLiteral("keep");
    case Kind::Cut:
        return QStringLiteral("cut");
    case Kind::CantTell:
        break;
    }
    return QStringLiteral("can't tell yet");
}

QString Verdict::code() const
{
    return kind == Kind::CantTell ? QStringLiteral("cant_tell") : word();
}

QString Verdict::reason() const
{
    const QString figures =
        QStringLiteral("lift %1, 95% interval %2, %3 pairs").arg(liftInPoints(lift), interval(liftCi)).arg(pairs);
    QString why;
    switch (kind) {
    case Kind::Keep:
        why = QStringLiteral("the skill helps");
        break;
    case Kind::Cut:
        switch (cutReason) {
        case CutReason::Hurts:
            why = QStringLiteral("the skill hurts");
            break;
        case CutReason::BelowMinimum:
            why = QStringLiteral("a lift, but not above the minimum");
            break;
        case CutReason::NoLift:
        case CutReason::None:
            why = QStringLiteral("no lift");
            break;
        }
        break;
    case Kind::CantTell:
        if (tooFewPairs)
            why = QStringLiteral("%1 paired cases, fewer than the %2 a verdict needs; ").arg(pairs).arg(minPairs);
        if (morePairsNeeded)
            why += QStringLiteral("about %1 more paired cases would likely decide it").arg(*morePairsNeeded);
        else
            why += QStringLiteral("more than %1 more paired cases would be needed").arg(kMaxMorePairs);
        break;
    }
    return QStringLiteral("%1: %2 (%3)").arg(word(), why, figures);
}

QJsonObject Verdict::toJson() const
{
    QString reasonCode;
    switch (cutReason) {
    case CutReason::NoLift:
        reasonCode = QStringLiteral("no_lift");
        break;
    case CutReason::Hurts:
        reasonCode = QStringLiteral("hurts");
        break;
    case CutReason::BelowMinimum:
        reasonCode = QStringLiteral("below_min_lift");
        break;
    case CutReason::None:
        break;
    }
    return {{QStringLiteral("model"), model},
            {QStringLiteral("split"), split},
            {QStringLiteral("verdict"), code()},
            {QStringLiteral("cut_reason"), reasonCode.isEmpty() ? QJsonValue() : QJsonValue(reasonCode)},
            {QStringLiteral("lift"), lift},
            {QStringLiteral("lift_ci95"),
             QJsonObject{{QStringLiteral("low"), liftCi.low}, {QStringLiteral("high"), liftCi.high}}},
            {QStringLiteral("pairs"), pairs},
            {QStringLiteral("more_pairs_needed"), morePairsNeeded ? QJsonValue(*morePairsNeeded) : QJsonValue()},
            {QStringLiteral("text"), reason()}};
}

std::optional<int> pairsToDecide(const stats::PairedTable &table, int cap)
{
    const int n = table.pairs();
    if (n == 0 || table.onlyFirst == table.onlySecond)
        return std::nullopt;
    // The same proportions over N pairs; the interval narrows as N grows, so the smallest N that excludes 0 is found
    // by bisection between n and the cap.
    const auto decides = [&](double total) {
        const double k = total / n;
        return excludesZero(stats::pairedDifferenceCi(table.bothPass * k, table.bothFail * k, table.onlyFirst * k,
                                                      table.onlySecond * k));
    };
    if (decides(n))
        return n;
    if (!decides(cap))
        return std::nullopt;
    int low = n;    // does not decide
    int high = cap; // decides
    while (high - low > 1) {
        const int middle = low + (high - low) / 2;
        (decides(middle) ? high : low) = middle;
    }
    return high;
}

Verdict decideVerdict(const ArmComparison &comparison, const VerdictThresholds &thresholds)
{
    Verdict v;
    v.model = comparison.model;
    v.split = comparison.split;
    v.lift = comparison.lift;
    v.liftCi = comparison.liftCi;
    v.pairs = comparison.table.pairs();
    v.minPairs = thresholds.minPairs;
    const auto morePairs = [&]() -> std::optional<int> {
        const std::optional<int> total = pairsToDecide(comparison.table, v.pairs + Verdict::kMaxMorePairs);
        if (!total)
            return std::nullopt;
        return std::max(*total, thresholds.minPairs) - v.pairs;
    };
    if (v.pairs < thresholds.minPairs) {
        // Too few to say anything yet; with no lift so far, the minimum is what is missing.
        v.kind = Verdict::Kind::CantTell;
        v.tooFewPairs = true;
        v.morePairsNeeded = v.lift > 0 ? morePairs() : std::optional<int>(thresholds.minPairs - v.pairs);
        return v;
    }
    if (v.liftCi.high < 0) {
        v.kind = Verdict::Kind::Cut;
        v.cutReason = Verdict::CutReason::Hurts;
    } else if (v.lift <= 0) {
        v.kind = Verdict::Kind::Cut;
        v.cutReason = Verdict::CutReason::NoLift;
    } else if (v.lift <= thresholds.minLift) {
        v.kind = Verdict::Kind::Cut;
        v.cutReason = Verdict::CutReason::BelowMinimum;
    } else if (v.liftCi.low > 0) {
        v.kind = Verdict::Kind::Keep;
    } else {
        v.kind = Verdict::Kind::CantTell;
        v.morePairsNeeded = morePairs();
    }
    return v;
}

QList<Verdict> decideVerdicts(const RunSummary &summary, const VerdictThresholds &thresholds)
{
    QList<Verdict> verdicts;
    QStringList models;
    for (const ArmComparison &c : summary.comparisons) {
        if (!models.contains(c.model))
            models.append(c.model);
    }
    for (const QString &model : models) {
        const ArmComparison *c = summary.comparison(model, QStringLiteral("heldout"));
        if (!c)
            c = summary.comparison(model, QStringLiteral("all"));
        if (c)
            verdicts.append(decideVerdict(*c, thresholds));
    }
    return verdicts;
}

QJsonObject verdictsJson(const QList<Verdict> &verdicts, const VerdictThresholds &thresholds)
{
    QJsonArray list;
    for (const Verdict &v : verdicts)
        list.append(v.toJson());
    return {{QStringLiteral("thresholds"), thresholds.toJson()},
            {QStringLiteral("rule"), thresholds.describe()},
            {QStringLiteral("models"), list}};
}

} // namespace sf
