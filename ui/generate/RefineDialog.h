#pragma once

#include "eval/Verifiers.h"
#include "generate/RefineLoop.h"

#include <QDialog>
#include <QPointer>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QLineSeries;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTableView;
class QValueAxis;

namespace sf {

class ChatClient;
class DiffView;
class HarnessChoice;
class Job;
class JobListModel;
class Project;
class RefineIterationsModel;
struct RefineIteration;

/**
 * "Refine Skill…": runs the refine loop on a project skill and shows it as it goes — a table of the
 * iterations (lift in percentage points, pass rates with and without the skill, held-out lift, tokens), a chart of
 * the lift per iteration, and each proposal as a diff of SKILL.md to accept or reject (or the loop runs
 * unattended). When it ends it says which version it kept (the best measured) and why, and any other iteration's
 * version can be put back from the table. The students run in Skillforge's loop or in their real CLI (Claude Code,
 * Codex); Start waits for the CLI to be found and refuses models it cannot speak to. The loop shows as a job in the
 * Jobs panel.
 */
class RefineDialog final : public QDialog
{
    Q_OBJECT

public:
    RefineDialog(ChatClient &client, JobListModel &jobs, const Project &project, CommandRunner commandRunner,
                 QWidget *parent = nullptr);
    ~RefineDialog() override;

    // For tests and for callers that prefill the form.
    bool setSkill(const QString &name);
    bool setSuite(const QString &name);
    /// Selects the skill in @p skillDir (the one open in the Skill view); false when the project has no such skill.
    bool selectSkillDir(const QString &skillDir);
    void setTeacher(const QString &model);
    void setStudents(const QStringList &models);
    void setTargetLift(double lift); ///< as a fraction: 0.3 is 30 pp
    void setIterations(int iterations);
    void setAttended(bool attended);
    /// What Start sends to the refine loop, from the fields as they are.
    RefineRequest request() const;
    void start();
    void acceptProposal();
    void rejectProposal();
    /// After the teacher's proposal failed: ask it again, keeping the evaluations made.
    void retryProposal();
    /// Once the loop ended: puts the version of the iteration in @p row of the table back in the skill folder (the
    /// version there now is stored first). False when it cannot.
    bool restoreIteration(int row);

    RefineIterationsModel *iterationsModel() const { return m_model; }
    DiffView *proposalDiff() const { return m_diff; }
    /// The teacher's reply when its proposal failed (hidden otherwise).
    QPlainTextEdit *failedReplyView() const { return m_failedReply; }
    QPushButton *retryButton() const { return m_retry; }
    QPushButton *restoreButton() const { return m_restore; }
    QLineSeries *liftSeries() const { return m_trainLift; }
    QString statusText() const;
    /// What the dialog says of the student harness: what an evaluation runs, the CLI found, models that do not fit.
    QString harnessText() const;

Q_SIGNALS:
    void skillChanged(const QString &skillDir);

protected:
    void reject() override;

private:
    void onIteration(const RefineIteration &iteration);
    void onProposal(const RefineIteration &iteration);
    void onFinished(const QString &reason);
    void onFailed(const QString &message);
    void setRunning(bool running);
    void setDeciding(bool deciding);
    void showFailedReply(bool show);
    void updateRestore();
    /// Says what the chosen harness does and enables Start when the students can run in it.
    void updateHarness();

    ChatClient &m_client;
    JobListModel &m_jobs;
    const Project &m_project;
    CommandRunner m_commandRunner;
    QPointer<RefineLoop> m_loop;
    QPointer<Job> m_job;
    bool m_running = false;
    QString m_skillDir;

    QComboBox *m_skill;
    QComboBox *m_suite;
    QComboBox *m_teacher;
    QLineEdit *m_students;
    HarnessChoice *m_harness;
    QLabel *m_harnessSummary;
    QSpinBox *m_iterations;
    QCheckBox *m_useTargetLift;
    QDoubleSpinBox *m_targetLift;
    QCheckBox *m_attended;
    QPushButton *m_start;
    QPushButton *m_accept;
    QPushButton *m_reject;
    QPushButton *m_retry;
    QPushButton *m_restore;
    QPlainTextEdit *m_failedReply;
    QLabel *m_status;
    QTableView *m_table;
    RefineIterationsModel *m_model;
    QLineSeries *m_trainLift;
    QLineSeries *m_heldOutLift;
    QValueAxis *m_iterationAxis;
    DiffView *m_diff;
};

} // namespace sf
