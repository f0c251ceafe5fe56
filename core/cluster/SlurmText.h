#pragma once

#include <QList>
#include <QString>

namespace sf::slurm {

/// One line of `squeue -h -t all -r -o '%i|%T|%r'`: an array task ("123_4") or a plain job ("123").
struct TaskState
{
    QString id;
    QString state; ///< PENDING, RUNNING, COMPLETED, FAILED, TIMEOUT, CANCELLED, NODE_FAIL, OUT_OF_MEMORY...
    QString reason;
};

QList<TaskState> parseSqueue(const QString &text);
/// `sbatch --parsable` prints "JOBID" or "JOBID;CLUSTER"; "" when it printed neither.
QString parseSbatchJobId(const QString &text);
/// Whether Slurm is done with a job in this state (it will not run again by itself).
bool isFinalState(const QString &state);
/// Whether a pending job's reason means it will never start by itself (a constraint no node meets, an account or
/// QOS it may not use, a limit of its partition): waiting would be a hang.
bool pendsForever(const QString &reason);
/// The words the Jobs panel and the command line show for a state: pending, running, done, failed, timeout,
/// cancelled.
QString stateWord(const QString &state);
/// sbatch's refusal in plain words, naming what to change; @p stderrText is what sbatch printed.
QString refusalMessage(const QString &stderrText);
/// @p text quoted for a POSIX shell.
QString shellQuote(const QString &text);

} // namespace sf::slurm
