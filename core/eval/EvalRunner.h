#pragma once

#include "Executor.h"
#include "RunSpend.h"
#include "RunStore.h"

#include <QElapsedTimer>
#include <QObject>
#include <QSet>

namespace sf {

/**
 * Runs a run's matrix (models x {baseline, with_skill} x cases x repeats) through an executor, at most
 * `concurrency` items at once, in an order that interleaves the arms so that drift in a provider hits both
 * alike. Each result is appended to the run store as it arrives; items the store already has are skipped,
 * which is how a run resumes. Items it holds only as errors run again: an error means the item could not be
 * judged (a provider fault), so resuming finishes the matrix rather than keeping holes in it. With a spending cap, no
 * item starts once what the run spent, what its items in flight may cost and what the next one may cost (RunSpend)
 * would pass the cap: the items in flight finish, and the run stops, resumable.
 */
class EvalRunner final : public QObject
{
    Q_OBJECT

public:
    EvalRunner(Executor &executor, RunStore &store, TestSuite suite, EvalConfig config, QObject *parent = nullptr);

    /// Every item of the run, in the order it is dispatched: per repeat, per case, per model both arms, with
    /// the arm that goes first alternating.
    static QList<ItemKey> matrix(const TestSuite &suite, const EvalConfig &config);

    /// Caps the whole run's spend (items recorded before this session included) at @p usd; @p skillTokens sizes the
    /// first guess at a with-skill item's cost before any item of its model finished (RunSpend). Before start().
    void setSpendingCap(double usd, int skillTokens);
    std::optional<double> spendingCap() const { return m_capUsd; }
    /// Whether the cap stopped the run from starting more items (stopReason() says how far it got).
    bool capReached() const { return m_capReached; }
    /// The run's spend so far: what the running total shows.
    const RunSpend &spend() const { return m_spend; }

    void start();
    /// Abandons the items in flight (they stay missing, so a resume runs them) and ends with finished(true).
    void cancel();
    /// As cancel(), because the run cannot go on (the embedded model's server cannot stay up): every further item
    /// would only end in the same error. stopReason() says why.
    void stop(const QString &reason);
    QString stopReason() const { return m_stopReason; }

    int total() const { return int(m_matrix.size()); }
    int done() const { return int(m_done.size()); }
    int inFlight() const { return m_inFlight; }
    /// Estimated milliseconds left from the pace of items finished in this session; -1 until there is one.
    qint64 etaMs() const;
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void itemStarted(const sf::ItemKey &key);
    void itemFinished(const sf::ItemResult &result);
    void finished(bool cancelled);

private:
    void dispatch();
    /// Whether the cap lets @p key start now. When it does not and nothing is in flight, the run stops (its reason
    /// set); with items in flight, it waits for them.
    bool capAllows(const ItemKey &key);
    void onItemFinished(const ItemResult &result, const QJsonObject &transcript);
    void end(const QString &status);

    Executor &m_executor;
    RunStore &m_store;
    TestSuite m_suite;
    EvalConfig m_config;
    QList<ItemKey> m_matrix;
    QList<ItemKey> m_pending;
    QSet<QString> m_done;
    QHash<QString, TestCase> m_cases;
    int m_inFlight = 0;
    int m_finishedThisSession = 0;
    QElapsedTimer m_clock;
    bool m_running = false;
    QString m_stopReason;
    RunSpend m_spend;
    std::optional<double> m_capUsd;
    int m_skillTokens = 0;
    /// The items in flight under a cap, by key: each with the first guess at its cost it started on.
    QHash<QString, std::pair<ItemKey, std::optional<double>>> m_inFlightGuesses;
    bool m_capReached = false;
};

} // namespace sf
