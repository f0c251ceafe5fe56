#include "kernels/KernelsView.h"

#include "common/ExecutorChoiceBox.h"
#include "common/Plural.h"
#include "jobs/Job.h"
#include "jobs/JobListModel.h"
#include "kernels/KernelVerdictView.h"
#include "project/Project.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace sf {

namespace {
QString humanBytes(double bytes)
{
    return bytes >= 1e9   ? QStringLiteral("%1 GB").arg(bytes / 1e9, 0, 'f', 2)
           : bytes >= 1e6 ? QStringLiteral("%1 MB").arg(bytes / 1e6, 0, 'f', 1)
                          : QStringLiteral("%1 kB").arg(bytes / 1e3, 0, 'f', 1);
}
} // namespace

KernelsView::KernelsView(QWidget *parent)
    : ViewPage(parent)
    , m_toolchainLabel(new QLabel(tr("Looking for nvcc and a GPU…"), this))
    , m_tasksLabel(new QLabel(this))
    , m_tasks(new QListWidget(this))
    , m_taskText(new QLabel(this))
    , m_shapes(new QTableWidget(0, 4, this))
    , m_nullCheck(new QLabel(this))
    , m_dtype(new QComboBox(this))
    , m_open(new QPushButton(tr("Open Candidate…"), this))
    , m_run(new QPushButton(tr("Check"), this))
    , m_executor(new ExecutorChoiceBox(this))
    , m_stage(new QLabel(this))
    , m_verdictView(new KernelVerdictView(this))
{
    m_toolchainLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_toolchainLabel->setWordWrap(true);
    m_tasksLabel->setWordWrap(true);
    m_tasks->setAccessibleName(tr("Kernel tasks"));
    m_taskText->setWordWrap(true);
    m_taskText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_shapes->setHorizontalHeaderLabels({tr("Shape"), tr("Sizes"), tr("Bytes (this dtype)"), tr("FLOPs")});
    m_shapes->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_shapes->verticalHeader()->setVisible(false);
    m_shapes->horizontalHeader()->setStretchLastSection(true);
    m_shapes->setMinimumHeight(150);
    m_nullCheck->setWordWrap(true);
    m_run->setToolTip(tr("Build the candidate with nvcc and run it against the task's reference on the GPU"));

    auto *machine = new QGroupBox(tr("This machine"), this);
    auto *machineLayout = new QHBoxLayout(machine);
    machineLayout->addWidget(m_toolchainLabel, 1);
    // Beside what this machine can do, where Check runs: here or on the cluster. (Beside the Check button it crowded
    // the row, which then moved with each task's dtypes; a row of its own made the view taller than a small window.)
    auto *executorRow = new QHBoxLayout;
    executorRow->addWidget(new QLabel(tr("Run heavy work on:"), this));
    executorRow->addWidget(m_executor);
    machineLayout->addLayout(executorRow);

    auto *tasksBox = new QWidget(this);
    auto *tasksLayout = new QVBoxLayout(tasksBox);
    tasksLayout->setContentsMargins(0, 0, 0, 0);
    tasksLayout->addWidget(m_tasksLabel);
    tasksLayout->addWidget(m_tasks, 1);

    auto *controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("dtype:"), this));
    controls->addWidget(m_dtype);
    controls->addWidget(m_open);
    controls->addWidget(m_run);
    controls->addWidget(m_stage, 1);

    // The task above (it scrolls: descriptions differ in length), the check below: the Check row stays where it
    // is whichever task is chosen, and the view needs no more height than the window has.
    auto *task = new QWidget(this);
    auto *taskLayout = new QVBoxLayout(task);
    taskLayout->setContentsMargins(0, 0, 0, 0);
    taskLayout->addWidget(m_taskText);
    taskLayout->addWidget(m_shapes, 1);
    taskLayout->addWidget(m_nullCheck);
    auto *taskScroll = new QScrollArea(this);
    taskScroll->setWidget(task);
    taskScroll->setWidgetResizable(true);
    taskScroll->setFrameShape(QFrame::NoFrame);
    auto *check = new QWidget(this);
    auto *checkLayout = new QVBoxLayout(check);
    checkLayout->setContentsMargins(0, 0, 0, 0);
    checkLayout->addLayout(controls);
    checkLayout->addWidget(m_verdictView, 1);
    auto *detail = new QSplitter(Qt::Vertical, this);
    detail->setObjectName(QStringLiteral("kernelDetail"));
    detail->addWidget(taskScroll);
    detail->addWidget(check);
    detail->setChildrenCollapsible(false);
    detail->setStretchFactor(0, 2);
    detail->setStretchFactor(1, 3);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(tasksBox);
    split->addWidget(detail);
    split->setStretchFactor(1, 3);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(machine);
    layout->addWidget(split, 1);

    connect(&m_toolchain, &CudaToolchain::detected, this, &KernelsView::showToolchain);
    connect(m_tasks, &QListWidget::currentRowChanged, this, &KernelsView::showTask);
    connect(m_open, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Open Candidate Kernel"), m_projectKernels,
                                                          tr("CUDA sources (*.cu *.cuh);;All files (*)"));
        if (!path.isEmpty())
            loadCandidate(path);
    });
    connect(m_run, &QPushButton::clicked, this, &KernelsView::checkCandidate);
    connect(&m_check, &KernelCheck::stageChanged, m_stage, &QLabel::setText);
    connect(&m_check, &KernelCheck::stageChanged, this, [this](const QString &stage) {
        if (m_job) {
            m_job->setDetail(stage);
        }
    });
    connect(&m_check, &KernelCheck::finished, this, &KernelsView::showCheckOutcome);
    connect(&m_jobCheck, &JobKernelCheck::stageChanged, m_stage, &QLabel::setText);
    connect(&m_jobCheck, &JobKernelCheck::stageChanged, this, [this](const QString &stage) {
        if (m_job)
            m_job->setDetail(stage);
    });
    connect(&m_jobCheck, &JobKernelCheck::finished, this, &KernelsView::showCheckOutcome);
    // No verdict at all (Slurm refused the job, its node failed it, or it was cancelled): said in the panel and here.
    connect(&m_jobCheck, &JobKernelCheck::failed, this, [this](const QString &reason, bool cancelled) {
        if (m_job) {
            cancelled ? m_job->markCancelled() : m_job->fail(reason);
            m_job = nullptr;
        }
        m_stage->setText(cancelled ? tr("Cancelled") : tr("The check did not run: %1").arg(reason));
        updateButtons();
    });
    connect(&m_nullWatcher, &QFutureWatcher<QStringList>::finished, this, [this] {
        const QStringList problems = m_nullWatcher.result();
        m_nullCheck->setText(problems.isEmpty()
                                 ? tr("Null candidates (writes nothing, zeros, copy of the input, constants, another "
                                      "input's output) all fail this task, as they must.")
                                 : tr("This task is broken: %1").arg(problems.join(u'\n')));
    });
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
    m_projectKernels = project ? project->kernelsPath() : QString();
    QList<LoadError> errors;
    m_taskData = KernelTaskLoader::loadAll(m_projectKernels, &errors);
    m_tasks->clear();
    for (const KernelTask &task : std::as_const(m_taskData)) {
        auto *row = new QListWidgetItem(task.bundled ? task.title : tr("%1 (project)").arg(task.title), m_tasks);
        row->setData(Qt::UserRole, task.taskFile);
        row->setToolTip(task.id);
    }
    QStringList problems;
    for (const LoadError &e : errors)
        problems << e.toString();
    m_tasksLabel->setText(problems.isEmpty()
                              ? plural(m_taskData.size(),
                                       tr("1 kernel task: bundled ones and those in this project's kernels/ folder."),
                                       tr("%n kernel tasks: bundled ones and those in this project's kernels/ folder."))
                              : tr("Some kernel tasks do not load:\n%1").arg(problems.join(u'\n')));
    if (!m_taskData.isEmpty())
        m_tasks->setCurrentRow(0);
    updateButtons();
}

