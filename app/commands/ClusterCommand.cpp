#include "CommandRegistry.h"
#include "cluster/ClusterJob.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonDocument>
#include <QProcessEnvironment>

namespace sf::cli {

namespace {

int runJob(const QStringList &arguments)
{
    QCommandLineParser parser;
    parser.addPositionalArgument(QStringLiteral("job"), QString());
    if (!parseArguments(parser, QStringLiteral("cluster run-job"), arguments))
        return BadUsage;
    if (parser.positionalArguments().size() != 1) {
        err(QStringLiteral("skillforge cluster run-job: needs one JOB.json (see --help)\n"));
        return BadUsage;
    }
    const QString path = parser.positionalArguments().constFirst();
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        err(QStringLiteral("skillforge cluster run-job: cannot read %1: %2\n").arg(path, file.errorString()));
        return BadUsage;
    }
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    const ClusterJob job = ClusterJob::fromJson(doc.object());
    if (parseError.error != QJsonParseError::NoError || job.resultPath.isEmpty()) {
        err(QStringLiteral("skillforge cluster run-job: %1 is not a job description\n").arg(path));
        return BadUsage;
    }
    ClusterJobResult result = runClusterJob(job);
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    result.where = env.contains(QStringLiteral("SLURM_ARRAY_JOB_ID"))
                       ? QStringLiteral("%1_%2").arg(env.value(QStringLiteral("SLURM_ARRAY_JOB_ID")),
                                                     env.value(QStringLiteral("SLURM_ARRAY_TASK_ID")))
                       : env.value(QStringLiteral("SLURM_JOB_ID"), QStringLiteral("local"));
    if (const QString e = writeClusterJobResult(job.resultPath, result); !e.isEmpty()) {
        err(QStringLiteral("skillforge cluster run-job: %1\n").arg(e));
        return CheckFailed;
    }
    return result.ok() ? Success : CheckFailed;
}

} // namespace

Command clusterRunJobCommand()
{
    Command command;
    command.words = {QStringLiteral("cluster"), QStringLiteral("run-job")};
    command.summary = QStringLiteral("run one job description on a cluster node (what Slurm jobs call)");
    command.help =
        QStringLiteral("Usage: skillforge cluster run-job JOB.json\n\n"
                       "Runs one job that `eval --executor slurm` or `kernel check --executor slurm` wrote into the\n"
                       "shared folder (a command verifier's command, or a kernel check) with the same sandboxed code\n"
                       "as a local run, and writes its result file atomically where the description says. Slurm's\n"
                       "array tasks call it on the node; it makes no model call and reads no provider key.\n\n"
                       "Exit codes: 0 the job ran (whatever its verdict), 1 it could not, 2 bad usage.\n");
    command.run = runJob;
    return command;
}

} // namespace sf::cli
