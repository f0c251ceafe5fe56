#include "TimingChecks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace sf::kernels {

namespace {

std::string number(double v)
{
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

} // namespace

std::string tamperedTimingSample(const std::vector<TimingSample> &samples)
{
    for (size_t i = 0; i < samples.size(); ++i) {
        const TimingSample &s = samples[i];
        if (!std::isfinite(s.eventUs) || s.eventUs <= 0.0)
            return "timed call " + std::to_string(i + 1) + " reports an event time of " + number(s.eventUs)
                   + " us: the GPU did not measure it, the harness's timing was tampered with";
        if (s.eventUs > s.hostUs + std::max(5.0, 0.02 * s.hostUs))
            return "timed call " + std::to_string(i + 1) + ": the events report " + number(s.eventUs)
                   + " us but the host clock around them saw " + number(s.hostUs)
                   + " us: the harness's timing was tampered with";
    }
    return {};
}

std::string belowPhysicsFloor(double medianUs, double speedOfLightUs)
{
    if (speedOfLightUs <= 0.0 || medianUs >= 0.9 * speedOfLightUs)
        return {};
    return "faster than the speed-of-light bound (" + number(medianUs) + " us < " + number(speedOfLightUs)
           + " us for the bytes moved and FLOPs done): the measurement was fooled";
}

FractionOfPeak fractionOfPeak(double bytes, double flops, double seconds, double peakBytesPerSecond,
                              double peakFlopsPerSecond)
{
    FractionOfPeak f;
    if (seconds <= 0.0)
        return f;
    if (peakBytesPerSecond > 0.0)
        f.bandwidth = bytes / seconds / peakBytesPerSecond;
    if (peakFlopsPerSecond > 0.0)
        f.compute = flops / seconds / peakFlopsPerSecond;
    return f;
}

} // namespace sf::kernels
