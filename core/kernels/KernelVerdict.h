#pragma once

#include "kernels/KernelBuild.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace sf {

/// Correctness of one shape and seed, as the runner measured it.
struct KernelCorrectnessRow
{
    QString shape;
    int seed = 0;
    bool passed = false;
    qint64 elements = 0;
    qint64 mismatches = 0;
    double maxAbsError = 0;
    double maxRelError = 0;
    double relL2Error = 0;
    QString failure;
};

/// Timing of one shape: candidate against baseline, and against the speed-of-light bound.
struct KernelTimingRow
{
    QString shape;
    QString dims;
    double candidateMedianUs = 0;
    double candidateLowUs = 0;
    double candidateHighUs = 0;
    double candidateRelStdError = 0;
    int candidateSamples = 0;
    double baselineMedianUs = 0;
    double speedup = 0;
    double bandwidthGbs = 0;
    double tflops = 0;
    double speedOfLightUs = 0;
    double fractionOfSpeedOfLight = 0;
    double fractionOfPeakBandwidth = 0; ///< achieved bytes/s over the device's peak
    double fractionOfPeakCompute = 0;   ///< achieved FP32 FLOP/s over the device's peak
    int checkedTimedCalls = 0;          ///< timed calls whose outputs were read back and judged
    QStringList flags;
};

/**
 * The outcome of checking one candidate kernel: passed, failed (with the reason), or not run
 * (compiled, but no CUDA device here) — "not run" is never a pass. Carries the build facts and,
 * when the runner ran, its authenticated report.
 */
struct KernelVerdict
{
    enum class Status { Passed, Failed, NotRun };

    Status status = Status::Failed;
    QString reason;        ///< one line
    QString taskId;
    QString dtype;
    QString candidateName;
    QString source;        ///< the candidate's source, so compiler errors can be shown in place
    KernelBuildResult build;
    QJsonObject runner;    ///< the runner's verdict body, verbatim (empty when it did not run)

    // Parsed from runner:
    QJsonObject device;
    QList<KernelCorrectnessRow> correctness;
    QList<KernelTimingRow> timing;
    QStringList flags;
    QStringList notes;

    bool passed() const { return status == Status::Passed; }
    bool notRun() const { return status == Status::NotRun; }
    QString statusText() const; ///< "passed", "failed", "compiled, not run"

    /// Human-readable evidence: what was built, what was run, what failed; several lines.
    QString evidence() const;

    /// Fills the runner-derived fields from @p body (the runner's JSON verdict).
    void setRunnerReport(const QJsonObject &body);

    QJsonObject toJson() const;
    static KernelVerdict fromJson(const QJsonObject &json);
};

} // namespace sf

Q_DECLARE_METATYPE(sf::KernelVerdict)
