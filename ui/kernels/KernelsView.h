#pragma once

#include "common/ViewPage.h"
#include "kernels/CudaToolchain.h"

class QLabel;
class QListWidget;

namespace sf {

/// The Kernels view: what this machine can do for CUDA kernel tasks (nvcc, GPU) and the project's
/// kernel tasks.
class KernelsView final : public ViewPage
{
    Q_OBJECT

public:
    explicit KernelsView(QWidget *parent = nullptr);
    void setProject(const Project *project) override;
    void openPath(const QString &path) override;
    bool isBusy() const override { return m_toolchain.isDetecting(); }

    /// Runs toolchain detection (once per session unless asked again).
    void detectToolchain();
    QString toolchainText() const;

Q_SIGNALS:
    void toolchainDetected();

private:
    void showToolchain(const CudaToolchainInfo &info);

    CudaToolchain m_toolchain;
    bool m_detected = false;
    QLabel *m_toolchainLabel;
    QLabel *m_tasksLabel;
    QListWidget *m_tasks;
};

} // namespace sf
