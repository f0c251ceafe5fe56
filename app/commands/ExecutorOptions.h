#pragma once

#include "cluster/ExecutorChoice.h"

#include <QString>
#include <memory>
#include <optional>
#include <variant>

class QCommandLineParser;

namespace sf::cli {

/// Adds --executor local|slurm and the Slurm options (--partition, --gres, --account, --time, --slurm-conf,
/// --shared-dir, --sbatch-option) to @p parser.
void addExecutorOptions(QCommandLineParser &parser);

/// The help lines for those options.
QString executorOptionsHelp();

/// The executor the options choose, or why they are wrong. Each option given wins over @p recorded (what a resumed
/// run's run.json records), which wins over the settings' Slurm profile.
std::variant<ExecutorChoice, QString> executorFromOptions(const QCommandLineParser &parser,
                                                          const std::optional<ExecutorChoice> &recorded = {});

/// The job runner for @p choice: none for local work as before (nullptr), or a SlurmJobRunner checked with
/// `sbatch --test-only` (with the GPU gres when @p gpu) that Ctrl-C or SIGTERM scancels, or the reason it cannot be
/// used.
std::variant<std::shared_ptr<JobRunner>, QString> jobRunnerFor(const QCommandLineParser &parser,
                                                               const ExecutorChoice &choice, bool gpu);

/// After the work a Ctrl-C or SIGTERM cut short: waits there while the interrupt's thread cancels the Slurm jobs and
/// ends the process with 130. Cancelling lets the waiting verifiers go before scancel has finished, so without this
/// the command could end first, with its usual exit code, and take scancel with it (children end with Skillforge).
void waitIfInterrupted();

/// The two above for a command without a run to resume (kernel check).
std::variant<std::shared_ptr<JobRunner>, QString> jobRunnerFromOptions(const QCommandLineParser &parser, bool gpu);

} // namespace sf::cli
