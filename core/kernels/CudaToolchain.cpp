#include "kernels/CudaToolchain.h"

#include <QEventLoop>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTimer>

namespace sf {

namespace {
constexpr int ToolTimeoutMs = 15000;
}

CudaToolchain::CudaToolchain(QObject *parent)
    : QObject(parent)
{
}

CudaToolchain::~CudaToolchain()
{
    for (const QPointer<QProcess> &process : std::as_const(m_processes)) {
        if (process) {
            process->disconnect(this);
            process->kill();
            process->waitForFinished(1000);
        }
    }
}

QString CudaToolchain::findNvcc()
{
    QString found = QStandardPaths::findExecutable(QStringLiteral("nvcc"));
    if (found.isEmpty()) {
        found = QStandardPaths::findExecutable(QStringLiteral("nvcc"),
                                               {QStringLiteral("/usr/local/cuda/bin"), QStringLiteral("/opt/cuda/bin")});
    }
    return found;
}

QString CudaToolchain::parseNvccRelease(const QString &versionOutput)
{
    static const QRegularExpression release(QStringLiteral(R"(release (\d+\.\d+))"));
    const QRegularExpressionMatch match = release.match(versionOutput);
    return match.hasMatch() ? match.captured(1) : QString();
}

void CudaToolchain::detect()
{
    if (m_pending > 0)
        return;
    m_info = {};
    m_info.nvccPath = findNvcc();
    m_pending = 2;

    // A missing tool still answers from the event loop, so detected() never fires inside detect() itself.
    if (m_info.nvccPath.isEmpty()) {
        QTimer::singleShot(0, this, &CudaToolchain::finishOne);
    } else {
        runTool(m_info.nvccPath, {QStringLiteral("--version")}, [this](int exitCode, const QString &output) {
            if (exitCode == 0)
                m_info.nvccRelease = parseNvccRelease(output);
            finishOne();
        });
    }

    const QString smi = QStandardPaths::findExecutable(QStringLiteral("nvidia-smi"));
    if (smi.isEmpty()) {
        m_info.gpuProblem = tr("nvidia-smi was not found: no NVIDIA driver on this machine");
        QTimer::singleShot(0, this, &CudaToolchain::finishOne);
        return;
    }
    runTool(smi,
            {QStringLiteral("--query-gpu=name,compute_cap,memory.total,driver_version"),
             QStringLiteral("--format=csv,noheader")},
            [this](int exitCode, const QString &output) {
                parseNvidiaSmi(exitCode, output, &m_info);
                finishOne();
            });
}

bool CudaToolchain::parseNvidiaSmi(int exitCode, const QString &output, CudaToolchainInfo *info)
{
    const QString firstLine = output.section(u'\n', 0, 0).trimmed();
    const QStringList fields = firstLine.split(u',');
    if (exitCode == 0 && fields.size() >= 2) {
        info->gpuName = fields.value(0).trimmed();
        info->computeCapability = fields.value(1).trimmed();
        info->gpuMemory = fields.value(2).trimmed();
        info->driverVersion = fields.value(3).trimmed();
        return true;
    }
    info->gpuProblem = firstLine.isEmpty() ? tr("nvidia-smi found no GPU") : firstLine;
    return false;
}

CudaToolchainInfo CudaToolchain::detectNow()
{
    CudaToolchain toolchain;
    CudaToolchainInfo info;
    bool done = false;
    QEventLoop loop;
    connect(&toolchain, &CudaToolchain::detected, &loop, [&](const CudaToolchainInfo &detected) {
        info = detected;
        done = true;
        loop.quit();
    });
    toolchain.detect();
    if (!done)
        loop.exec();
    return info;
}

void CudaToolchain::runTool(const QString &program, const QStringList &arguments,
                            const std::function<void(int, const QString &)> &onDone)
{
    auto *process = new QProcess(this);
    m_processes.append(process);
    process->setProcessChannelMode(QProcess::MergedChannels);
    auto *timeout = new QTimer(process);
    timeout->setSingleShot(true);
    connect(timeout, &QTimer::timeout, process, &QProcess::kill);
    connect(process, &QProcess::finished, this, [process, onDone](int exitCode, QProcess::ExitStatus status) {
        onDone(status == QProcess::NormalExit ? exitCode : -1, QString::fromLocal8Bit(process->readAll()));
        process->deleteLater();
    });
    connect(process, &QProcess::errorOccurred, this, [process, onDone](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart) {
            onDone(-1, process->errorString());
            process->deleteLater();
        }
    });
    process->start(program, arguments);
    timeout->start(ToolTimeoutMs);
}

void CudaToolchain::finishOne()
{
    if (--m_pending == 0)
        Q_EMIT detected(m_info);
}

QStringList CudaToolchain::toolkitFoldersOutsideUsr(const QString &nvcc)
{
    QStringList folders;
    if (nvcc.isEmpty())
        return folders;
    // nvcc lives in <root>/bin; the dynamic loader's cache may name <root> by a symlink or its target.
    const QString root = QFileInfo(QFileInfo(nvcc).absolutePath()).absolutePath();
    const QString canonical = QFileInfo(root).canonicalFilePath();
    for (const QString &folder : {root, canonical}) {
        if (!folder.isEmpty() && !folder.startsWith(QStringLiteral("/usr/")) && !folders.contains(folder))
            folders << folder;
    }
    return folders;
}

} // namespace sf