void KernelsView::openPath(const QString &path)
{
    for (int row = 0; row < m_tasks->count(); ++row) {
        const QString file = m_tasks->item(row)->data(Qt::UserRole).toString();
        if (file == path || QFileInfo(file).path() == path)
            m_tasks->setCurrentRow(row);
    }
}

void KernelsView::selectTask(const QString &id)
{
    for (int row = 0; row < m_taskData.size(); ++row) {
        if (m_taskData[row].id == id)
            m_tasks->setCurrentRow(row);
    }
}

void KernelsView::showTask(int row)
{
    m_shapes->setRowCount(0);
    m_dtype->clear();
    if (row < 0 || row >= m_taskData.size()) {
        m_taskText->clear();
        m_nullCheck->clear();
        return;
    }
    const KernelTask &task = m_taskData[row];
    for (kernels::DType d : task.dtypes)
        m_dtype->addItem(QString::fromLatin1(kernels::dtypeName(d)));
    const kernels::DType shown = task.dtypes.first();
    m_taskText->setText(
        QStringLiteral("<b>%1</b><br>%2<br><code>%3;</code>")
            .arg(task.title.toHtmlEscaped(), task.description.toHtmlEscaped(), task.signature(shown).toHtmlEscaped()));
    m_shapes->setRowCount(int(task.shapes.size()));
    int r = 0;
    for (const KernelShape &shape : task.shapes) {
        QStringList dims;
        for (size_t i = 0; i < shape.dims.size(); ++i)
            dims << QStringLiteral("%1=%2").arg(QString::fromStdString(task.op->dims[i])).arg(shape.dims[i]);
        const QStringList cells{shape.name, dims.join(u' '), humanBytes(task.bytes(shape, shown)),
                                QString::number(task.flops(shape), 'g', 3)};
        for (int c = 0; c < cells.size(); ++c) {
            auto *item = new QTableWidgetItem(cells[c]);
            item->setToolTip(shape.note.isEmpty() ? cells[c] : shape.note);
            m_shapes->setItem(r, c, item);
        }
        ++r;
    }
    m_shapes->resizeColumnsToContents();
    m_nullCheck->setText(tr("Checking the task against null candidates…"));
    m_nullWatcher.setFuture(QtConcurrent::run([task] { return KernelTaskLoader::nullCandidateProblems(task); }));
    updateButtons();
}

