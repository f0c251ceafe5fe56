#include "EvalRunner.h"

#include "AgentSession.h"
#include "EvalLogging.h"
#include "RunEstimate.h"
#include "agents/Harness.h"
#include "common/TokenEstimate.h"

#include <QDateTime>
#include <algorithm>

namespace sf {

EvalRunner::EvalRunner(Executor &executor, RunStore &store, TestSuite suite, EvalConfig config, QObject *parent)
    : QObject(parent)
    , m_executor(executor)
    , m_store(store)
    , m_suite(std::move(suite))
    , m_config(std::move(config))
{
    m_matrix = matrix(m_suite, m_config);
    for (const TestCase &c : m_suite.cases)
        m_cases.insert(c.id, c);
    // An item that ended in an error (a provider fault, not an answer that failed) was never judged: it runs
    // again, and its new line supersedes the error.
    for (const ItemResult &r : m_store.results()) {
        m_spend.add(r);
        if (!r.isError())
            m_done.insert(r.key.toString());
    }
    connect(&m_executor, &Executor::itemFinished, this, &EvalRunner::onItemFinished);
}

QList<ItemKey> EvalRunner::matrix(const TestSuite &suite, const EvalConfig &config)
{
    int maxRepeats = 0;
    for (const TestCase &c : suite.cases)
        maxRepeats = std::max(maxRepeats, config.repeatsOf(c.repeats));
    QList<ItemKey> items;
    bool baselineFirst = true;
    for (int repeat = 1; repeat <= maxRepeats; ++repeat) {
        for (const TestCase &c : suite.cases) {
            if (repeat > config.repeatsOf(c.repeats))
                continue;
            for (const QString &model : config.models) {
                const QString first = baselineFirst ? kBaselineArm : kWithSkillArm;
                const QString second = baselineFirst ? kWithSkillArm : kBaselineArm;
                items.append({model, first, c.id, repeat});
                items.append({model, second, c.id, repeat});
                baselineFirst = !baselineFirst;
            }
        }
    }
    return items;
}

void EvalRunner::setSpendingCap(double usd, int skillTokens)
{
    m_capUsd = usd;
    m_skillTokens = skillTokens;
}

void EvalRunner::start()
{
    m_running = true;
    m_capReached = false;
    m_stopReason.clear();
    m_clock.start();
    m_pending.clear();
    for (const ItemKey &key : m_matrix) {
        if (!m_done.contains(key.toString()))
            m_pending.append(key);
    }
    m_store.manifest().status = QStringLiteral("running");
    m_store.manifest().finishedAt.clear();
    m_store.manifest().plannedItems = total();
    if (const QString error = m_store.saveManifest(); !error.isEmpty())
        qCWarning(lcEval).noquote() << error;
    qCDebug(lcEval) << "run" << m_store.manifest().runId << ":" << m_pending.size() << "of" << total()
                    << "items to run";
    dispatch();
}

namespace {

/// Whether an item needs a workspace folder: the student is an agent CLI or has file tools, or the case needs one
/// (workspaceNeedOf). Questions answered in text need none, and a run of many such items is spared two folders an
/// item (measured: creating them was most of the CPU time of a 400-item run).
bool needsWorkspace(const TestCase &testCase, const EvalConfig &config)
{
    // An agent CLI always works in a folder of its own, whatever the case.
    return Harness::isAgentCli(config.harness) || studentToolsFor(testCase, config).offered ||
           !workspaceNeedOf(testCase).isEmpty();
}

} // namespace

void EvalRunner::dispatch()
{
    if (!m_running)
        return;
    while (m_inFlight < std::max(1, m_config.concurrency) && !m_pending.isEmpty() && !m_capReached) {
        if (!capAllows(m_pending.first()))
            break;
        const ItemKey key = m_pending.takeFirst();
        ++m_inFlight;
        Q_EMIT itemStarted(key);
        const TestCase testCase = m_cases.value(key.caseId);
        m_executor.start({key, testCase, needsWorkspace(testCase, m_config) ? m_store.freshWorkspace(key) : QString()});
    }
    if (m_inFlight == 0 && m_pending.isEmpty())
        end(QStringLiteral("finished"));
    else if (m_inFlight == 0 && m_capReached)
        end(QStringLiteral("stopped"));
}

bool EvalRunner::capAllows(const ItemKey &key)
{
    if (!m_capUsd)
        return true;
    const TestCase testCase = m_cases.value(key.caseId);
    // Before any item of the model finished, a guess: the case and the skill, and a system prompt (Skillforge's
    // own is small; an agent CLI's, with its tools, runs to many thousands of tokens).
    const qint64 system = Harness::isAgentCli(m_config.harness) ? 20000 : 1000;
    const qint64 prompt =
        system + estimateTokens(userPromptFor(testCase, QString())) + (key.arm == kWithSkillArm ? m_skillTokens : 0);
    const std::optional<double> firstGuess = firstItemGuessUsd(key.model, prompt, m_config.maxOutputTokens);
    const double next = m_spend.mayCostUsd(key, firstGuess).value_or(0);
    // The items in flight at what they may cost now: an item started on a first guess may cost what its finished
    // neighbours did, once there are any.
    double inFlight = 0;
    for (const auto &[running, guess] : std::as_const(m_inFlightGuesses))
        inFlight += m_spend.mayCostUsd(running, guess).value_or(0);
    if (m_spend.spentUsd() + inFlight + next <= *m_capUsd) {
        m_inFlightGuesses.insert(key.toString(), {key, firstGuess});
        return true;
    }
    // The items in flight will say what an item of this run really costs (the first guess is deliberately high):
    // decide once they are back.
    if (m_inFlight > 0)
        return false;
    m_capReached = true;
    m_stopReason =
        QStringLiteral("the spending cap of %1 was reached: %2 spent, and the next item may cost %3")
            .arg(formatUsd(*m_capUsd), formatUsd(m_spend.spentUsd()), formatUsd(next));
    qCDebug(lcEval).noquote() << "run" << m_store.manifest().runId << "stops starting items:" << m_stopReason;
    return false;
}

void EvalRunner::onItemFinished(const ItemResult &finished, const QJsonObject &transcript)
{
    if (!m_running)
        return;
    --m_inFlight;
    m_inFlightGuesses.remove(finished.key.toString());
    const ItemResult result = m_store.record(finished, transcript);
    m_spend.add(result);
    m_done.insert(result.key.toString());
    ++m_finishedThisSession;
    for (RunModel &model : m_store.manifest().models) {
        if (model.name == result.key.model && model.resolvedId.isEmpty() && !result.resolvedModel.isEmpty()) {
            model.resolvedId = result.resolvedModel;
            m_store.saveManifest();
        }
    }
    Q_EMIT itemFinished(result);
    dispatch();
}

qint64 EvalRunner::etaMs() const
{
    // The pace of the items this session finished, not of those a resumed run had already.
    const qint64 seconds = remainingSeconds(m_clock.elapsed(), m_finishedThisSession, total() - done());
    return seconds < 0 ? -1 : seconds * 1000;
}

void EvalRunner::cancel()
{
    if (!m_running)
        return;
    m_executor.cancelAll();
    m_inFlight = 0;
    m_pending.clear();
    m_inFlightGuesses.clear();
    end(QStringLiteral("cancelled"));
}

void EvalRunner::stop(const QString &reason)
{
    if (!m_running)
        return;
    m_stopReason = reason;
    qCWarning(lcEval).noquote() << "run stopped:" << reason;
    cancel();
}

void EvalRunner::end(const QString &status)
{
    m_running = false;
    m_store.manifest().status = status;
    m_store.manifest().finishedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    // run.json says "finished" only once every result line is written.
    if (const QString error = m_store.waitForWrites(); !error.isEmpty())
        qCWarning(lcEval).noquote() << "some results were not recorded:" << error;
    if (const QString error = m_store.saveManifest(); !error.isEmpty())
        qCWarning(lcEval).noquote() << error;
    // Nothing more is written (late replies are ignored above): a resume, here or in another process, may begin.
    m_store.releaseWriterLock();
    Q_EMIT finished(status == QLatin1String("cancelled"));
}

} // namespace sf
