#include "TriggerRunner.h"

#include "common/TokenEstimate.h"
#include "llm/ChatCall.h"
#include "llm/ChatClient.h"
#include "llm/ToolCallText.h"
#include "usage/Pricing.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

qint64 promptTokens(const SkillCatalogue &catalogue, const QString &query)
{
    const ToolDefinition tool = catalogue.activationTool();
    // A little per message and tool for the wire format's own framing, and a quarter more: the estimate has no
    // tokenizer, and a bound that a real tokenizer exceeds would let the spend pass the budget.
    const qint64 estimate = estimateTokens(catalogue.systemPrompt()) + estimateTokens(query) +
                            estimateTokens(QString::fromUtf8(tool.inputSchema)) + estimateTokens(tool.description) + 32;
    return estimate + estimate / 4;
}

} // namespace

std::optional<double> trialCostBound(const SkillCatalogue &catalogue, const QString &query, const QString &model,
                                     int maxTokens)
{
    TokenUsage usage;
    usage.uncachedInput = promptTokens(catalogue, query);
    usage.output = maxTokens;
    return Pricing::costFor(model, usage);
}

TriggerEstimate estimateTrigger(const SkillCatalogue &catalogue, const QList<TriggerQuery> &queries,
                                const TriggerConfig &config)
{
    TriggerEstimate estimate;
    estimate.trials = int(queries.size()) * config.runs * int(config.models.size());
    estimate.outputTokensPerTrial = config.maxTokens;
    qint64 input = 0;
    double usd = 0;
    for (const QString &model : config.models) {
        for (const TriggerQuery &q : queries) {
            input += promptTokens(catalogue, q.query);
            const auto bound = trialCostBound(catalogue, q.query, model, config.maxTokens);
            if (!bound) {
                if (!estimate.unpriced.contains(model))
                    estimate.unpriced.append(model);
                continue;
            }
            usd += *bound * config.runs;
        }
    }
    const qint64 perModel = queries.size() * config.models.size();
    estimate.inputTokensPerTrial = perModel ? input / perModel : 0;
    if (estimate.unpriced.isEmpty())
        estimate.usd = usd;
    return estimate;
}

QString loadedSkillOf(const ChatResponse &response)
{
    QList<ToolCall> calls = response.toolCalls;
    if (calls.isEmpty()) // small local models write the call into the text; it counts the same
        calls = toolCallsInText(response.text, {{SkillCatalogue::activationToolName(), QString(), QByteArray()}}).calls;
    for (const ToolCall &call : std::as_const(calls)) {
        if (call.name != SkillCatalogue::activationToolName())
            continue;
        const QJsonObject args = QJsonDocument::fromJson(call.arguments).object();
        const QString name = args.value("name"_L1).toString().trimmed();
        if (!name.isEmpty())
            return name;
    }
    return {};
}

TriggerRunner::TriggerRunner(ChatClient &chat, SkillCatalogue catalogue, QList<TriggerQuery> queries,
                             TriggerConfig config, QObject *parent)
    : QObject(parent)
    , m_chat(chat)
    , m_catalogue(std::move(catalogue))
    , m_queries(std::move(queries))
    , m_config(std::move(config))
{
}

TriggerRunner::~TriggerRunner()
{
    for (const QPointer<ChatCall> &call : std::as_const(m_inFlight))
        delete call.data();
}

void TriggerRunner::start()
{
    if (m_config.maxCostUsd) {
        const TriggerEstimate estimate = estimateTrigger(m_catalogue, m_queries, m_config);
        if (!estimate.unpriced.isEmpty()) {
            QTimer::singleShot(0, this, [this, estimate] {
                Q_EMIT failed(u"a budget needs priced models; no price for %1 (add it to pricing.json)"_s.arg(
                    estimate.unpriced.join(", "_L1)));
            });
            return;
        }
    }
    // Run-major order: every query once before any query twice, so a budget stop leaves an even sample.
    for (int run = 1; run <= m_config.runs; ++run)
        for (const QString &model : std::as_const(m_config.models))
            for (int i = 0; i < m_queries.size(); ++i)
                m_pending.append({i, model, run});
    m_total = int(m_pending.size());
    m_stopReason = u"complete"_s;
    QTimer::singleShot(0, this, &TriggerRunner::launchMore);
}

void TriggerRunner::cancel()
{
    m_stopReason = u"cancelled"_s;
    m_pending.clear();
    const auto inFlight = m_inFlight;
    for (const QPointer<ChatCall> &call : inFlight) {
        if (call)
            call->cancel();
    }
    launchMore();
}

void TriggerRunner::launchMore()
{
    while (!m_pending.isEmpty() && m_inFlight.size() < qMax(1, m_config.concurrency)) {
        const Pending next = m_pending.first();
        const QString query = m_queries.at(next.queryIndex).query;
        double bound = 0;
        if (m_config.maxCostUsd) {
            bound = trialCostBound(m_catalogue, query, next.model, m_config.maxTokens).value_or(0);
            if (m_spent + m_reserved + bound > *m_config.maxCostUsd) {
                m_stopReason = u"budget"_s;
                m_pending.clear();
                break;
            }
        }
        m_pending.removeFirst();
        m_reserved += bound;

        ChatRequest request;
        request.system = m_catalogue.systemPrompt();
        request.messages = {{u"user"_s, query}};
        request.maxTokens = m_config.maxTokens;
        request.temperature = m_config.temperature;
        request.tools = {m_catalogue.activationTool()};
        ChatCall *call = m_chat.chat(next.model, request);
        call->setParent(this);
        m_inFlight.append(call);
        TriggerTrial trial;
        trial.queryIndex = next.queryIndex;
        trial.model = next.model;
        trial.run = next.run;
        connect(call, &ChatCall::finished, this, [this, call, trial, bound](const ChatResponse &response) mutable {
            m_reserved -= bound;
            trial.loaded = loadedSkillOf(response);
            trial.usage = response.usage;
            trial.costUsd = response.costUsd;
            trial.latencyMs = response.latencyMs;
            onDone(call, trial);
        });
        connect(call, &ChatCall::failed, this, [this, call, trial, bound](const QString &message) mutable {
            m_reserved -= bound;
            trial.error = message;
            onDone(call, trial);
        });
    }
    if (m_pending.isEmpty() && m_inFlight.isEmpty() && !m_finished) {
        m_finished = true;
        Q_EMIT finished();
    }
}

void TriggerRunner::onDone(ChatCall *call, TriggerTrial trial)
{
    m_inFlight.removeAll(call);
    call->deleteLater();
    if (trial.costUsd)
        m_spent += *trial.costUsd;
    if (trial.error.isEmpty() || m_stopReason != u"cancelled"_s) {
        m_done.append(trial);
        Q_EMIT trialFinished(trial, int(m_done.size()), m_total);
    }
    launchMore();
}

} // namespace sf
