#pragma once

#include "TriggerRunner.h"
#include "agents/AgentCliInstall.h"
#include "agents/CliItemRun.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>

namespace sf {

struct Trace;

/**
 * Writes every skill of @p catalogue into @p dir as a folder named after it, ready to be copied into a CLI's
 * workspace: a skill with a folder of its own is copied from it (without what a package leaves out), a bundled decoy
 * is a SKILL.md made of its name and description. Each SKILL.md is given the catalogue's name and description (the
 * optimizer's proposals differ from the file). Returns "" or why it could not.
 */
QString stageCatalogueSkills(const SkillCatalogue &catalogue, const QString &dir);

/**
 * Which of @p names the CLI's session shows loaded first (detectSkillActivation for each; the earliest assistant turn
 * wins, and within one turn the call made first), or "" when it loaded none of them.
 */
QString firstLoadedSkill(const Trace &trace, const QString &harness, const QStringList &names);

/// What every CLI trial of a run shares.
struct CliTrialSetup
{
    DoorServices services;
    AgentCliBinary binary;
    QString stagedSkills; ///< stageCatalogueSkills()'s folder
    QStringList skillNames;
    int maxOutputTokens = 256; ///< per request
    int timeoutMs = 120'000;   ///< the whole trial, the CLI's start included
};

/**
 * One trigger trial in a real agent CLI: a fresh workspace with every catalogue skill installed where the CLI finds
 * project skills, a fresh private home, the query as the one prompt, and the door holding the CLI to a single model
 * request (its budget is spent by the first answer, so the trial ends once the model has acted). The skill loaded is
 * read from the CLI's session file; usage and cost come from the door's records. A CLI that could not run, timed
 * out, or got no answer from the model is a trial error. The trial's folder is removed when it ends.
 */
class CliTriggerTrial final : public QObject
{
    Q_OBJECT

public:
    /// @p folder must not exist yet; the trial's workspace and home are made in it.
    CliTriggerTrial(const CliTrialSetup &setup, TriggerTrial trial, QString query, QString folder,
                    QObject *parent = nullptr);
    ~CliTriggerTrial() override;

    void start();
    void cancel();

Q_SIGNALS:
    void finished(const sf::TriggerTrial &trial);

private:
    void onCliFinished(const CliItemOutcome &outcome);
    QString whyNoAnswer(const CliItemOutcome &outcome) const;
    void readSession(const QString &sessionFile);
    void finish();

    CliTrialSetup m_setup;
    TriggerTrial m_trial;
    QString m_query;
    QString m_folder;
    QPointer<CliItemRun> m_run;
    QElapsedTimer m_clock;
    bool m_cancelled = false;
};

} // namespace sf
