#include "kernels/KernelCheck.h"

#include "kernels/KernelLogging.h"

#include <QEventLoop>
#include <QFile>
#include <QRegularExpression>

namespace sf {

KernelCheck::KernelCheck(QObject *parent)
    : QObject(parent)
{
    connect(&m_toolchain, &CudaToolchain::detected, this, &KernelCheck::onToolchain);
    connect(&m_builder, &KernelBuilder::finished, this, [this](const KernelBuildResult &result) {
        if (m_buildingBaseline)
            onBaselineBuilt(result);
        else
            onCandidateBuilt(result);
    });
    connect(&m_runner, &KernelRunner::finished, this, &KernelCheck::onRun);
}

KernelCheck::~KernelCheck() = default;

void KernelCheck::start(const KernelCheckRequest &request)
{
    if (m_running)
        return;
    m_running = true;
    m_request = request;
    m_buildingBaseline = false;
    m_verdict = {};
    m_verdict.taskId = request.taskId;
    m_verdict.dtype = request.dtype;
    m_verdict.candidateName = request.candidateName;
    m_verdict.source = request.source;

    LoadError error;
    m_task = KernelTaskLoader::find(request.taskId, request.projectKernelsFolder, &error);
    if (!m_task) {
        finish(KernelVerdict::Status::Failed, error.toString());
        return;
    }
    if (!kernels::parseDType(request.dtype.toStdString(), &m_dtype) || !m_task->supports(m_dtype)) {
        QStringList names;
        for (kernels::DType d : std::as_const(m_task->dtypes))
            names << QString::fromLatin1(kernels::dtypeName(d));
        finish(KernelVerdict::Status::Failed, tr("task %1 has no dtype \"%2\" (it has %3)")
                                                  .arg(m_task->id, request.dtype, names.join(QStringLiteral(", "))));
        return;
    }
    if (request.source.trimmed().isEmpty()) {
        finish(KernelVerdict::Status::Failed, tr("the candidate is empty: no CUDA source was found"));
        return;
    }
    Q_EMIT stageChanged(tr("Looking for nvcc and a GPU"));
    m_toolchain.detect();
}

void KernelCheck::onToolchain(const CudaToolchainInfo &info)
{
    m_toolchainInfo = info;
    if (!info.canCompile()) {
        finish(KernelVerdict::Status::NotRun, tr("not built: nvcc was not found on this machine"));
        return;
    }
    QString arch = m_request.arch;
    if (arch.isEmpty())
        arch = KernelBuilder::archForCapability(info.computeCapability);
    if (arch.isEmpty())
        arch = m_request.defaultArch;
    KernelBuildRequest build;
    build.source = m_request.source;
    build.displayName = m_request.candidateName;
    build.arch = arch;
    build.cacheFolder = m_request.cacheFolder;
    build.requiredEntryPoints = {m_task->entryPoint(m_dtype)};
    build.timeoutMs = m_request.buildTimeoutMs;
    build.nvccPath = info.nvccPath;
    Q_EMIT stageChanged(tr("Building %1 for %2").arg(m_request.candidateName, arch));
    m_builder.start(build);
}

void KernelCheck::onCandidateBuilt(const KernelBuildResult &result)
{
    m_verdict.build = result;
    if (!result.ok) {
        finish(KernelVerdict::Status::Failed, tr("build failed: %1").arg(result.error));
        return;
    }
    if (!m_toolchainInfo.canRun()) {
        finish(KernelVerdict::Status::NotRun,
               tr("no CUDA device (%1)").arg(m_toolchainInfo.gpuProblem));
        return;
    }
    QFile baseline(m_task->baselineFile);
    if (!baseline.open(QIODevice::ReadOnly)) {
        finish(KernelVerdict::Status::Failed, tr("cannot read the task's baseline %1").arg(m_task->baselineFile));
        return;
    }
    KernelBuildRequest build;
    build.source = QString::fromUtf8(baseline.readAll());
    build.displayName = QStringLiteral("baseline.cu");
    build.arch = result.arch;
    build.cacheFolder = m_request.cacheFolder;
    build.requiredEntryPoints = {m_task->entryPoint(m_dtype)};
    build.timeoutMs = m_request.buildTimeoutMs;
    build.nvccPath = m_toolchainInfo.nvccPath;
    m_buildingBaseline = true;
    Q_EMIT stageChanged(tr("Building the baseline"));
    m_builder.start(build);
}

void KernelCheck::onBaselineBuilt(const KernelBuildResult &result)
{
    if (!result.ok) {
        finish(KernelVerdict::Status::Failed, tr("the task's baseline does not build: %1").arg(result.error));
        return;
    }
    m_work = std::make_unique<QTemporaryDir>();
    const QString taskFile = m_work->filePath(QStringLiteral("task.json"));
    if (!m_work->isValid() || !QFile::copy(m_task->taskFile, taskFile)) {
        finish(KernelVerdict::Status::Failed, tr("cannot prepare a folder for the run"));
        return;
    }
    KernelRunRequest run;
    run.taskFile = taskFile;
    run.dtype = m_request.dtype;
    run.candidateLibrary = m_verdict.build.libraryPath;
    run.baselineLibrary = result.libraryPath;
    run.workFolder = m_work->path();
    run.timing = m_request.timing;
    run.timeoutMs = m_request.runTimeoutMs;
    Q_EMIT stageChanged(tr("Running on %1").arg(m_toolchainInfo.gpuName));
    m_runner.start(run);
}

void KernelCheck::onRun(const KernelRunOutcome &outcome)
{
    if (!outcome.authentic) {
        QString reason = outcome.problem;
        if (!outcome.stdErrTail.isEmpty())
            reason += tr(" (last output: %1)").arg(outcome.stdErrTail.right(300).simplified());
        finish(KernelVerdict::Status::Failed, reason);
        return;
    }
    m_verdict.setRunnerReport(outcome.body);
    const QString status = outcome.body.value(u"status").toString();
    const QString reason = outcome.body.value(u"reason").toString();
    finish(status == u"passed"    ? KernelVerdict::Status::Passed
           : status == u"not_run" ? KernelVerdict::Status::NotRun
                                  : KernelVerdict::Status::Failed,
           reason);
}

void KernelCheck::cancel()
{
    if (!m_running)
        return;
    m_builder.cancel();
    m_runner.cancel();
    if (m_running)
        finish(KernelVerdict::Status::Failed, tr("cancelled"));
}

void KernelCheck::finish(KernelVerdict::Status status, const QString &reason)
{
    if (!m_running)
        return;
    m_running = false;
    m_verdict.status = status;
    m_verdict.reason = reason;
    qCDebug(lcKernels).noquote() << m_verdict.evidence();
    Q_EMIT finished(m_verdict);
}

KernelVerdict KernelCheck::run(const KernelCheckRequest &request)
{
    KernelCheck check;
    KernelVerdict verdict;
    bool done = false;
    QEventLoop loop;
    connect(&check, &KernelCheck::finished, &loop, [&](const KernelVerdict &v) {
        verdict = v;
        done = true;
        loop.quit();
    });
    check.start(request);
    if (!done)
        loop.exec();
    return verdict;
}

QString KernelCheck::extractCudaSource(const QString &answer)
{
    static const QRegularExpression fence(QStringLiteral(R"(```[ \t]*([A-Za-z+]*)[^\n]*\n(.*?)```)"),
                                          QRegularExpression::DotMatchesEverythingOption);
    QString fallback;
    for (auto it = fence.globalMatch(answer); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const QString language = m.captured(1).toLower();
        if (language == u"cuda" || language == u"cu")
            return m.captured(2);
        if (fallback.isEmpty() && (language == u"c++" || language == u"cpp" || language.isEmpty())
            && m.captured(2).contains(u"__global__"))
            fallback = m.captured(2);
    }
    return fallback;
}

} // namespace sf
