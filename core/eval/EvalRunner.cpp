#include "EvalRunner.h"

#include "EvalLogging.h"
#include "RunEstimate.h"
#include "agents/Harness.h"

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

void EvalRunner::start()
{
    m_running = true;
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
    while (m_inFlight < std::max(1, m_config.concurrency) && !m_pending.isEmpty()) {
        const ItemKey key = m_pending.takeFirst();
        ++m_inFlight;
        Q_EMIT itemStarted(key);
        const TestCase testCase = m_cases.value(key.caseId);
        m_executor.start({key, testCase, needsWorkspace(testCase, m_config) ? m_store.freshWorkspace(key) : QString()});
    }
    if (m_inFlight == 0 && m_pending.isEmpty())
        end(false);
}

void EvalRunner::onItemFinished(const ItemResult &finished, const QJsonObject &transcript)
{
    if (!m_running)
        return;
    --m_inFlight;
    const ItemResult result = m_store.record(finished, transcript);
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
    end(true);
}

void EvalRunner::stop(const QString &reason)
{
    if (!m_running)
        return;
    m_stopReason = reason;
    qCWarning(lcEval).noquote() << "run stopped:" << reason;
    cancel();
}

void EvalRunner::end(bool cancelled)
{
    m_running = false;
    m_store.manifest().status = cancelled ? QStringLiteral("cancelled") : QStringLiteral("finished");
    m_store.manifest().finishedAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    // run.json says "finished" only once every result line is written.
    if (const QString error = m_store.waitForWrites(); !error.isEmpty())
        qCWarning(lcEval).noquote() << "some results were not recorded:" << error;
    if (const QString error = m_store.saveManifest(); !error.isEmpty())
        qCWarning(lcEval).noquote() << error;
    // Nothing more is written (late replies are ignored above): a resume, here or in another process, may begin.
    m_store.releaseWriterLock();
    Q_EMIT finished(cancelled);
}

} // namespace sf
