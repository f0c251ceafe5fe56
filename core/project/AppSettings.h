#pragma once

#include "cluster/SlurmProfile.h"
#include "eval/Verdict.h"

#include <QByteArray>
#include <QSettings>
#include <QStringList>

namespace sf {

/**
 * The one typed wrapper over QSettings: every user preference and piece of remembered state has a
 * getter and a setter here, so keys and defaults live in one place. Never holds secrets.
 */
class AppSettings final
{
public:
    static constexpr int MaxRecentProjects = 10;

    AppSettings();

    /// skillforge.conf in the application's config folder (~/.config/skillforge/, XDG_CONFIG_HOME honoured),
    /// beside prompts/ and pricing.json. Every QSettings of the application opens this file.
    static QString filePath();
    /// Moves the file Qt chose while the application set no organisation (~/.config/Unknown Organization/
    /// skillforge.conf) to filePath(), once, when there is none there yet. Returns a message naming both
    /// files when the move fails, else an empty string.
    static QString moveFromOldPlace();
    /// From now on this process changes no setting: one-shot commands (a screenshot) leave the user's
    /// recent projects, view and window alone.
    static void keepUnchangedInThisProcess();

    /// Most recent first; folders that no longer exist are dropped.
    QStringList recentProjects() const;
    void addRecentProject(const QString &folder);
    void clearRecentProjects();

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray &geometry);
    QByteArray windowState() const;
    void setWindowState(const QByteArray &state);
    QString lastView() const;
    void setLastView(const QString &view);

    /// "system", "light" or "dark".
    QString theme() const;
    void setTheme(const QString &theme);

    /// Context each request to the local llama.cpp server gets (prompt and reply), in tokens.
    int localModelContextSize() const;
    void setLocalModelContextSize(int tokens);
    /// Whether the first start offered to install the missing local model (asked once).
    bool localModelInstallOffered() const;
    void setLocalModelInstallOffered(bool offered);
    /// CPU threads for the local server; 0 means "all cores".
    int localModelThreads() const;
    void setLocalModelThreads(int threads);

    /// The folder Save Chart last saved into; empty before the first chart.
    QString chartFolder() const;
    void setChartFolder(const QString &folder);
    /// The student models and the teacher the user last evaluated or refined with, for the dialogs' defaults.
    QStringList lastStudentModels() const;
    void setLastStudentModels(const QStringList &models);
    QString lastTeacherModel() const;
    void setLastTeacherModel(const QString &model);
    /// Every model the user ran as a teacher or student lately, most recent first (at most MaxRecentModels): what
    /// the model pickers offer besides the embedded model and the project's own.
    static constexpr int MaxRecentModels = 12;
    QStringList recentModels() const;
    void addRecentModels(const QStringList &models);
    /// What New Evaluation last ran with: the suite file ("" the skill's own tests), repeats and concurrency
    /// (0: never chosen, the project's default applies).
    QString lastEvalSuite() const;
    void setLastEvalSuite(const QString &path);
    int lastEvalRepeats() const;
    void setLastEvalRepeats(int repeats);
    int lastEvalConcurrency() const;
    void setLastEvalConcurrency(int concurrency);

    /// When a skill is kept, cut or not yet decided (the Compare view, reports, `eval` and `report` by default).
    VerdictThresholds verdictThresholds() const;
    void setVerdictThresholds(const VerdictThresholds &thresholds);

    /// The Slurm profile `--executor slurm` falls back on: SLURM_CONF, partition, GPU gres, time limit, sbatch options.
    SlurmProfile slurmProfile() const;
    void setSlurmProfile(const SlurmProfile &profile);
    /// "local" or "slurm": where the user last chose to run heavy work (the launch dialog, the Kernels view).
    QString lastExecutor() const;
    void setLastExecutor(const QString &name);
    /// Who drove the student the last time one was chosen in the GUI (New Evaluation, Refine Skill, Trigger Lab):
    /// "builtin", "claude-code" or "codex", and which CLI binary ("" the one setup installed, "path" the user's own).
    QString lastHarness() const;
    void setLastHarness(const QString &harness);
    QString lastHarnessCli() const;
    void setLastHarnessCli(const QString &choice);

private:
    void write(const QString &key, const QVariant &value);

    mutable QSettings m_settings;
};

} // namespace sf
