#include "ItemJudge.h"

#include "llm/ChatCall.h"
#include "llm/ChatClient.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

namespace sf {

ItemJudge::ItemJudge(ChatClient &chat, TestCase testCase, VerifyContext context, QString defaultJudge, QObject *parent)
    : QObject(parent)
    , m_chat(chat)
    , m_case(std::move(testCase))
    , m_context(std::move(context))
    , m_defaultJudge(std::move(defaultJudge))
{
}

ItemJudge::~ItemJudge()
{
    delete m_call.data();
}

bool ItemJudge::passes(const ItemResult &result)
{
    return !result.isError() && !result.verifiers.isEmpty() &&
           std::all_of(result.verifiers.cbegin(), result.verifiers.cend(),
                       [](const VerifierOutcome &v) { return v.passed; });
}

void ItemJudge::judge(const ItemResult &result)
{
    m_result = result;
    m_context.answer = result.answer;
    const QList<VerifierSpec> specs = m_case.allVerifiers();
    auto *watcher = new QFutureWatcher<QList<VerifierOutcome>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, specs] {
        watcher->deleteLater();
        m_result.verifiers = watcher->result();
        for (const VerifierOutcome &o : std::as_const(m_result.verifiers)) {
            if (!o.jobError.isEmpty()) {
                m_result.stopReason = StopReason::Error;
                m_result.error = QStringLiteral("the %1 verifier's job failed: %2").arg(o.type, o.jobError);
                Q_EMIT finished(m_result);
                return;
            }
        }
        for (const VerifierSpec &spec : specs) {
            if (spec.type == QLatin1String("llm_judge"))
                m_judgeQueue.append(spec);
        }
        judgeNext();
    });
    watcher->setFuture(QtConcurrent::run([specs, context = m_context] {
        QList<VerifierOutcome> outcomes;
        for (const VerifierSpec &spec : specs) {
            if (spec.type != QLatin1String("llm_judge"))
                outcomes.append(runVerifier(spec, context));
        }
        return outcomes;
    }));
}

void ItemJudge::judgeNext()
{
    if (m_judgeQueue.isEmpty()) {
        Q_EMIT finished(m_result);
        return;
    }
    const VerifierSpec spec = m_judgeQueue.takeFirst();
    const QString judge = spec.judgeModel.isEmpty() ? m_defaultJudge : spec.judgeModel;
    if (judge.isEmpty()) {
        VerifierOutcome o;
        o.type = spec.type;
        o.name = spec.name;
        o.available = false;
        o.evidence =
            QStringLiteral("not available: no judge model was chosen (New Evaluation's Judge model, or --judge MODEL)");
        m_result.verifiers.append(o);
        judgeNext();
        return;
    }
    m_call = m_chat.chat(judge, judgeRequest(spec, m_case, m_result.answer));
    connect(m_call, &ChatCall::finished, this, [this, spec, judge](const ChatResponse &response) {
        m_call->deleteLater();
        m_call = nullptr;
        m_result.verifiers.append(judgeOutcome(spec, judge, response.text));
        judgeNext();
    });
    connect(m_call, &ChatCall::failed, this, [this, spec, judge](const QString &message) {
        m_call->deleteLater();
        m_call = nullptr;
        VerifierOutcome o;
        o.type = spec.type;
        o.name = spec.name;
        o.available = false;
        o.evidence = QStringLiteral("not available: the judge %1 failed: %2").arg(judge, message);
        m_result.verifiers.append(o);
        judgeNext();
    });
}

} // namespace sf
