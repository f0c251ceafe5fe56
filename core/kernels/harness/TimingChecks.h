#pragma once
// Judgements on the runner's timing samples that need no GPU. Plain C++17, shared by skillforge_core (for tests)
// and the kernel runner.

#include <string>
#include <vector>

namespace sf::kernels {

/// One timed call: CUDA events around it on its stream, and the host clock around the events and a device-wide
/// synchronize.
struct TimingSample
{
    double eventUs = 0.0;
    double hostUs = 0.0;
};

/// Why @p samples cannot be real ("" when they can): the host clock brackets the events, so an event time
/// that is not a positive finite number, or that exceeds the host time around it by more than max(5 us, 2%), was
/// not measured by the GPU: the harness's timing was patched. Checked on every sample, not on a median, so one
/// forged sample among honest ones is found too.
std::string tamperedTimingSample(const std::vector<TimingSample> &samples);

/// Why a median time of @p medianUs is impossible for the bytes moved and FLOPs done ("" when it is not): below
/// 0.9 x the speed-of-light bound @p speedOfLightUs the measurement was fooled (work done earlier, elsewhere, or
/// not at all), and the verdict is a failure, not a flag. The 10% slack covers clock and bandwidth rounding.
std::string belowPhysicsFloor(double medianUs, double speedOfLightUs);

/// What the kernel achieved as a share of the device's peak: bandwidth (bytes / time over peak bytes/s) and
/// compute (FLOPs / time over peak FLOP/s). 0 where a figure is unknown.
struct FractionOfPeak
{
    double bandwidth = 0.0;
    double compute = 0.0;
};
FractionOfPeak fractionOfPeak(double bytes, double flops, double seconds, double peakBytesPerSecond,
                              double peakFlopsPerSecond);

} // namespace sf::kernels
