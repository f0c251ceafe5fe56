#pragma once

#include "cluster/ExecutorChoice.h"
#include "common/ViewPage.h"
#include "eval/EvalResult.h"

#include <QHash>
#include <QPointer>
#include <functional>
#include <memory>
#include <optional>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QStackedWidget;
class QTableView;
class QTimer;
class QTreeWidget;

namespace sf {

class ChatClient;
class EmptyState;
class EvalRunner;
class EvalSession;
class Job;
class JobListModel;
class JobRunner;
class RunGridModel;
class RunSummaryTable;
struct ItemResult;

/// The Runs view: the project's evaluation runs, newest first; the selected run as a grid of cells (case and
/// repeat by model and arm) that fills in live, its statistics (and its harness, for a run of an agent CLI), and the
/// transcript of the cell clicked, whose CLI session opens in the Trace view. With model services it also launches,
/// cancels and resumes evaluations.
class RunsView final : public ViewPage
{
    Q_OBJECT

public:
    explicit RunsView(QWidget *parent = nullptr);
    ~RunsView() override;

    void setProject(const Project *project) override;
    void openPath(const QString &path) override;
    bool isBusy() const override;
    QString shownRunDir() const override { return m_shownRun; }
    int runCount() const;

    /// Enables launching evaluations (the buttons stay hidden without it).
    void setEvalServices(ChatClient *chat, JobListModel *jobs);
    /// Where New Evaluation learns which skill is open (the Skill view's), to start on it.
    void setOpenSkill(std::function<QString()> openSkill) { m_openSkill = std::move(openSkill); }
    /// Starts an evaluation of @p plan (resumeDir set: resumes that run) with its heavy work on @p executor (none:
    /// what a resumed run's run.json records, else this machine). Work done here starts at once, or false with a
    /// message box on bad input; so does a suite with nothing for Slurm even when Slurm was chosen. On Slurm, a row in
    /// the Jobs panel first says that Slurm is being asked, then follows the Slurm jobs, or ends with Slurm's
    /// refusal; true while that is under way.
    bool startEvaluation(const struct EvalPlan &plan, const std::optional<ExecutorChoice> &executor = {});
    void cancelEvaluation();

    RunGridModel *gridModel() const { return m_grid; }
    QTableView *gridView() const { return m_gridView; }
    /// Shown while the clicked item has an agent CLI's session file: opens it in the Trace view.
    QPushButton *sessionButton() const { return m_sessionButton; }
    QString transcriptText() const;
    QString summaryText() const;

Q_SIGNALS:
    /// This view's evaluation ended (finished or @p cancelled); its results are in @p runDir.
    void evaluationFinished(bool cancelled, const QString &runDir);

private:
    void reload();
    void showRun(const QString &path);
    void showTranscript(const QModelIndex &index);
    /// Asks for the Trace view on the CLI session of the item at @p index, if it has one.
    void openSession(const QModelIndex &index);
    QString sessionStatus() const;
    void showStatistics(const QString &status, const QList<ItemResult> &results);
    /// The statistics again while this view's own evaluation runs (its results are in memory).
    void updateLiveStatistics();
    void updateButtons();
    QString selectedRun() const;
    /// The launched evaluation's session runs; @p job is its Slurm row, made before the check, or null.
    void run(struct LaunchedEvaluation launched, Job *job);
    /// What the job says while the run goes: items done and the spend so far.
    QString jobDetail(const EvalRunner &runner) const;
    /// Bad input or a refusal: in a message box for work done here, in the job's row for a Slurm launch.
    void refuseLaunch(const struct EvalPlan &plan, const QString &error, Job *job);

    const Project *m_project = nullptr;
    ChatClient *m_chat = nullptr;
    std::function<QString()> m_openSkill;
    JobListModel *m_jobs = nullptr;
    std::unique_ptr<EvalSession> m_session;
    /// The session's items started and not finished: both the grid's "running…" cells and the count the status
    /// line gives, so the two never disagree.
    QHash<QString, ItemKey> m_inFlight;
    Job *m_job = nullptr;
    QPointer<Job> m_launching; ///< the Slurm row while Slurm is asked whether it takes the jobs
    /// Where the running evaluation's heavy work goes (null: here). Its verifiers wait on it from pool threads, so
    /// it is cancelled explicitly when the view goes: they would otherwise keep it, and the pool, alive.
    std::shared_ptr<JobRunner> m_jobRunner;
    QString m_shownRun;

    QStackedWidget *m_stack;
    EmptyState *m_empty;
    QTreeWidget *m_table;
    QPushButton *m_newButton;
    QPushButton *m_resumeButton;
    QPushButton *m_cancelButton;
    QLabel *m_status;
    RunSummaryTable *m_summary;
    RunGridModel *m_grid;
    QTableView *m_gridView;
    QPlainTextEdit *m_transcript;
    QPushButton *m_sessionButton;
    QString m_harness; ///< the shown run's harness, as its details say it (empty for Skillforge's loop)
    /// While another process writes the shown run, the view reads it again every second: it watches, never writes.
    QTimer *m_watch;
    QString m_writer; ///< who writes the shown run, when it is another process
};

} // namespace sf
