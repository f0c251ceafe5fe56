#include "kernels/KernelsView.h"

#include "project/Project.h"

#include <QGroupBox>
#include <QLabel>
#include <QListWidget>
#include <QVBoxLayout>

namespace sf {

KernelsView::KernelsView(QWidget *parent)
    : ViewPage(parent)
    , m_toolchainLabel(new QLabel(tr("Looking for nvcc and a GPU…"), this))
    , m_tasksLabel(new QLabel(this))
    , m_tasks(new QListWidget(this))
{
    m_toolchainLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_toolchainLabel->setWordWrap(true);
    m_tasksLabel->setWordWrap(true);
    m_tasks->setAccessibleName(tr("Kernel tasks"));

    auto *machine = new QGroupBox(tr("This machine"), this);
    auto *machineLayout = new QVBoxLayout(machine);
    machineLayout->addWidget(m_toolchainLabel);

    auto *tasks = new QGroupBox(tr("Kernel tasks in this project"), this);
    auto *tasksLayout = new QVBoxLayout(tasks);
    tasksLayout->addWidget(m_tasksLabel);
    tasksLayout->addWidget(m_tasks, 1);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(machine);
    layout->addWidget(tasks);
    layout->addStretch(1);

    connect(&m_toolchain, &CudaToolchain::detected, this, &KernelsView::showToolchain);
    setProject(nullptr);
}

void KernelsView::detectToolchain()
{
    if (!m_detected && !m_toolchain.isDetecting())
        m_toolchain.detect();
}

QString KernelsView::toolchainText() const
{
    return m_toolchainLabel->text();
}

void KernelsView::setProject(const Project *project)
{
    m_tasks->clear();
    const QList<ProjectItem> items = project ? project->items(ProjectItem::Kind::KernelTask) : QList<ProjectItem>{};
    for (const ProjectItem &item : items) {
        auto *row = new QListWidgetItem(item.name, m_tasks);
        row->setData(Qt::UserRole, item.path);
        row->setToolTip(item.path);
    }
    m_tasks->setVisible(!items.isEmpty());
    m_tasksLabel->setText(items.isEmpty()
                              ? tr("No kernel tasks in this project's kernels/ folder. A kernel task declares the "
                                   "entry point a student's kernel must export, the shapes and dtypes to test, "
                                   "tolerances, and a trusted reference.")
                              : tr("%n task(s).", nullptr, int(items.size())));
}

void KernelsView::openPath(const QString &path)
{
    for (int row = 0; row < m_tasks->count(); ++row) {
        if (m_tasks->item(row)->data(Qt::UserRole).toString() == path)
            m_tasks->setCurrentRow(row);
    }
}

void KernelsView::showToolchain(const CudaToolchainInfo &info)
{
    m_detected = true;
    QStringList lines;
    lines << (info.canCompile() ? tr("Compiler: nvcc %1 (%2)").arg(info.nvccRelease, info.nvccPath)
                                : tr("Compiler: nvcc not found — kernels cannot be built on this machine."));
    lines << (info.canRun() ? tr("GPU: %1, compute capability %2").arg(info.gpuName, info.computeCapability)
                            : tr("GPU: none (%1). Kernels can be compiled here but not run; their verdict is "
                                 "\"compiled, not run\", never a pass.")
                                  .arg(info.gpuProblem));
    m_toolchainLabel->setText(lines.join(u'\n'));
    Q_EMIT toolchainDetected();
}

} // namespace sf
