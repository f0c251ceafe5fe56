#pragma once

#include "generate/TraceCondenser.h"

#include <QDialog>
#include <QHash>
#include <QPointer>

class QCheckBox;
class QComboBox;
class QLabel;
class QListWidget;
class QSpinBox;
class QPlainTextEdit;
class QPushButton;

// The generationStarted() signal passes a SkillGenerator; moc needs the whole type.
Q_MOC_INCLUDE("generate/SkillGenerator.h")

namespace sf {

class ChatClient;
class Job;
class JobListModel;
class Project;
class SkillGenerator;
struct SkillGenerationRequest;
struct SkillGenerationResult;

/**
 * "Generate Skill…": the user describes the task (or picks a skill of the project to improve), adds
 * instructions, picks the teacher and the validation profile, and the teacher writes the skill. The
 * work shows as a job in the Jobs panel (cancellable there or here); generationStarted() hands the
 * streaming generator to the window, which shows the reply in the skill editor as it is written; when it
 * is done, skillGenerated() names the folder. A failure brings a hidden dialog back with the reason.
 */
class GenerateSkillDialog final : public QDialog
{
    Q_OBJECT

public:
    GenerateSkillDialog(ChatClient &client, JobListModel &jobs, const Project &project, QWidget *parent = nullptr);
    ~GenerateSkillDialog() override;

    // For tests and for callers that prefill the form.
    void setTask(const QString &task);
    void setTeacher(const QString &model);
    void setInstructions(const QString &text);
    /** Chooses the project skill to improve by folder name; "" for a new skill. */
    bool setSkillToImprove(const QString &name);
    /** Ticks the project trace with this file name (or path) for the teacher to learn from. */
    bool setTraceUsed(const QString &fileName, bool used = true);
    /** Whether the teacher reads the whole of each trace rather than only the steps kept for skill generation. */
    void setWholeTraceSent(bool whole);
    /** What the teacher will read of the ticked traces: "5 of 79 steps kept (2,345 characters)" for each. */
    QString traceScopeText() const;
    /** True while the ticked traces are being read to say so. */
    bool isReadingTraces() const { return m_previewRound != m_previewDone; }
    void generate();
    QString statusText() const;
    QString replyText() const; ///< the teacher's reply as streamed so far

Q_SIGNALS:
    /// The teacher was asked; @p generator streams its reply (the window shows it in the Skill view).
    void generationStarted(sf::SkillGenerator *generator, const QString &teacher);
    void skillGenerated(const QString &skillDir);

protected:
    void reject() override;

private:
    void startGenerator(const SkillGenerationRequest &request);
    void onFinished(const SkillGenerationResult &result);
    void onFailed(const QString &message);
    void setBusy(bool busy);
    /// The ticked traces' paths, in the list's order.
    QStringList usedTraces() const;
    int budgetPerTrace() const;
    TraceScope scope() const;
    /// Reads the ticked traces off the UI thread to say what the teacher will read of them (traceScopeText).
    void previewTraces();
    void showTraceScope();

    ChatClient &m_client;
    JobListModel &m_jobs;
    const Project &m_project;
    QPointer<SkillGenerator> m_generator;
    QPointer<Job> m_job;
    QPlainTextEdit *m_task;
    QComboBox *m_improve;
    QListWidget *m_traces;
    QSpinBox *m_traceBudget;
    QLabel *m_traceScope;
    QCheckBox *m_wholeTrace;
    /// The ticked traces as the teacher will read them, for the budget per trace and the scope they were read with.
    QHash<QString, TraceForTeacher> m_previews;
    int m_previewBudget = 0;
    TraceScope m_previewScope = TraceScope::KeptSteps;
    int m_previewRound = 0; ///< previews asked for
    int m_previewDone = 0;  ///< previews arrived
    QPlainTextEdit *m_instructions;
    QComboBox *m_teacher;
    QComboBox *m_profile;
    QLabel *m_status;
    QPlainTextEdit *m_reply;
    QPushButton *m_generate;
};

} // namespace sf
