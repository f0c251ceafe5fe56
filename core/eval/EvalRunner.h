#pragma once

#include "Executor.h"
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
 * judged (a provider fault), so resuming finishes the matrix rather than keeping holes in it.
 */
class EvalRunner final : public QObject
{
    Q_OBJECT

public:
    EvalRunner(Executor &executor, RunStore &store, TestSuite suite, EvalConfig config, QObject *parent = nullptr);

    /// Every item of the run, in the order it is dispatched: per repeat, per case, per model both arms, with
    /// the arm that goes first alternating.
    static QList<ItemKey> matrix(const TestSuite &suite, const EvalConfig &config);

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
    void onItemFinished(const ItemResult &result, const QJsonObject &transcript);
    void end(bool cancelled);

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
};

} // namespace sf
