#pragma once

#include "cluster/JobRunner.h"

#include <QString>
#include <memory>
#include <variant>

class QCommandLineParser;

namespace sf::cli {

/// Adds --executor local|slurm and the Slurm options (--partition, --gres, --account, --time, --slurm-conf,
/// --shared-dir, --sbatch-option) to @p parser.
void addExecutorOptions(QCommandLineParser &parser);

/// The help lines for those options.
QString executorOptionsHelp();

/// The job runner the options choose: none for local work as before (nullptr), a SlurmJobRunner checked with
/// `sbatch --test-only` (with the GPU gres when @p gpu), or the reason it cannot be used.
std::variant<std::shared_ptr<JobRunner>, QString> jobRunnerFromOptions(const QCommandLineParser &parser, bool gpu);

} // namespace sf::cli
