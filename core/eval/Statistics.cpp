#include "Statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace sf::stats {

namespace {
constexpr double kZ95 = 1.959963984540054; // the 97.5th percentile of the standard normal
}

Proportion wilson(int successes, int trials)
{
    Proportion p;
    p.successes = successes;
    p.trials = trials;
    if (trials <= 0) {
        p.ci = {0, 1};
        return p;
    }
    const double n = trials;
    const double phat = successes / n;
    const double z2 = kZ95 * kZ95;
    const double centre = (phat + z2 / (2 * n)) / (1 + z2 / n);
    const double half = kZ95 / (1 + z2 / n) * std::sqrt(phat * (1 - phat) / n + z2 / (4 * n * n));
    p.rate = phat;
    p.ci = {std::max(0.0, centre - half), std::min(1.0, centre + half)};
    return p;
}

namespace {
// The Wilson score interval for fractional counts (a projected table has them).
Interval wilsonInterval(double successes, double n)
{
    const double phat = successes / n;
    const double z2 = kZ95 * kZ95;
    const double centre = (phat + z2 / (2 * n)) / (1 + z2 / n);
    const double half = kZ95 / (1 + z2 / n) * std::sqrt(phat * (1 - phat) / n + z2 / (4 * n * n));
    return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}
} // namespace

Interval pairedDifferenceCi(double bothPass, double bothFail, double onlyFirst, double onlySecond)
{
    const double n = bothPass + bothFail + onlyFirst + onlySecond;
    if (n <= 0)
        return {-1, 1};
    const double second = (bothPass + onlySecond) / n;
    const double first = (bothPass + onlyFirst) / n;
    const Interval ci2 = wilsonInterval(bothPass + onlySecond, n);
    const Interval ci1 = wilsonInterval(bothPass + onlyFirst, n);
    const double denominator =
        (bothPass + onlyFirst) * (bothFail + onlySecond) * (bothPass + onlySecond) * (bothFail + onlyFirst);
    const double phi = denominator > 0 ? (bothPass * bothFail - onlyFirst * onlySecond) / std::sqrt(denominator) : 0;
    const double d = second - first;
    const double lowTerm = (second - ci2.low) * (second - ci2.low) -
                           2 * phi * (second - ci2.low) * (ci1.high - first) + (ci1.high - first) * (ci1.high - first);
    const double highTerm = (ci2.high - second) * (ci2.high - second) -
                            2 * phi * (ci2.high - second) * (first - ci1.low) + (first - ci1.low) * (first - ci1.low);
    return {std::max(-1.0, d - std::sqrt(std::max(0.0, lowTerm))), std::min(1.0, d + std::sqrt(std::max(0.0, highTerm)))};
}

Interval pairedDifferenceCi(const PairedTable &table)
{
    return pairedDifferenceCi(table.bothPass, table.bothFail, table.onlyFirst, table.onlySecond);
}

double mcnemarExactP(int onlyFirst, int onlySecond)
{
    const int n = onlyFirst + onlySecond;
    if (n == 0)
        return 1.0;
    const int k = std::min(onlyFirst, onlySecond);
    // Sum of C(n, i) / 2^n for i <= k, in logarithms so that large n neither overflows nor underflows early.
    double tail = 0;
    for (int i = 0; i <= k; ++i)
        tail += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) - n * std::log(2.0));
    return std::min(1.0, 2 * tail);
}

double quantileSorted(const QList<double> &sorted, double q)
{
    if (sorted.isEmpty())
        return 0;
    const double h = (sorted.size() - 1) * q;
    const auto lo = qsizetype(std::floor(h));
    const auto hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (h - double(lo)) * (sorted[hi] - sorted[lo]);
}

double median(QList<double> values)
{
    std::sort(values.begin(), values.end());
    return quantileSorted(values, 0.5);
}

ResampleIndices::ResampleIndices(quint64 seed)
{
    for (quint64 &word : m_state) { // splitmix64, the seeding xoshiro's authors recommend
        seed += 0x9e3779b97f4a7c15ULL;
        quint64 z = seed;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        word = z ^ (z >> 31);
    }
}

quint64 ResampleIndices::nextRaw()
{
    const auto rotl = [](quint64 x, int k) { return (x << k) | (x >> (64 - k)); };
    const quint64 result = rotl(m_state[1] * 5, 7) * 9;
    const quint64 t = m_state[1] << 17;
    m_state[2] ^= m_state[0];
    m_state[3] ^= m_state[1];
    m_state[1] ^= m_state[2];
    m_state[0] ^= m_state[3];
    m_state[2] ^= t;
    m_state[3] = rotl(m_state[3], 45);
    return result;
}

Distribution describe(QList<double> values, quint64 seed, int resamples)
{
    Distribution d;
    d.n = int(values.size());
    if (values.isEmpty())
        return d;
    std::sort(values.begin(), values.end());
    d.mean = std::accumulate(values.cbegin(), values.cend(), 0.0) / double(values.size());
    d.median = quantileSorted(values, 0.5);
    ResampleIndices indices(seed);
    QList<double> means;
    QList<double> medians;
    means.reserve(resamples);
    medians.reserve(resamples);
    // A resample is drawn as counts of each index into the sorted values: its sorted order, sum and middle
    // elements then come from one pass over the counts, the same numbers a sort of the drawn values would give,
    // in linear time (a 40,000-item run has hundreds of these distributions).
    const qsizetype n = values.size();
    const qsizetype lowMiddle = (n - 1) / 2;
    const qsizetype highMiddle = n / 2;
    // Plain arrays in the loops: a non-const QList checks whether to detach on every access.
    std::vector<int> counts(static_cast<size_t>(n));
    const double *sorted = values.constData();
    for (int r = 0; r < resamples; ++r) {
        std::fill(counts.begin(), counts.end(), 0);
        for (qsizetype i = 0; i < n; ++i)
            ++counts[size_t(indices.next(n))];
        double sum = 0;
        double low = 0;
        double high = 0;
        qsizetype seen = 0;
        for (qsizetype j = 0; j < n; ++j) {
            const int count = counts[size_t(j)];
            for (int c = 0; c < count; ++c)
                sum += sorted[j];
            if (seen <= lowMiddle && lowMiddle < seen + count)
                low = sorted[j];
            if (seen <= highMiddle && highMiddle < seen + count)
                high = sorted[j];
            seen += count;
        }
        means.append(sum / double(n));
        medians.append(low + (high - low) * 0.5 * double(highMiddle - lowMiddle));
    }
    std::sort(means.begin(), means.end());
    std::sort(medians.begin(), medians.end());
    d.meanCi = {quantileSorted(means, 0.025), quantileSorted(means, 0.975)};
    d.medianCi = {quantileSorted(medians, 0.025), quantileSorted(medians, 0.975)};
    return d;
}

} // namespace sf::stats
