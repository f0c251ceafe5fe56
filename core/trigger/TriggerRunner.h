#pragma once

#include "SkillCatalogue.h"
#include "TriggerQuerySet.h"
#include "usage/TokenUsage.h"

#include <QObject>
#include <QPointer>
#include <QStringList>
#include <optional>

namespace sf {

class ChatCall;
class ChatClient;

/// What a trigger run does: which students, how often each query is asked, and the spending limit.
struct TriggerConfig
{
    QStringList models;
    int runs = 3;        ///< trials per query and model
    int concurrency = 4; ///< requests in flight at once
    int maxTokens = 256; ///< per trial: enough for a tool call, or the start of an answer
    std::optional<double> temperature{};
    std::optional<double> maxCostUsd{}; ///< hard limit: no trial starts that could take the spend above it
};

/// One trial: one chat request with the catalogue, and what the student did with it.
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

/// The upper-bound cost of one trial of @p query with @p model; empty when the model has no price.
std::optional<double> trialCostBound(const SkillCatalogue &catalogue, const QString &query, const QString &model,
                                     int maxTokens);
TriggerEstimate estimateTrigger(const SkillCatalogue &catalogue, const QList<TriggerQuery> &queries,
                                const TriggerConfig &config);

/// What a trial's reply says the student loaded: the name of its first activate_skill call (whatever
/// the enum allowed; a name outside the catalogue is kept as written), or "". A call written into the reply's text
/// (as small local models do) counts as a call.
QString loadedSkillOf(const ChatResponse &response);

/**
 * Runs every query `runs` times with every model, one chat request per trial over the project's ChatClient: the
 * catalogue's system prompt, the query as the user message, the activation tool. The catalogue is the same for
 * every trial. Trials start while the budget allows: before each, the spend so far plus the bounds of the trials
 * in flight plus its own bound must stay within maxCostUsd; else no more start and the run stops with "budget".
 */
class TriggerRunner final : public QObject
{
    Q_OBJECT

public:
    TriggerRunner(ChatClient &chat, SkillCatalogue catalogue, QList<TriggerQuery> queries, TriggerConfig config,
                  QObject *parent = nullptr);
    ~TriggerRunner() override;

    /// Starts; refuses (failed) a budget with an unpriced model, since its spend could not be bounded.
    void start();
    void cancel();

    const QList<TriggerTrial> &trials() const { return m_done; }
    const QList<TriggerQuery> &queries() const { return m_queries; }
    const SkillCatalogue &catalogue() const { return m_catalogue; }
    double spentUsd() const { return m_spent; }
    /// "complete", "budget" or "cancelled".
    QString stopReason() const { return m_stopReason; }

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
    void launchMore();
    void onDone(ChatCall *call, TriggerTrial trial);

    ChatClient &m_chat;
    SkillCatalogue m_catalogue;
    QList<TriggerQuery> m_queries;
    TriggerConfig m_config;
    QList<Pending> m_pending;
    QList<QPointer<ChatCall>> m_inFlight;
    QList<TriggerTrial> m_done;
    double m_spent = 0;
    double m_reserved = 0;
    int m_total = 0;
    QString m_stopReason;
    bool m_finished = false;
};

} // namespace sf
