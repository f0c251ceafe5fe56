#include "TriggerRunner.h"

#include "CliTriggerTrial.h"
#include "agents/HarnessModels.h"
#include "common/TokenEstimate.h"
#include "llm/ChatCall.h"
#include "llm/ChatClient.h"
#include "llm/ToolCallText.h"
#include "sandbox/Sandbox.h"
#include "usage/Pricing.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

/// What an agent CLI sends besides the listing and the query, at most: its instructions, tool definitions and its
/// own skills (in the sandbox Claude Code 2.1.332 sends about 88 kB of JSON, Codex 0.163.0 about 40 kB; JSON text
/// takes 3 to 4 bytes a token).
qint64 cliOwnPromptTokens(const QString &harness)
{
    return harness == Harness::ClaudeCode ? 30000 : 14000;
}

qint64 promptTokens(const SkillCatalogue &catalogue, const QString &query, const QString &harness)
{
    qint64 estimate = 0;
    if (Harness::isAgentCli(harness)) {
        // The CLI lists each skill as a line (Codex adds its SKILL.md's path).
        estimate = cliOwnPromptTokens(harness) + estimateTokens(query);
        for (const CatalogueEntry &e : catalogue.entries())
            estimate += estimateTokens(e.name) * 2 + estimateTokens(e.description) + 16;
    } else {
        const ToolDefinition tool = catalogue.activationTool();
        // A little per message and tool for the wire format's own framing.
        estimate = estimateTokens(catalogue.systemPrompt()) + estimateTokens(query) +
                   estimateTokens(QString::fromUtf8(tool.inputSchema)) + estimateTokens(tool.description) + 32;
    }
    // A quarter more: the estimate has no tokenizer, and a bound that a real tokenizer exceeds would let the spend
    // pass the budget.
    return estimate + estimate / 4;
}

/// One trial's tokens at most: its prompt (in a CLI priced as a cache write, the dearest way the CLIs send it)
/// and all of maxTokens as output.
TokenUsage usageBound(qint64 promptTokens, const TriggerConfig &config)
{
    TokenUsage usage;
    if (Harness::isAgentCli(config.harness))
        usage.cacheWrite5m = promptTokens;
    else
        usage.uncachedInput = promptTokens;
    usage.output = config.maxTokens;
    return usage;
}

} // namespace

