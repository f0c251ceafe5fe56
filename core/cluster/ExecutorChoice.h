#pragma once

#include "JobRunner.h"
#include "SlurmJobRunner.h"
#include "SlurmProfile.h"

#include <QJsonObject>
#include <memory>
#include <variant>

namespace sf {

/**
 * Where the heavy work of an evaluation or a kernel check runs: here, or as Slurm jobs with a profile's options.
 * The command line (`--executor`), the evaluation launch dialog and the Kernels view all end in one of these, and
 * run.json records it, so that `eval --resume` and the Runs view's Resume use the same executor again. A profile
 * holds no secret: recording it is safe.
 */
struct ExecutorChoice
{
    enum class Kind
    {
        Local,
        Slurm
    };
    Kind kind = Kind::Local;
    SlurmProfile slurm; ///< the options when kind is Slurm

    static ExecutorChoice local() { return {}; }
    static ExecutorChoice onSlurm(const SlurmProfile &profile) { return {Kind::Slurm, profile}; }

    bool isSlurm() const { return kind == Kind::Slurm; }
    /// "local" or "slurm", as `--executor` names it.
    QString name() const;
    /// "this machine", or "Slurm (partition gpu, gres gpu:1, time 30)": what a person reads.
    QString describe() const;
    /// The Slurm options alone: "partition gpu, gres gpu:1", or "the cluster's defaults".
    QString slurmOptionsText() const;
    /// {"name": "slurm", "partition": ..., "gres": ..., "account": ..., "time": ..., "slurm_conf": ...,
    /// "shared_dir": ..., "sbatch_options": [...]}; {"name": "local"} for work done here.
    QJsonObject toJson() const;
    /// An empty object (a run.json from before the executor was recorded) or an unknown name is local.
    static ExecutorChoice fromJson(const QJsonObject &json);

    bool operator==(const ExecutorChoice &) const = default;
};

/// Why Slurm cannot be chosen on this machine, in plain words, or "" when it can (sbatch is on PATH).
QString whySlurmUnavailable();

/// What a SlurmJobRunner needs beyond the profile: the skillforge the nodes run (empty: this program) and how often
/// it polls (0: the runner's default).
struct SlurmTuning
{
    QString program;
    int pollMs = 0;
};

/// @p profile as a run uses it: SLURM_CONF from the environment when the profile names none, the file and the
/// shared folder as absolute paths (what run.json records, so a resume from another folder finds them).
SlurmProfile resolveSlurmProfile(const SlurmProfile &profile);

/// The runner's options for a profile (resolved as above).
SlurmOptions slurmOptionsFor(const SlurmProfile &profile, const SlurmTuning &tuning = {});

/// The job runner @p choice asks for: none (nullptr) for work done here, or a SlurmJobRunner that
/// `sbatch --test-only` accepted, with the profile's GPU gres when @p gpu; else the refusal in plain words.
/// Blocking (it runs sbatch): off the UI thread.
std::variant<std::shared_ptr<JobRunner>, QString> makeJobRunner(const ExecutorChoice &choice, bool gpu,
                                                                const SlurmTuning &tuning = {});

/// Whether Slurm would take jobs with @p profile (the same `sbatch --test-only` a run starts with; with the GPU gres
/// when the profile names one): "" when it would, else why not. Blocking: off the UI thread.
QString checkSlurmProfile(const SlurmProfile &profile, const SlurmTuning &tuning = {});

} // namespace sf
