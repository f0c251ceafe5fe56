#pragma once

#include "SkillCatalogue.h"
#include "TriggerQuerySet.h"
#include "agents/AgentCliInstall.h"
#include "agents/Harness.h"
#include "usage/CostTally.h"
#include "usage/TokenUsage.h"

#include <QObject>
#include <QPointer>
#include <QStringList>
#include <memory>
#include <optional>

class QTemporaryDir;

namespace sf {

class ChatCall;
class ChatClient;
class ProviderRegistry;
struct CliTrialSetup;

/// What a trigger run does: which students, in which harness, how often each query is asked, and the spending limit.
struct TriggerConfig
{
    QStringList models;
    int runs = 3;        ///< trials per query and model
    int concurrency = 4; ///< trials in flight at once
    int maxTokens = 256; ///< per trial's model request: enough for a tool call, or the start of an answer
    std::optional<double> temperature{}; ///< builtin only (the CLIs choose their own)
    std::optional<double> maxCostUsd{};  ///< hard limit: no trial starts that could take the spend above it
    /// Who lists the skills and offers to load them: Harness::Builtin (one chat request with the catalogue and an
    /// activate_skill tool), or Harness::ClaudeCode / Harness::Codex (the real CLI's own discovery).
    QString harness = Harness::Builtin;
    QString harnessCli{};     ///< which CLI binary: findAgentCli()'s choice ("" the pinned one, "path", or a file)
    int timeoutSeconds = 120; ///< per trial in a CLI, its start included
};

/// One trial: the query asked once with the catalogue, and what the student did with it.
struct TriggerTrial
{
    int queryIndex = 0;
    QString model;
    int run = 0;
    QString loaded{}; ///< the skill it activated; "" when it activated none
    QString error{};  ///< the request failed (such trials count in no rate)
    TokenUsage usage{};
    std::optional<double> costUsd{};
    qint64 latencyMs = 0;
};

/// The cost of a run before it starts: an upper bound (each trial's prompt plus all of maxTokens as output).
struct TriggerEstimate
{
    int trials = 0;
    qint64 inputTokensPerTrial = 0;
    qint64 outputTokensPerTrial = 0;
    std::optional<double> usd{}; ///< empty when a model has no price
    QStringList unpriced{};
};

/// The upper-bound cost of one trial of @p query with @p model; empty when the model has no price. In a CLI, the
/// prompt is the CLI's own (its instructions and tools, bounded per CLI) with the catalogue listed, priced as written
/// to the prompt cache (the dearest way the CLIs send it).
std::optional<double> trialCostBound(const SkillCatalogue &catalogue, const QString &query, const QString &model,
                                     const TriggerConfig &config);
TriggerEstimate estimateTrigger(const SkillCatalogue &catalogue, const QList<TriggerQuery> &queries,
                                const TriggerConfig &config);

/// The CLI that trials of @p config run in, once every model is one the CLI can speak to, the sandbox is there and
/// the CLI is found; else why not. Only for an agent CLI harness.
Result<AgentCliBinary> findTriggerCli(const TriggerConfig &config, const ProviderRegistry &providers);

/// What a trial's reply says the student loaded: the name of its first activate_skill call (whatever
/// the enum allowed; a name outside the catalogue is kept as written), or "". A call written into the reply's text
/// (as small local models do) counts as a call.
QString loadedSkillOf(const ChatResponse &response);

/**
 * Runs every query `runs` times with every model. With the builtin harness a trial is one chat request over the
 * project's ChatClient: the catalogue's system prompt, the query as the user message, the activation tool. In an agent
 * CLI a trial is one run of the real CLI (CliTriggerTrial) with every catalogue skill installed as a project skill,
 * so what is measured is the CLI's own discovery. The catalogue is the same for every trial. Trials start while the
 * budget allows: before each, the spend so far plus the bounds of the trials in flight plus its own bound must stay
 * within maxCostUsd; else no more start and the run stops with "budget". In a CLI a trial's bound is never below
 * the largest prompt a finished trial of the run actually sent.
 */
class TriggerRunner final : public QObject
{
    Q_OBJECT

public:
    TriggerRunner(ChatClient &chat, SkillCatalogue catalogue, QList<TriggerQuery> queries, TriggerConfig config,
                  QObject *parent = nullptr);
    ~TriggerRunner() override;

    /// Starts; refuses (failed) a budget with an unpriced model, since its spend could not be bounded, and in a CLI
    /// a model the CLI cannot speak to, a missing sandbox or CLI.
    void start();
    void cancel();

    const QList<TriggerTrial> &trials() const { return m_done; }
    const QList<TriggerQuery> &queries() const { return m_queries; }
    const SkillCatalogue &catalogue() const { return m_catalogue; }
    /// What the priced trials cost: what the budget counts.
    double spentUsd() const { return m_spend.pricedUsd; }
    /// Every trial's requests, a trial of a model without a price counted apart: what is shown.
    const CostTally &spend() const { return m_spend; }
    /// "complete", "budget" or "cancelled".
    QString stopReason() const { return m_stopReason; }
    /// The CLI the trials ran in, once started in an agent CLI; empty with the builtin harness.
    std::optional<AgentCliBinary> cli() const { return m_cli; }

Q_SIGNALS:
    void trialFinished(const sf::TriggerTrial &trial, int done, int total);
    void finished();
    void failed(const QString &message);

private:
    struct Pending
    {
        int queryIndex;
        QString model;
        int run;
    };
    QString prepareCli();
    double boundOf(const QString &query, const QString &model) const;
    QObject *startChatTrial(TriggerTrial trial, const QString &query, double bound);
    QObject *startCliTrial(TriggerTrial trial, const QString &query, double bound);
    void launchMore();
    void onDone(QObject *inFlight, TriggerTrial trial, double bound);

    ChatClient &m_chat;
    SkillCatalogue m_catalogue;
    QList<TriggerQuery> m_queries;
    TriggerConfig m_config;
    std::optional<AgentCliBinary> m_cli;
    std::unique_ptr<CliTrialSetup> m_cliSetup;
    std::unique_ptr<QTemporaryDir> m_cliFolder; ///< the staged skills and each trial's workspace and home
    int m_cliTrials = 0;
    qint64 m_largestCliPrompt = 0; ///< input tokens of the largest finished CLI trial
    QList<Pending> m_pending;
    QList<QPointer<QObject>> m_inFlight; ///< ChatCall or CliTriggerTrial
    QList<TriggerTrial> m_done;
    CostTally m_spend;
    double m_reserved = 0;
    int m_total = 0;
    QString m_stopReason;
    bool m_finished = false;
};

} // namespace sf
