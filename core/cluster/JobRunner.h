#pragma once

#include "ClusterJob.h"

#include <QString>

namespace sf {

/**
 * Runs job descriptions: in this process (LocalJobRunner) or on a cluster scheduler (SlurmJobRunner), with the
 * same results. run() blocks and is safe to call from many worker threads at once, which is how the verifiers of
 * many items reach a runner together (and how the Slurm runner gathers them into one job array).
 */
class JobRunner
{
public:
    virtual ~JobRunner() = default;

    /// Runs @p job and returns how it ended. Blocking; thread-safe.
    virtual ClusterJobResult run(const ClusterJob &job) = 0;
    /// Abandons every job in flight: each waiting run() returns with an error ("cancelled").
    virtual void cancelAll() = 0;
    /// "local", "slurm": what the choice of executor is called on the command line.
    virtual QString name() const = 0;
};

/// Runs each job here, on the calling thread.
class LocalJobRunner final : public JobRunner
{
public:
    ClusterJobResult run(const ClusterJob &job) override;
    void cancelAll() override {}
    QString name() const override { return QStringLiteral("local"); }
};

} // namespace sf
