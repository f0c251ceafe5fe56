#pragma once

#include "cluster/JobKernelCheck.h"
#include "common/ViewPage.h"
#include "kernels/CudaToolchain.h"
#include "kernels/KernelCheck.h"
#include "kernels/KernelTask.h"

#include <QFutureWatcher>
#include <QPointer>

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QTableWidget;

namespace sf {

class ExecutorChoiceBox;
class Job;
class JobListModel;
class KernelVerdictView;

/// The Kernels view: what this machine can do (nvcc, GPU), the kernel tasks (bundled and the
/// project's), and checking a candidate .cu against a task with the verdict shown in full.
class KernelsView final : public ViewPage
{
    Q_OBJECT

public:
    explicit KernelsView(QWidget *parent = nullptr);
    void setProject(const Project *project) override;
    void openPath(const QString &path) override;
    bool isBusy() const override { return m_toolchain.isDetecting() || isChecking(); }
    bool isChecking() const { return m_check.isRunning() || m_jobCheck.isRunning(); }
    /// Checks are then listed in the Jobs panel, where they can be cancelled.
    void setJobs(JobListModel *jobs) { m_jobs = jobs; }

    /// Runs toolchain detection (once per session unless asked again).
    void detectToolchain();
    QString toolchainText() const;

    /// Loads a candidate kernel file; Check then builds and runs it against the selected task.
    bool loadCandidate(const QString &path);
    void selectTask(const QString &id);
    void checkCandidate();
    /// Shows a verdict (from a check, or recorded) with its task selected.
    void showVerdict(const KernelVerdict &verdict);

    QListWidget *taskList() const { return m_tasks; }
    QTableWidget *shapeTable() const { return m_shapes; }
    QLabel *nullCheckLabel() const { return m_nullCheck; }
    KernelVerdictView *verdictView() const { return m_verdictView; }
    /// "Run heavy work on": this machine, or a kernel_check job on the Slurm profile.
    ExecutorChoiceBox *executorBox() const { return m_executor; }
    /// Where the Slurm job's check runs the skillforge from (default: this program); tests point it elsewhere.
    void setSlurmTuning(const SlurmTuning &tuning) { m_slurmTuning = tuning; }

Q_SIGNALS:
    void toolchainDetected();
    void checkFinished(const sf::KernelVerdict &verdict);

private:
    void showToolchain(const CudaToolchainInfo &info);
    void showTask(int row);
    void updateButtons();
    void showCheckOutcome(const KernelVerdict &verdict);

    CudaToolchain m_toolchain;
    KernelCheck m_check;
    JobKernelCheck m_jobCheck; ///< the same check as a Slurm job
    SlurmTuning m_slurmTuning;
    JobListModel *m_jobs = nullptr;
    QPointer<Job> m_job;
    bool m_detected = false;
    QString m_projectKernels;
    QList<KernelTask> m_taskData;
    QString m_candidatePath;
    QString m_candidateSource;
    QFutureWatcher<QStringList> m_nullWatcher;
    QLabel *m_toolchainLabel;
    QLabel *m_tasksLabel;
    QListWidget *m_tasks;
    QLabel *m_taskText;
    QTableWidget *m_shapes;
    QLabel *m_nullCheck;
    QComboBox *m_dtype;
    QPushButton *m_open;
    QPushButton *m_run;
    ExecutorChoiceBox *m_executor;
    QLabel *m_stage;
    KernelVerdictView *m_verdictView;
};

} // namespace sf
