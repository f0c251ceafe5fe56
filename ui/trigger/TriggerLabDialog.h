#pragma once

#include "trigger/TriggerOptimizer.h"

#include <QDialog>
#include <QPointer>

class QChart;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableView;
class QValueAxis;

namespace sf {

class ChatClient;
class DiffView;
class HarnessChoice;
class Project;
class TriggerQueryModel;
class TriggerResultsModel;
class TriggerRunner;

/**
 * "Trigger Lab…": is a project skill loaded when it should be, and only then? The Queries tab edits a trigger query
 * set (skill-creator's [{query, should_trigger}]: add, remove, import, export). Measure runs every query with each
 * student against the fixed catalogue (the skills beside it and the bundled decoys) and fills the per-query table;
 * Optimize lets a teacher rewrite the description within a budget, and each proposal is shown as a diff to accept
 * (restoring its version into the skill) or leave. The chart shows recall and false-positive rate per model and
 * iteration. The students answer in Skillforge's loop (one request listing the catalogue) or in their real CLI
 * (Claude Code, Codex, with every catalogue skill installed); Measure and Optimize wait for the CLI to be found and
 * refuse models it cannot speak to. When the teacher's proposal fails, a short message says so, with Show Reply (its
 * whole reply) and Retry (asks again, keeping the measurements). The teacher and students start as last used.
 */
class TriggerLabDialog final : public QDialog
{
    Q_OBJECT

public:
    TriggerLabDialog(ChatClient &client, const Project &project, QWidget *parent = nullptr);
    ~TriggerLabDialog() override;

    // For tests and for callers that prefill the form.
    bool setSkill(const QString &name);
    /// Selects the skill in @p skillDir (the one open in the Skill view); false when the project has no such skill.
    bool selectSkillDir(const QString &skillDir);
    void setStudents(const QStringList &models);
    void setTeacher(const QString &model);
    void setRuns(int runs);
    void setIterations(int iterations);
    void setMaxCost(double usd); ///< 0: no budget
    void setHoldout(double fraction);
    bool importQueries(const QString &path);
    bool exportQueries(const QString &path);
    void measure();
    void optimize();
    void cancel();
    /// After the teacher's proposal failed: asks it again, keeping the measurements made.
    void retryProposal();
    /// The teacher's whole reply when its proposal failed ("" when no reply came or nothing failed).
    QString failedReply() const;
    QPushButton *showReplyButton() const { return m_showReply; }
    QPushButton *retryButton() const { return m_retry; }
    /// Restores the selected proposal's version into the skill.
    bool acceptProposal(int iteration);

    TriggerQueryModel *queryModel() const { return m_queries; }
    TriggerResultsModel *resultsModel() const { return m_results; }
    QChart *chart() const { return m_chart; }
    DiffView *proposalDiff() const { return m_diff; }
    QListWidget *proposalList() const { return m_proposals; }
    QString statusText() const;
    QString estimateText() const;
    /// What the dialog says of the student harness: what a trial runs and costs, the CLI found, models that do not fit.
    QString harnessText() const;
    /// What Measure runs with, from the fields as they are.
    TriggerConfig config() const;
    bool isRunning() const { return m_runner || (m_optimizer && m_optimizer->isRunning()); }

Q_SIGNALS:
    void skillChanged(const QString &skillDir);
    void finished();

private:
    QString skillDir() const;
    QStringList students() const;
    std::optional<SkillCatalogue> catalogue(QString *why) const;
    void updateEstimate();
    void setRunning(bool running);
    /// Says what the chosen harness does with @p cat (null: the skill has none yet) and enables Measure and Optimize
    /// when the students can run in it.
    void updateHarness(const SkillCatalogue *cat);
    void onMeasured();
    void onIteration(const TriggerIteration &iteration);
    void onOptimized(const QString &reason);
    void onOptimizeFailed(const QString &message);
    void showFailedProposal(bool show);
    void showReply();
    void plot(int iteration, const TriggerMeasurement &measurement);
    void showProposal(int row);
    void loadDefaultQueries();

    ChatClient &m_client;
    const Project &m_project;
    QComboBox *m_skill;
    QLineEdit *m_students;
    QComboBox *m_teacher;
    HarnessChoice *m_harness;
    QLabel *m_harnessSummary;
    QSpinBox *m_runs;
    QSpinBox *m_iterations;
    QDoubleSpinBox *m_holdout;
    QDoubleSpinBox *m_maxCost;
    QLabel *m_estimate;
    QLabel *m_status;
    QPushButton *m_measureButton;
    QPushButton *m_optimizeButton;
    QPushButton *m_cancelButton;
    QPushButton *m_showReply;
    QPushButton *m_retry;
    QTabWidget *m_tabs;
    TriggerQueryModel *m_queries;
    TriggerResultsModel *m_results;
    QTableView *m_queryTable;
    QChart *m_chart;
    QValueAxis *m_iterationAxis;
    QListWidget *m_proposals;
    DiffView *m_diff;
    QPointer<TriggerRunner> m_runner;
    QPointer<TriggerOptimizer> m_optimizer;
    QList<TriggerIteration> m_iterationsShown;
    QString m_original;
    bool m_running = false;
};

} // namespace sf
