#include "CommandRegistry.h"
#include "cluster/ClusterJob.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QProcessEnvironment>

namespace sf::cli {

namespace {

// Runs one description and writes its result; false when the result could not be written.
bool runOne(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        err(QStringLiteral("skillforge cluster run-job: cannot read %1: %2\n").arg(path, file.errorString()));
        return false;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    const ClusterJob job = ClusterJob::fromJson(doc.object());
    if (parseError.error != QJsonParseError::NoError || job.resultPath.isEmpty()) {
        err(QStringLiteral("skillforge cluster run-job: %1 is not a job description\n").arg(path));
        return false;
    }
    ClusterJobResult result = runClusterJob(job);
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    result.where = env.contains(QStringLiteral("SLURM_ARRAY_JOB_ID"))
                       ? QStringLiteral("%1_%2").arg(env.value(QStringLiteral("SLURM_ARRAY_JOB_ID")),
                                                     env.value(QStringLiteral("SLURM_ARRAY_TASK_ID")))
                       : env.value(QStringLiteral("SLURM_JOB_ID"), QStringLiteral("local"));
    if (const QString e = writeClusterJobResult(job.resultPath, result); !e.isEmpty()) {
        err(QStringLiteral("skillforge cluster run-job: %1\n").arg(e));
        return false;
    }
    return true;
}

int runJob(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("job"), QString());
    parser.addOption({QStringLiteral("dir"), QString(), QStringLiteral("DIR")});
    parser.addOption({QStringLiteral("task"), QString(), QStringLiteral("T")});
    parser.addOption({QStringLiteral("tasks"), QString(), QStringLiteral("N")});
    if (!parseArguments(parser, QStringLiteral("cluster run-job"), arguments))
        return BadUsage;
    QStringList paths = parser.positionalArguments();
    if (parser.isSet(QStringLiteral("dir"))) {
        // An array task's share of a batch: jobs task, task + tasks, task + 2 tasks...
        bool ok = true;
        const int task = parser.value(QStringLiteral("task")).toInt(&ok);
        const int tasks = ok ? parser.value(QStringLiteral("tasks")).toInt(&ok) : 0;
        if (!ok || task < 0 || tasks < 1) {
            err(QStringLiteral("skillforge cluster run-job: --dir needs --task T and --tasks N\n"));
            return BadUsage;
        }
        const QDir dir(parser.value(QStringLiteral("dir")));
        for (int i = task; QFileInfo::exists(dir.filePath(QStringLiteral("job-%1.json").arg(i))); i += tasks)
            paths << dir.filePath(QStringLiteral("job-%1.json").arg(i));
    }
    if (paths.isEmpty()) {
        err(QStringLiteral(
            "skillforge cluster run-job: needs JOB.json or --dir DIR --task T --tasks N (see --help)\n"));
        return BadUsage;
    }
    bool allWritten = true;
    for (const QString &path : std::as_const(paths))
        allWritten = runOne(path) && allWritten;
    return allWritten ? Success : CheckFailed;
}

} // namespace

Command clusterRunJobCommand()
{
    Command command;
    command.words = {QStringLiteral("cluster"), QStringLiteral("run-job")};
    command.summary = QStringLiteral("run job descriptions on a cluster node (what Slurm's array tasks call)");
    command.help = QStringLiteral(
        "Usage: skillforge cluster run-job JOB.json... | --dir DIR --task T --tasks N\n\n"
        "Runs each job that `eval --executor slurm` or `kernel check --executor slurm` wrote into the\n"
        "shared folder (a command verifier's command, or a kernel check) with the same sandboxed code\n"
        "as a local run, and writes its result file atomically where the description says. Slurm's\n"
        "array tasks call it on the node with --dir: task T of N runs DIR/job-T.json, job-(T+N).json...\n"
        "It makes no model call and reads no provider key.\n\n"
        "Exit codes: 0 every result was written (whatever the verdicts), 1 one could not be, 2 bad usage.\n");
    command.run = runJob;
    return command;
}

} // namespace sf::cli
