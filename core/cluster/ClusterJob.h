#pragma once

#include <QJsonObject>
#include <QString>
#include <optional>

namespace sf {

/**
 * One piece of heavy work as a description both executors run alike: what to run (`kind` and its inputs), its
 * limits, and where its result lands. The local runner calls runClusterJob() in this process; the Slurm runner
 * writes the description to the shared folder and `skillforge cluster run-job FILE` calls the same function on
 * the node. Nothing secret is ever part of a job: model calls stay in the Skillforge process.
 */
struct ClusterJob
{
    static constexpr auto kCommand = "command";          ///< inputs: command, workspace, timeout_ms
    static constexpr auto kKernelCheck = "kernel_check"; ///< inputs: task, dtype, source, candidate_name, ...

    QString kind;
    QJsonObject inputs;
    bool needsGpu = false;    ///< asks the scheduler for the GPU gres
    int timeLimitSeconds = 0; ///< the work's own limit (0: none); the scheduler's limit is a backstop
    QString resultPath;       ///< where the result file lands (set by the runner)

    QJsonObject toJson() const;
    static ClusterJob fromJson(const QJsonObject &json);
};

/// How a job ended: `output` is the kind's result, or `error` says why there is none (the job failed on the
/// node, was refused or cancelled): an infrastructure fault, never the work's own verdict.
struct ClusterJobResult
{
    QString error;
    QJsonObject output;
    QString where; ///< "local", or the Slurm job id ("123_4")

    bool ok() const { return error.isEmpty(); }
    QJsonObject toJson() const;
    static ClusterJobResult fromJson(const QJsonObject &json);
};

/// Runs @p job here with the same sandboxed code as a local evaluation (blocking).
ClusterJobResult runClusterJob(const ClusterJob &job);

/// Writes @p result to @p path atomically (a reader never sees half a file); an error message, or "".
QString writeClusterJobResult(const QString &path, const ClusterJobResult &result);
/// Reads a result file; nothing when it is absent or not (yet) a whole result.
std::optional<ClusterJobResult> readClusterJobResult(const QString &path);

} // namespace sf
