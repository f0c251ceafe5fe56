#include "CudaKernelVerifier.h"

#include "kernels/KernelCheck.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace sf {

QString projectKernelsFolderOf(const QString &skillDir)
{
    if (skillDir.isEmpty())
        return {};
    const QString folder = QDir(skillDir).absoluteFilePath(QStringLiteral("../../kernels"));
    return QFileInfo(folder).isDir() ? QDir::cleanPath(folder) : QString();
}

std::optional<QString> readStudentKernel(const VerifierSpec &spec, const QString &sourcePath, VerifierOutcome *missing)
{
    QFile file(sourcePath);
    if (file.open(QIODevice::ReadOnly))
        return QString::fromUtf8(file.readAll());
    missing->type = spec.type;
    missing->name = spec.name;
    missing->passed = false;
    missing->evidence = QStringLiteral("the student wrote no kernel at %1").arg(QFileInfo(sourcePath).fileName());
    return std::nullopt;
}

VerifierOutcome kernelVerdictOutcome(const VerifierSpec &spec, const KernelVerdict &verdict)
{
    VerifierOutcome outcome;
    outcome.type = spec.type;
    outcome.name = spec.name;
    outcome.passed = verdict.passed();
    outcome.available = !verdict.notRun(); // no GPU: built but not judged, which is never a pass
    outcome.evidence = verdict.evidence();
    return outcome;
}

CudaKernelVerifier::CudaKernelVerifier(QString projectKernelsFolder)
    : m_projectKernelsFolder(std::move(projectKernelsFolder))
{
}

VerifierOutcome CudaKernelVerifier::check(const VerifierSpec &spec, const QString &workspace, const QString &sourcePath)
{
    Q_UNUSED(workspace);
    VerifierOutcome missing;
    const std::optional<QString> source = readStudentKernel(spec, sourcePath, &missing);
    if (!source)
        return missing;
    KernelCheckRequest request;
    request.taskId = spec.task;
    if (!spec.dtype.isEmpty()) {
        request.dtype = spec.dtype;
    }
    request.source = *source;
    request.candidateName = QFileInfo(sourcePath).fileName();
    request.projectKernelsFolder = m_projectKernelsFolder;
    return kernelVerdictOutcome(spec, KernelCheck::run(request));
}

} // namespace sf
