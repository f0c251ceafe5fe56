#pragma once

#include "TriggerMeasure.h"
#include "usage/CostTally.h"

#include <QObject>
#include <QPointer>

namespace sf {

class ChatCall;
class ChatClient;
class TriggerRunner;

/// What `trigger optimize` is asked to do.
struct TriggerOptimizeRequest
{
    QString skillDir;
    QList<TriggerQuery> queries;
    QList<CatalogueEntry> others; ///< the rest of the catalogue, fixed for the whole run
    TriggerConfig config;         ///< the students; its maxCostUsd is ignored (maxCostUsd below covers all)
    QString teacherModel;
    int maxIterations = 5; ///< proposals at most; evaluations at most maxIterations + 1
    double holdout = 0.4;  ///< share of each class held out (queries with a split of their own keep it)
    quint32 seed = 42;
    int teacherMaxTokens = 1024;
    std::optional<double> maxCostUsd{}; ///< students and teacher together; no request starts that could pass it
    bool apply = false;                 ///< leave the winning description in SKILL.md (else the folder is as it was)
};

/// One evaluated description: iteration 0 is the original.
struct TriggerIteration
{
    int number = 0;
    QString description;
    QString versionId{}; ///< the skill version holding it (proposals: origin "trigger:N")
    TriggerMeasurement measurement{};
    int trainPassed = 0;
    int trainTotal = 0;
    int heldOutPassed = 0;
    int heldOutTotal = 0;
};

/// For each query, whether it is held out: explicit splits kept; of the rest, round(fraction * n) of each class
/// (should / should not trigger) drawn with @p seed, at least one of each class that has two or more.
QList<bool> stratifiedHoldout(const QList<TriggerQuery> &queries, double fraction, quint32 seed);

/// The upper bound of a whole optimization: (maxIterations + 1) evaluations and maxIterations teacher calls.
struct TriggerOptimizeEstimate
{
    int evaluations = 0;
    int trials = 0;
    std::optional<double> usd{};
    QStringList unpriced{};
};
TriggerOptimizeEstimate estimateOptimize(const TriggerOptimizeRequest &request, const SkillCatalogue &catalogue);

/**
 * skill-creator's description loop done so that its numbers can be trusted: the real, fixed catalogue in every
 * trial; the teacher sees only the training queries' failures; a stratified held-out split decides which description
 * wins; at most K proposals; a hard budget over students and teacher, checked before each request and before each
 * iteration (an iteration that might not finish within it does not start). Each proposal is stored as a skill
 * version (origin "trigger:N"); SKILL.md itself is left as it was unless the request says to apply the winner.
 */
class TriggerOptimizer final : public QObject
{
    Q_OBJECT

public:
    explicit TriggerOptimizer(ChatClient &chat, QObject *parent = nullptr);
    ~TriggerOptimizer() override;

    void start(const TriggerOptimizeRequest &request);
    void cancel();
    bool isRunning() const { return m_running; }
    /// After the teacher's proposal failed (no reply, or one without a readable description): ask it again, keeping
    /// the measurements made so far.
    void retry();
    bool canRetry() const { return !m_running && m_proposalFailed; }
    /// The teacher's whole reply when it held no readable description; "" when no reply came.
    QString failedReply() const { return m_failedReply; }

    const QList<TriggerIteration> &iterations() const { return m_iterations; }
    /// The winner: the best held-out score (ties: the earlier description); by training score when nothing is held out.
    const TriggerIteration *best() const;
    const QList<bool> &heldOut() const { return m_heldOut; }
    /// What the priced requests cost, teacher and students: what the budget counts.
    double spentUsd() const { return m_spend.pricedUsd; }
    /// Every request, those of a model without a price counted apart: what is shown.
    const CostTally &spend() const { return m_spend; }
    const SkillCatalogue &catalogue() const { return m_catalogue; }

Q_SIGNALS:
    void stage(const QString &what);
    void iterationEvaluated(const sf::TriggerIteration &iteration);
    /// "iterations" (K proposals made), "perfect" (every query right), "train-perfect" (every training query right, so
    /// no failure is left to show the teacher, while held-out ones still fail), "budget" or "cancelled".
    void finished(const QString &reason);
    void failed(const QString &message);

private:
    void evaluate(const QString &description);
    void onEvaluated();
    void propose();
    void onProposal(const ChatResponse &response);
    QString saveVersion(int number, const QString &description, QString *versionId);
    void finish(const QString &reason);
    void fail(const QString &message);
    bool fits(double cost) const;
    double evaluationBound(const QString &description) const;
    std::optional<double> teacherBound(const QString &system, const QString &user) const;
    QString teacherPrompt(QString *system) const;

    ChatClient &m_chat;
    TriggerOptimizeRequest m_request;
    SkillCatalogue m_catalogue;
    QList<bool> m_heldOut;
    QList<TriggerIteration> m_iterations;
    QPointer<TriggerRunner> m_runner;
    QPointer<ChatCall> m_teacherCall;
    QString m_originalSkillMd;
    QString m_evaluating;
    CostTally m_spend;
    bool m_running = false;
    bool m_proposalFailed = false;
    QString m_failedReply;
};

} // namespace sf
