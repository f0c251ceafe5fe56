#pragma once

#include <QString>
#include <QStringList>

namespace sf {

/// The user's Slurm settings (AppSettings' slurm/ group): what `--executor slurm` uses where the command line
/// names nothing else. Empty fields leave the choice to Slurm (its default partition, no gres) or to Skillforge.
struct SlurmProfile
{
    QString slurmConf; ///< SLURM_CONF for the client tools
    QString partition;
    QString gres; ///< for GPU jobs, e.g. "gpu:1"
    QString account;
    QString time;           ///< Slurm's time limit syntax
    QStringList sbatchArgs; ///< more sbatch options, each as sbatch reads it
    QString sharedDir;      ///< the folder the nodes see (job files and results)

    bool operator==(const SlurmProfile &) const = default;
};

} // namespace sf