bool KernelsView::loadCandidate(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        m_stage->setText(tr("Cannot read %1: %2").arg(path, file.errorString()));
        return false;
    }
    m_candidatePath = path;
    m_candidateSource = QString::fromUtf8(file.readAll());
    m_stage->setText(tr("Candidate: %1").arg(QFileInfo(path).fileName()));
    m_verdictView->showCandidate(QFileInfo(path).fileName(), m_candidateSource);
    updateButtons();
    return true;
}

void KernelsView::checkCandidate()
{
    const int row = m_tasks->currentRow();
    if (row < 0 || m_candidateSource.isEmpty() || isChecking())
        return;
    KernelCheckRequest request;
    request.taskId = m_taskData[row].id;
    request.dtype = m_dtype->currentText();
    request.source = m_candidateSource;
    request.candidateName = QFileInfo(m_candidatePath).fileName();
    request.projectKernelsFolder = m_projectKernels;
    const ExecutorChoice executor = m_executor->choice();
    m_executor->remember();
    if (m_jobs) {
        const QString title = tr("Check %1 against %2 (%3)").arg(request.candidateName, request.taskId, request.dtype);
        m_job = m_jobs->add(new Job(executor.isSlurm() ? tr("%1 on Slurm").arg(title) : title));
        if (executor.isSlurm())
            connect(m_job, &Job::cancelRequested, &m_jobCheck, &JobKernelCheck::cancel);
        else
            connect(m_job, &Job::cancelRequested, &m_check, &KernelCheck::cancel);
    }
    if (executor.isSlurm())
        m_jobCheck.start(request, executor, m_job, m_slurmTuning);
    else
        m_check.start(request);
    updateButtons();
}

void KernelsView::showCheckOutcome(const KernelVerdict &verdict)
{
    if (m_job) {
        const bool cancelled = verdict.reason == tr("cancelled");
        cancelled ? m_job->markCancelled() : m_job->finish(verdict.statusText());
        m_job = nullptr;
    }
    m_stage->clear();
    m_verdictView->setVerdict(verdict);
    updateButtons();
    Q_EMIT checkFinished(verdict);
}

void KernelsView::showVerdict(const KernelVerdict &verdict)
{
    selectTask(verdict.taskId);
    m_verdictView->setVerdict(verdict);
}

void KernelsView::updateButtons()
{
    m_run->setEnabled(!isChecking() && !m_candidateSource.isEmpty() && m_tasks->currentRow() >= 0);
    m_open->setEnabled(!isChecking());
    m_executor->setEnabled(!isChecking());
}

void KernelsView::showToolchain(const CudaToolchainInfo &info)
{
    m_detected = true;
    QStringList lines;
    lines << (info.canCompile() ? tr("Compiler: nvcc %1 (%2)").arg(info.nvccRelease, info.nvccPath)
                                : tr("Compiler: nvcc not found — kernels cannot be built on this machine."));
    lines << (info.canRun() ? tr("GPU: %1, compute capability %2, %3 memory, driver %4")
                                  .arg(info.gpuName, info.computeCapability, info.gpuMemory, info.driverVersion)
                            : tr("GPU: none (%1). Kernels can be compiled here but not run; their verdict is "
                                 "\"compiled, not run\", never a pass.")
                                  .arg(info.gpuProblem));
    m_toolchainLabel->setText(lines.join(u'\n'));
    Q_EMIT toolchainDetected();
}

} // namespace sf
