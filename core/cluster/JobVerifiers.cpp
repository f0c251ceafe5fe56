#include "JobVerifiers.h"

#include "eval/CudaKernelVerifier.h"
#include "kernels/KernelVerdict.h"

#include <QFile>
#include <QFileInfo>

namespace sf {

CommandRunner jobCommandRunner(std::shared_ptr<JobRunner> runner)
{
    return [runner](const QString &command, const QString &workspace, int timeoutMs) {
        ClusterJob job;
        job.kind = QLatin1String(ClusterJob::kCommand);
        job.inputs = {{QStringLiteral("command"), command},
                      {QStringLiteral("workspace"), workspace},
                      {QStringLiteral("timeout_ms"), timeoutMs}};
        job.timeLimitSeconds = (timeoutMs + 999) / 1000;
        const ClusterJobResult r = runner->run(job);
        CommandOutcome o;
        if (!r.ok()) {
            o.error = r.error;
            o.jobError = r.error;
            return o;
        }
        const QJsonObject &out = r.output;
        o.ran = out.value(QStringLiteral("ran")).toBool();
        o.exitCode = out.value(QStringLiteral("exit_code")).toInt(-1);
        o.timedOut = out.value(QStringLiteral("timed_out")).toBool();
        o.outOfMemory = out.value(QStringLiteral("out_of_memory")).toBool();
        o.output = out.value(QStringLiteral("output")).toString();
        o.error = out.value(QStringLiteral("error")).toString();
        o.wallMs = qint64(out.value(QStringLiteral("wall_ms")).toDouble());
        return o;
    };
}

ClusterJob kernelCheckJob(const QString &taskId, const QString &dtype, const QString &source,
                          const QString &candidateName, const QString &projectKernelsFolder, const QString &arch,
                          bool timing)
{
    ClusterJob job;
    job.kind = QLatin1String(ClusterJob::kKernelCheck);
    job.needsGpu = true;
    job.inputs = {{QStringLiteral("task"), taskId},
                  {QStringLiteral("dtype"), dtype},
                  {QStringLiteral("source"), source},
                  {QStringLiteral("candidate_name"), candidateName},
                  {QStringLiteral("project_kernels"), projectKernelsFolder},
                  {QStringLiteral("arch"), arch},
                  {QStringLiteral("timing"), timing}};
    return job;
}

JobKernelChecker::JobKernelChecker(std::shared_ptr<JobRunner> runner, QString projectKernelsFolder)
    : m_runner(std::move(runner))
    , m_projectKernelsFolder(std::move(projectKernelsFolder))
{
}

VerifierOutcome JobKernelChecker::check(const VerifierSpec &spec, const QString &workspace, const QString &sourcePath)
{
    Q_UNUSED(workspace);
    VerifierOutcome outcome;
    const std::optional<QString> source = readStudentKernel(spec, sourcePath, &outcome);
    if (!source)
        return outcome;
    const ClusterJobResult r =
        m_runner->run(kernelCheckJob(spec.task, spec.dtype.isEmpty() ? QStringLiteral("bf16") : spec.dtype, *source,
                                     QFileInfo(sourcePath).fileName(), m_projectKernelsFolder));
    if (!r.ok()) {
        outcome.type = spec.type;
        outcome.name = spec.name;
        outcome.available = false;
        outcome.evidence = QStringLiteral("not available: ") + r.error;
        outcome.jobError = r.error;
        return outcome;
    }
    return kernelVerdictOutcome(spec, KernelVerdict::fromJson(r.output));
}

} // namespace sf
