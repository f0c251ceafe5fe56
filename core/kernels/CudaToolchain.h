#pragma once

#include <QObject>
#include <QPointer>
#include <QProcess>
#include <QString>

#include <functional>

namespace sf {

/// What the machine offers for CUDA kernel tasks: a compiler, and a GPU to run on.
struct CudaToolchainInfo
{
    QString nvccPath;     ///< empty when nvcc was not found
    QString nvccRelease;  ///< e.g. "13.0"
    QString gpuName;      ///< empty when no GPU answered
    QString computeCapability; ///< e.g. "9.0"
    QString gpuMemory;    ///< e.g. "143771 MiB"
    QString driverVersion; ///< e.g. "570.86.15"
    QString gpuProblem;   ///< why no GPU is listed, in the words of the tool that said so

    bool canCompile() const { return !nvccPath.isEmpty(); }
    bool canRun() const { return !gpuName.isEmpty(); }
};

/**
 * Finds nvcc and the local GPU without blocking: runs `nvcc --version` and `nvidia-smi` as child
 * processes with a timeout and reports once both have answered (or failed).
 */
class CudaToolchain final : public QObject
{
    Q_OBJECT

public:
    explicit CudaToolchain(QObject *parent = nullptr);
    ~CudaToolchain() override;

    /// Starts detection; detected() follows. A second call while one is running does nothing.
    void detect();
    bool isDetecting() const { return m_pending > 0; }

    /// nvcc on PATH, else the usual CUDA install folders; empty when none.
    static QString findNvcc();
    /// The folders of @p nvcc's CUDA toolkit where they lie outside /usr (e.g. /opt/cuda-13.0, by its link and its
    /// target): what a sandbox must show, read-only, for nvcc and the CUDA runtime to work in it. /usr is shown
    /// whole.
    static QStringList toolkitFoldersOutsideUsr(const QString &nvcc = findNvcc());
    /// Parses the "release X.Y" of `nvcc --version` output.
    static QString parseNvccRelease(const QString &versionOutput);
    /// Reads the first GPU of `nvidia-smi --query-gpu=name,compute_cap,memory.total,driver_version
    /// --format=csv,noheader` into @p info; false (and info->gpuProblem set) when there is none.
    static bool parseNvidiaSmi(int exitCode, const QString &output, CudaToolchainInfo *info);
    /// Detects synchronously (the command line).
    static CudaToolchainInfo detectNow();

Q_SIGNALS:
    void detected(const sf::CudaToolchainInfo &info);

private:
    void runTool(const QString &program, const QStringList &arguments,
                 const std::function<void(int exitCode, const QString &output)> &onDone);
    void finishOne();

    CudaToolchainInfo m_info;
    int m_pending = 0;
    QList<QPointer<QProcess>> m_processes;
};

} // namespace sf

Q_DECLARE_METATYPE(sf::CudaToolchainInfo)
