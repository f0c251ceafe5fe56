#pragma once
// Timing statistics of the kernel runner. Plain C++17, shared with skillforge_core for tests.

#include <cstddef>
#include <vector>

namespace sf::kernels {

/// Summary of timing samples (microseconds).
struct SampleSummary
{
    size_t count = 0;
    double median = 0.0;
    double medianLow = 0.0;  ///< ~95% confidence interval of the median (order statistics)
    double medianHigh = 0.0;
    double mean = 0.0;
    double stddev = 0.0;     ///< Bessel-corrected
    double relStdError = 0.0; ///< standard error of the mean / mean
    double min = 0.0;
    double max = 0.0;
};

SampleSummary summarize(std::vector<double> samples);

/// Relative spread of several medians: (max - min) / median of them.
double relativeSpread(std::vector<double> medians);

} // namespace sf::kernels
