#include "Statistics.h"

#include <algorithm>
#include <cmath>

namespace sf::kernels {

namespace {
double medianOfSorted(const std::vector<double> &v)
{
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
} // namespace

SampleSummary summarize(std::vector<double> samples)
{
    SampleSummary s;
    s.count = samples.size();
    if (samples.empty())
        return s;
    std::sort(samples.begin(), samples.end());
    s.min = samples.front();
    s.max = samples.back();
    s.median = medianOfSorted(samples);
    double sum = 0.0;
    for (double v : samples)
        sum += v;
    s.mean = sum / double(s.count);
    if (s.count > 1) {
        double ss = 0.0;
        for (double v : samples)
            ss += (v - s.mean) * (v - s.mean);
        s.stddev = std::sqrt(ss / double(s.count - 1));
        s.relStdError = s.mean > 0.0 ? s.stddev / std::sqrt(double(s.count)) / s.mean : 0.0;
    }
    // Distribution-free interval: ranks n/2 -+ 1.96 * sqrt(n) / 2.
    const double half = 0.98 * std::sqrt(double(s.count));
    const double lowRank = std::floor(double(s.count) / 2.0 - half);
    const double highRank = std::ceil(double(s.count) / 2.0 + half);
    s.medianLow = samples[size_t(std::max(0.0, lowRank))];
    s.medianHigh = samples[size_t(std::min(double(s.count - 1), highRank))];
    return s;
}

double relativeSpread(std::vector<double> medians)
{
    if (medians.size() < 2)
        return 0.0;
    std::sort(medians.begin(), medians.end());
    const double mid = medianOfSorted(medians);
    return mid > 0.0 ? (medians.back() - medians.front()) / mid : 0.0;
}

} // namespace sf::kernels
