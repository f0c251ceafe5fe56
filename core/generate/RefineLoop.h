#pragma once

#include "eval/Executor.h"
#include "eval/Verifiers.h"
#include "skill/SkillValidator.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

namespace sf {

class ChatClient;
class EvalSession;
class SkillGenerator;
struct SkillGenerationResult;

/** When the refine loop stops; every criterion set is checked after each evaluation. */
struct RefineCriteria
{
    std::optional<double> targetLift;     ///< train lift (mean over students) at or above this
    std::optional<double> targetPassRate; ///< with-skill train pass rate (mean over students) at or above this
    double plateauDelta = 0.02;           ///< lift changed by less than this...
    int plateauIterations = 2;            ///< ...this many evaluations in a row
    int maxIterations = 3;                ///< improvement attempts: the teacher's versions evaluated, after the first
                                          ///< evaluation of the skill as it is (so K attempts are K + 1 evaluations)
    /// Everything the loop spends: the students' evaluations and the teacher's proposals, each request priced on its
    /// own. Each evaluation gets what is left as its spending cap, and no iteration starts that is expected to pass
    /// it. Needs a price for the teacher and every student.
    std::optional<double> maxCostUsd;
};

/** One refine run: the skill to improve, the suite, the teacher, the students and how to evaluate. */
struct RefineRequest
{
    QString skillDir;
    QString suitePath; ///< empty: the skill's own tests
    QString teacherModel;
    EvalConfig config; ///< models = the students
    QString runsDir;
    RefineCriteria criteria;
    ValidationProfile profile = ValidationProfile::AgentSkills;
    int feedbackBudgetTokens = 6000; ///< how much of the failures the teacher is shown
    bool attended = false;           ///< wait for accept() or reject() after each proposal
};

/** One evaluation of one version of the skill, and what came of it. */
struct RefineIteration
{
    int number = 0;    ///< 1-based
    QString versionId; ///< the skill version evaluated ("" when it was never snapshotted)
    QString runDir;
    double trainLift = 0;                  ///< mean over students
    double trainPassRate = 0;              ///< with skill, mean over students
    double baselinePassRate = 0;           ///< without skill, train, mean over students
    std::optional<double> heldOutLift;     ///< when the suite has held-out cases
    std::optional<double> heldOutPassRate; ///< with skill, held out
    double meanTokens = 0;                 ///< per with-skill item
    std::optional<double> costUsd;         ///< this evaluation's spend, when every item is priced
    std::optional<double> teacherCostUsd;  ///< the teacher's proposal after it, when priced (0 before one)
    QString proposedVersionId;             ///< the teacher's next version, if one was made
    bool accepted = false;

    /// The lift the loop ranks versions by: held out where the suite holds cases out, else train.
    double rankingLift() const { return heldOutLift.value_or(trainLift); }
};

/// Which evaluated version the loop leaves in the skill folder: the best measured one (held-out lift where there is
/// one, then train lift, then the earlier iteration). Null when nothing was evaluated.
const RefineIteration *bestRefineIteration(const QList<RefineIteration> &iterations);

/**
 * The teacher improves a skill against student evaluations: evaluate -> show the teacher the train
 * failures (full verifier evidence and answer excerpts within a token budget), the current skill and
 * the lift so far -> a new version -> evaluate again, until a criterion is met. Held-out cases are
 * evaluated and reported every iteration but never shown to the teacher. Each proposal is a skill
 * version (origin "refine:<n>") with its run; in attended mode the loop waits for accept() or
 * reject() (which restores the version evaluated) before going on. However it ends — a criterion, the
 * iteration limit, cancel, an evaluation that could not start — the skill folder is left holding the best
 * measured version (bestRefineIteration()), not merely the last one, and keptText() says which and why.
 */
class RefineLoop final : public QObject
{
    Q_OBJECT

public:
    RefineLoop(ChatClient &client, CommandRunner commandRunner, QObject *parent = nullptr);
    ~RefineLoop() override;

    void start(const RefineRequest &request);
    void cancel();
    void accept(); ///< attended: keep the proposal and evaluate it
    void reject(); ///< attended: restore the version evaluated and ask the teacher again
    /// After the teacher failed to propose a version (failed() with canRetry()): ask it again, keeping the
    /// evaluations made so far.
    void retry();
    bool canRetry() const { return !m_running && m_proposalFailed; }
    /// What the teacher last wrote, when its proposal failed; "" when no reply came (a provider error).
    QString failedReply() const { return m_failedReply; }

    const QList<RefineIteration> &iterations() const { return m_iterations; }
    /// What the loop has spent so far, evaluations and teacher together; empty when something had no price.
    std::optional<double> spentUsd() const;
    /// What the teacher's latest priced proposal cost; 0 before one.
    double lastTeacherCostUsd() const;
    /// The iteration whose version the skill folder holds now that the loop ended (0: none was evaluated).
    int keptIteration() const { return m_kept; }
    /// "Kept iteration 1 (+50.0 pp on the held-out cases): the best measured." — or why nothing was restored.
    QString keptText() const { return m_keptText; }
    /// Puts the best measured version back in the skill folder unless it is there already (the version replaced is
    /// stored first, so nothing is lost). finished() and a failed evaluation do this themselves; after a failed
    /// proposal the folder holds the last evaluated version for retry(), and a caller that gives up calls this.
    /// "" or an error.
    QString keepBest();

    /** The failures the teacher sees: train with-skill items that failed, within @p budgetTokens. */
    static QString feedbackFor(const QList<RefineIteration> &history, const QString &runDir, int budgetTokens);

Q_SIGNALS:
    void stage(const QString &what);
    void iterationEvaluated(const sf::RefineIteration &iteration);
    void proposalReady(const sf::RefineIteration &iteration); ///< attended mode: accept() or reject() next
    void finished(const QString &stopReason);
    void failed(const QString &message);

private:
    void evaluate();
    void onEvaluated(bool cancelled);
    QString stopReasonAfter(const RefineIteration &latest) const;
    void propose();
    void onProposal(const SkillGenerationResult &result);
    void fail(const QString &message);
    void finish(const QString &reason);

    ChatClient &m_client;
    CommandRunner m_commandRunner;
    RefineRequest m_request;
    QList<RefineIteration> m_iterations;
    std::unique_ptr<EvalSession> m_session;
    QPointer<SkillGenerator> m_generator;
    bool m_awaitingDecision = false;
    bool m_running = false;
    bool m_proposalFailed = false;
    QString m_failedReply;
    int m_kept = 0;
    QString m_keptText;
};

} // namespace sf

Q_DECLARE_METATYPE(sf::RefineIteration)