std::optional<double> trialCostBound(const SkillCatalogue &catalogue, const QString &query, const QString &model,
                                     const TriggerConfig &config)
{
    return Pricing::costFor(model, usageBound(promptTokens(catalogue, query, config.harness), config));
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
            input += promptTokens(catalogue, q.query, config.harness);
            const auto bound = trialCostBound(catalogue, q.query, model, config);
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

Result<AgentCliBinary> findTriggerCli(const TriggerConfig &config, const ProviderRegistry &providers)
{
    for (const QString &model : config.models) {
        if (const QString why = whyModelUnfitForHarness(config.harness, model, providers); !why.isEmpty())
            return Result<AgentCliBinary>::failure(why);
    }
    QString noSandbox;
    if (!sandboxAvailable(&noSandbox))
        return Result<AgentCliBinary>::failure(u"%1 runs only in the sandbox, and there is none here: %2"_s.arg(
            Harness::label(config.harness), noSandbox));
    return findAgentCli(config.harness, config.harnessCli);
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
    for (const QPointer<QObject> &trial : std::as_const(m_inFlight))
        delete trial.data();
}

QString TriggerRunner::prepareCli()
{
    const Result<AgentCliBinary> found = findTriggerCli(m_config, m_chat.providers());
    if (!found)
        return found.error;
    m_cli = *found.value;
    m_cliFolder = std::make_unique<QTemporaryDir>(QDir::temp().filePath(u"skillforge-trigger-XXXXXX"_s));
    if (!m_cliFolder->isValid())
        return u"cannot create a folder for the trials: %1"_s.arg(m_cliFolder->errorString());
    const QString staged = m_cliFolder->filePath(u"skills"_s);
    if (const QString error = stageCatalogueSkills(m_catalogue, staged); !error.isEmpty())
        return error;
    m_cliSetup = std::make_unique<CliTrialSetup>();
    m_cliSetup->services = {&m_chat.engine(), &m_chat.providers(), m_chat.localServer()};
    m_cliSetup->binary = *m_cli;
    m_cliSetup->stagedSkills = staged;
    m_cliSetup->skillNames = m_catalogue.names();
    m_cliSetup->maxOutputTokens = m_config.maxTokens;
    m_cliSetup->timeoutMs = m_config.timeoutSeconds * 1000;
    return {};
}

void TriggerRunner::start()
{
    QString refusal;
    if (m_config.maxCostUsd) {
        const TriggerEstimate estimate = estimateTrigger(m_catalogue, m_queries, m_config);
        if (!estimate.unpriced.isEmpty())
            refusal = u"a budget needs priced models; no price for %1 (add it to pricing.json)"_s.arg(
                estimate.unpriced.join(", "_L1));
    }
    if (refusal.isEmpty() && Harness::isAgentCli(m_config.harness))
        refusal = prepareCli();
    else if (refusal.isEmpty() && m_config.harness != Harness::Builtin)
        refusal = u"unknown harness \"%1\" (choose %2)"_s.arg(m_config.harness, Harness::all().join(", "_L1));
    if (!refusal.isEmpty()) {
        QTimer::singleShot(0, this, [this, refusal] { Q_EMIT failed(refusal); });
        return;
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
    for (const QPointer<QObject> &trial : inFlight) {
        if (auto *call = qobject_cast<ChatCall *>(trial.data()))
            call->cancel();
        else if (auto *cliTrial = qobject_cast<CliTriggerTrial *>(trial.data()))
            cliTrial->cancel();
    }
    launchMore();
}

double TriggerRunner::boundOf(const QString &query, const QString &model) const
{
    double bound = trialCostBound(m_catalogue, query, model, m_config).value_or(0);
    if (m_largestCliPrompt > 0) // the CLI sent more than its bound assumed: the next trial may too
        bound = std::max(bound, Pricing::costFor(model, usageBound(m_largestCliPrompt, m_config)).value_or(0));
    return bound;
}

QObject *TriggerRunner::startChatTrial(TriggerTrial trial, const QString &query, double bound)
{
    ChatRequest request;
    request.system = m_catalogue.systemPrompt();
    request.messages = {{u"user"_s, query}};
    request.maxTokens = m_config.maxTokens;
    request.temperature = m_config.temperature;
    request.tools = {m_catalogue.activationTool()};
    ChatCall *call = m_chat.chat(trial.model, request);
    call->setParent(this);
    connect(call, &ChatCall::finished, this, [this, call, trial, bound](const ChatResponse &response) mutable {
        trial.loaded = loadedSkillOf(response);
        trial.usage = response.usage;
        trial.costUsd = response.costUsd;
        trial.latencyMs = response.latencyMs;
        onDone(call, trial, bound);
    });
    connect(call, &ChatCall::failed, this, [this, call, trial, bound](const QString &message) mutable {
        trial.error = message;
        onDone(call, trial, bound);
    });
    return call;
}

QObject *TriggerRunner::startCliTrial(TriggerTrial trial, const QString &query, double bound)
{
    const QString folder = m_cliFolder->filePath(u"trial-%1"_s.arg(++m_cliTrials));
    auto *cliTrial = new CliTriggerTrial(*m_cliSetup, trial, query, folder, this);
    connect(cliTrial, &CliTriggerTrial::finished, this, [this, cliTrial, bound](const TriggerTrial &done) {
        m_largestCliPrompt = std::max(m_largestCliPrompt, done.usage.totalInput());
        onDone(cliTrial, done, bound);
    });
    cliTrial->start();
    return cliTrial;
}

void TriggerRunner::launchMore()
{
    while (!m_pending.isEmpty() && m_inFlight.size() < qMax(1, m_config.concurrency)) {
        const Pending next = m_pending.first();
        const QString query = m_queries.at(next.queryIndex).query;
        double bound = 0;
        if (m_config.maxCostUsd) {
            bound = boundOf(query, next.model);
            if (m_spend.pricedUsd + m_reserved + bound > *m_config.maxCostUsd) {
                m_stopReason = u"budget"_s;
                m_pending.clear();
                break;
            }
        }
        m_pending.removeFirst();
        m_reserved += bound;
        TriggerTrial trial;
        trial.queryIndex = next.queryIndex;
        trial.model = next.model;
        trial.run = next.run;
        m_inFlight.append(m_cliSetup ? startCliTrial(trial, query, bound) : startChatTrial(trial, query, bound));
    }
    if (m_pending.isEmpty() && m_inFlight.isEmpty() && !m_finished) {
        m_finished = true;
        Q_EMIT finished();
    }
}

void TriggerRunner::onDone(QObject *inFlight, TriggerTrial trial, double bound)
{
    m_reserved -= bound;
    m_inFlight.removeAll(inFlight);
    inFlight->deleteLater();
    m_spend.add(trial.model, trial.costUsd);
    if (trial.error.isEmpty() || m_stopReason != u"cancelled"_s) {
        m_done.append(trial);
        Q_EMIT trialFinished(trial, int(m_done.size()), m_total);
    }
    launchMore();
}

} // namespace sf
