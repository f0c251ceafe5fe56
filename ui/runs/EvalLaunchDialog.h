#pragma once

#include "cluster/ExecutorChoice.h"
#include "eval/EvalSession.h"
#include "eval/RunEstimate.h"
#include "eval/TestSuite.h"

#include <QDialog>
#include <optional>
#include <variant>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace sf {

class ChatClient;
class ExecutorChoiceBox;
class HarnessChoice;
class Project;

/// Asks what to evaluate: a skill of the project (the one open, when one is), a suite (one of tests/*.json, or the
/// skill's own tests where it has them; the last one run), the student models, who drives them (Skillforge's loop, or
/// a real agent CLI — Claude Code, Codex — installed by setup or the user's own), repeats, concurrency (both as last
/// run) and how the skill is delivered; and says, before Run, how many items that makes and roughly how long they
/// take (at the pace earlier runs measured), whether the suite has anything for Slurm, what the harness measures, and
/// which models cannot be reached or do not fit the harness. A CLI is looked for off the UI thread when it is chosen.
class EvalLaunchDialog final : public QDialog
{
    Q_OBJECT

public:
    /// `chat` tells which models can be reached (keys, servers, the local model); may be null.
    explicit EvalLaunchDialog(const Project &project, const ChatClient *chat = nullptr, QWidget *parent = nullptr);

    /// The plan the fields describe (runs go to the project's runs/ folder).
    EvalPlan plan() const;
    /// Where the heavy work (command and cuda_kernel verifiers) is to run: this machine or the Slurm profile.
    ExecutorChoice executor() const;
    ExecutorChoiceBox *executorBox() const { return m_executor; }
    /// What the dialog says of the plan: items, time, models that cannot be reached.
    QString summaryText() const;
    /// Whether the chosen agent CLI is still being looked for (Run waits for it).
    bool isLookingForCli() const;
    /// Selects the skill in @p skillDir (the one open in the Skill view); false when the project has no such skill.
    bool selectSkillDir(const QString &skillDir);
    /// Run: the student models, the suite, repeats, concurrency, the harness and where heavy work runs are
    /// remembered for the next dialog.
    void accept() override;

private:
    void updateSummary();
    /// The loop's own settings (delivery, tools) apply to the loop only.
    void harnessChanged();
    /// The summary's lines about the harness; false in *ready when Run must wait or cannot start.
    QStringList harnessLines(const EvalConfig &config, bool *ready) const;
    void listSuites(const QString &select);
    void editSuite();

    const Project &m_project;
    const ChatClient *m_chat;
    QString m_runsDir;
    QComboBox *m_skill;
    QComboBox *m_suite;
    QPlainTextEdit *m_models; ///< one model per line: whole names, however many
    QSpinBox *m_repeats;
    QCheckBox *m_repeatsForEveryCase;
    HarnessChoice *m_harness;
    QComboBox *m_mode;
    QSpinBox *m_concurrency;
    QComboBox *m_tools; ///< when the student gets its file and shell tools (sandboxed)
    QLineEdit *m_judge;
    QDoubleSpinBox *m_maxCost; ///< the run's spending cap; its minimum, 0, reads "No cap"
    ExecutorChoiceBox *m_executor;
    QLabel *m_summary;
    QString m_readFor; // the skill and suite m_suiteRead and m_skillTokens were read from
    std::optional<std::variant<TestSuite, LoadError>> m_suiteRead;
    int m_skillTokens = 0;
    std::optional<MeasuredPace> m_pace; ///< read from the project's runs once, when first needed
};

} // namespace sf
