#include "Statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

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

Distribution describe(QList<double> values, quint64 seed, int resamples)
{
    Distribution d;
    d.n = int(values.size());
    if (values.isEmpty())
        return d;
    std::sort(values.begin(), values.end());
    d.mean = std::accumulate(values.cbegin(), values.cend(), 0.0) / double(values.size());
    d.median = quantileSorted(values, 0.5);
    // std::mt19937_64 is specified exactly, unlike the standard distributions, so indices come from it directly:
    // the same seed gives the same interval on every platform.
    std::mt19937_64 rng(seed);
    QList<double> means;
    QList<double> medians;
    means.reserve(resamples);
    medians.reserve(resamples);
    QList<double> sample(values.size());
    // values is sorted, so a resample sorted is each drawn index's value repeated as often as it was drawn, in
    // index order: a counting sort gives exactly the array std::sort would (same additions, same quantiles) in
    // linear time, which matters for runs of thousands of items with many models.
    QList<int> draws(values.size());
    for (int r = 0; r < resamples; ++r) {
        std::fill(draws.begin(), draws.end(), 0);
        for (qsizetype i = 0; i < sample.size(); ++i)
            ++draws[qsizetype(rng() % quint64(values.size()))];
        qsizetype next = 0;
        for (qsizetype i = 0; i < draws.size(); ++i) {
            for (int k = 0; k < draws[i]; ++k)
                sample[next++] = values[i];
        }
        means.append(std::accumulate(sample.cbegin(), sample.cend(), 0.0) / double(sample.size()));
        medians.append(quantileSorted(sample, 0.5));
    }
    std::sort(means.begin(), means.end());
    std::sort(medians.begin(), medians.end());
    d.meanCi = {quantileSorted(means, 0.025), quantileSorted(means, 0.975)};
    d.medianCi = {quantileSorted(medians, 0.025), quantileSorted(medians, 0.975)};
    return d;
}

} // namespace sf::stats
