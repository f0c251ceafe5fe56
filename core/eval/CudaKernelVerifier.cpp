#include "CudaKernelVerifier.h"

#include "kernels/KernelCheck.h"

#include <QFile>
#include <QFileInfo>

namespace sf {

CudaKernelVerifier::CudaKernelVerifier(QString projectKernelsFolder)
    : m_projectKernelsFolder(std::move(projectKernelsFolder))
{
}

VerifierOutcome CudaKernelVerifier::check(const VerifierSpec &spec, const QString &workspace, const QString &sourcePath)
{
    Q_UNUSED(workspace);
    VerifierOutcome outcome;
    outcome.type = spec.type;
    outcome.name = spec.name;
    QFile file(sourcePath);
    if (!file.open(QIODevice::ReadOnly)) {
        outcome.evidence = QStringLiteral("the student wrote no kernel at %1").arg(QFileInfo(sourcePath).fileName());
        return outcome;
    }
    KernelCheckRequest request;
    request.taskId = spec.task;
    if (!spec.dtype.isEmpty()) {
        request.dtype = spec.dtype;
    }
    request.source = QString::fromUtf8(file.readAll());
    request.candidateName = QFileInfo(sourcePath).fileName();
    request.projectKernelsFolder = m_projectKernelsFolder;
    const KernelVerdict verdict = KernelCheck::run(request);
    outcome.passed = verdict.passed();
    outcome.available = !verdict.notRun(); // no GPU: built but not judged, which is never a pass
    outcome.evidence = verdict.evidence();
    return outcome;
}

} // namespace sf
