#include "ClusterJob.h"

#include "eval/SandboxCommand.h"
#include "kernels/KernelCheck.h"

#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>

namespace sf {

namespace {

QJsonObject commandOutput(const CommandOutcome &o)
{
    return {{QStringLiteral("ran"), o.ran},
            {QStringLiteral("exit_code"), o.exitCode},
            {QStringLiteral("timed_out"), o.timedOut},
            {QStringLiteral("out_of_memory"), o.outOfMemory},
            {QStringLiteral("output"), o.output},
            {QStringLiteral("error"), o.error},
            {QStringLiteral("wall_ms"), o.wallMs}};
}

} // namespace

QJsonObject ClusterJob::toJson() const
{
    return {{QStringLiteral("kind"), kind},
            {QStringLiteral("inputs"), inputs},
            {QStringLiteral("needs_gpu"), needsGpu},
            {QStringLiteral("time_limit_s"), timeLimitSeconds},
            {QStringLiteral("result"), resultPath}};
}

ClusterJob ClusterJob::fromJson(const QJsonObject &json)
{
    ClusterJob job;
    job.kind = json.value(QStringLiteral("kind")).toString();
    job.inputs = json.value(QStringLiteral("inputs")).toObject();
    job.needsGpu = json.value(QStringLiteral("needs_gpu")).toBool();
    job.timeLimitSeconds = json.value(QStringLiteral("time_limit_s")).toInt();
    job.resultPath = json.value(QStringLiteral("result")).toString();
    return job;
}

QJsonObject ClusterJobResult::toJson() const
{
    QJsonObject json{{QStringLiteral("output"), output}, {QStringLiteral("where"), where}};
    if (!error.isEmpty())
        json.insert(QStringLiteral("error"), error);
    return json;
}

ClusterJobResult ClusterJobResult::fromJson(const QJsonObject &json)
{
    ClusterJobResult r;
    r.error = json.value(QStringLiteral("error")).toString();
    r.output = json.value(QStringLiteral("output")).toObject();
    r.where = json.value(QStringLiteral("where")).toString();
    return r;
}

ClusterJobResult runClusterJob(const ClusterJob &job)
{
    ClusterJobResult result;
    const QJsonObject &in = job.inputs;
    if (job.kind == QLatin1String(ClusterJob::kCommand)) {
        const CommandOutcome o = sandboxCommandRunner()(in.value(QStringLiteral("command")).toString(),
                                                        in.value(QStringLiteral("workspace")).toString(),
                                                        in.value(QStringLiteral("timeout_ms")).toInt());
        result.output = commandOutput(o);
    } else if (job.kind == QLatin1String(ClusterJob::kKernelCheck)) {
        KernelCheckRequest request;
        request.taskId = in.value(QStringLiteral("task")).toString();
        request.dtype = in.value(QStringLiteral("dtype")).toString(request.dtype);
        request.source = in.value(QStringLiteral("source")).toString();
        request.candidateName = in.value(QStringLiteral("candidate_name")).toString(request.candidateName);
        request.projectKernelsFolder = in.value(QStringLiteral("project_kernels")).toString();
        request.arch = in.value(QStringLiteral("arch")).toString();
        request.timing = in.value(QStringLiteral("timing")).toBool(true);
        result.output = KernelCheck::run(request).toJson();
    } else {
        result.error = QStringLiteral("unknown job kind '%1'").arg(job.kind);
    }
    return result;
}

QString writeClusterJobResult(const QString &path, const ClusterJobResult &result)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    file.write(QJsonDocument(result.toJson()).toJson(QJsonDocument::Compact));
    if (!file.commit())
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    return {};
}

std::optional<ClusterJobResult> readClusterJobResult(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return std::nullopt;
    return ClusterJobResult::fromJson(doc.object());
}

} // namespace sf
