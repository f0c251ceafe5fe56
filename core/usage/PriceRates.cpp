#include "PriceRates.h"

#include <QLocale>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

QString dollars(double usd)
{
    // Prices are quoted to the cent, and finer below a dollar ($0.075, $0.0375).
    QString text = QString::number(usd, 'f', usd < 1 ? 4 : 2);
    while (text.contains(u'.') && text.endsWith(u'0') && text.section(u'.', 1).size() > 2)
        text.chop(1);
    if (text.endsWith(".00"_L1))
        text.chop(3);
    return u'$' + text;
}

QString thousands(qint64 tokens)
{
    return tokens % 1000 == 0 ? u"%1K"_s.arg(tokens / 1000) : QLocale::c().toString(tokens);
}

} // namespace

double Rate::at(qint64 promptTokens) const
{
    double rate = usdPerMillion;
    for (const RateTier &tier : tiers)
        if (promptTokens > tier.aboveInputTokens)
            rate = tier.usdPerMillion;
    return rate;
}

QList<qint64> ModelRates::tierThresholds() const
{
    QList<const Rate *> rates{&input, &output, &cacheRead, &cacheWrite5m, &cacheWrite1h};
    if (outputReasoning)
        rates.append(&*outputReasoning);
    QList<qint64> thresholds;
    for (const Rate *rate : rates)
        for (const RateTier &tier : rate->tiers)
            if (!thresholds.contains(tier.aboveInputTokens))
                thresholds.append(tier.aboveInputTokens);
    std::sort(thresholds.begin(), thresholds.end());
    return thresholds;
}

double ModelRates::costOf(const TokenUsage &usage) const
{
    const qint64 prompt = usage.totalInput();
    const qint64 plainOutput = outputReasoning ? usage.output - usage.reasoning : usage.output;
    double dollarsTimesMillion =
        double(usage.uncachedInput) * input.at(prompt) + double(usage.cacheRead) * cacheRead.at(prompt) +
        double(usage.cacheWrite5m) * cacheWrite5m.at(prompt) + double(usage.cacheWrite1h) * cacheWrite1h.at(prompt) +
        double(plainOutput) * output.at(prompt);
    if (outputReasoning)
        dollarsTimesMillion += double(usage.reasoning) * outputReasoning->at(prompt);
    return dollarsTimesMillion / 1e6 + usdPerThousandRequests / 1000;
}

QString ModelRates::summary() const
{
    const auto ratesAbove = [this](qint64 prompt) {
        QStringList parts{dollars(input.at(prompt + 1)) + " input"_L1, dollars(output.at(prompt + 1)) + " output"_L1};
        if (outputReasoning)
            parts << dollars(outputReasoning->at(prompt + 1)) + " reasoning"_L1;
        parts << dollars(cacheRead.at(prompt + 1)) + " cache read"_L1;
        if (cacheWrite5m.at(prompt + 1) == cacheWrite1h.at(prompt + 1)) {
            parts << dollars(cacheWrite5m.at(prompt + 1)) + " cache write"_L1;
        } else {
            parts << dollars(cacheWrite5m.at(prompt + 1)) + " cache write (5 min)"_L1
                  << dollars(cacheWrite1h.at(prompt + 1)) + " cache write (1 h)"_L1;
        }
        return parts.join(", "_L1);
    };
    QString text = ratesAbove(-1) + " per million tokens"_L1;
    for (const qint64 threshold : tierThresholds())
        text += u"; above %1 input tokens: %2"_s.arg(thousands(threshold), ratesAbove(threshold));
    if (usdPerThousandRequests > 0)
        text += u"; %1 per 1,000 requests"_s.arg(dollars(usdPerThousandRequests));
    return text;
}

} // namespace sf
