// ATIF, the Agent Trajectory Interchange Format (Harbor's RFC 0001, v1.0 to v1.7): {schema_version: "ATIF-v1.x",
// session_id, agent{name, version, model_name}, steps[{step_id, timestamp, source: system|user|agent, model_name,
// message, reasoning_content, tool_calls[{tool_call_id, function_name, arguments}], observation{results[
// {source_call_id, content, subagent_trajectory_ref[{session_id, trajectory_path}]}]}, metrics{prompt_tokens
// (cached included), completion_tokens, cached_tokens, cost_usd, extra}}], final_metrics}. A subagent is found
// embedded (subagent_trajectories) or in the file its reference names, and becomes a thread under its call.
//
// Cache writes: the RFC puts Anthropic's cache_creation_input_tokens in metrics.extra, and writers disagree on
// whether prompt_tokens holds them. Harbor's Claude Code converter wrote prompt_tokens = input + cache read (writes
// apart) before it wrote input + cache read + cache creation (writes inside, the prompt's full size). A trajectory
// with a step whose prompt_tokens less its cached tokens is smaller than its cache writes cannot hold them, and is
// read as "writes apart"; otherwise the writes are taken as part of prompt_tokens.

#include "trace/TraceImport_p.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <algorithm>

namespace sf::trace_import {

namespace {

using namespace Qt::StringLiterals;

constexpr int MaxSubagentDepth = 8; // a reference that loops back is read this deep at most

/// Token counts as a trajectory states them (prompt_tokens as its writer meant them), to hold against its
/// final_metrics.
struct AtifSums
{
    qint64 prompt = 0;
    qint64 completion = 0;
    qint64 cached = 0;
    qint64 cacheWrites = 0;

    AtifSums &operator+=(const AtifSums &o)
    {
        prompt += o.prompt;
        completion += o.completion;
        cached += o.cached;
        cacheWrites += o.cacheWrites;
        return *this;
    }
};

qint64 cacheWritesOf(const QJsonObject &metrics)
{
    return intField(metrics.value("extra"_L1).toObject(), "cache_creation_input_tokens"_L1);
}

qint64 cachedOf(const QJsonObject &metrics)
{
    // Harbor also copies Anthropic's cache_read_input_tokens into extra; cached_tokens is the RFC's field.
    return metrics.contains("cached_tokens"_L1)
               ? intField(metrics, "cached_tokens"_L1)
               : intField(metrics.value("extra"_L1).toObject(), "cache_read_input_tokens"_L1);
}

/// Whether the trajectory's prompt_tokens leave its cache writes out (see the comment at the top).
bool cacheWritesApartFromPrompt(const QJsonObject &trajectory)
{
    for (const QJsonValue &value : trajectory.value("steps"_L1).toArray()) {
        const QJsonObject metrics = value.toObject().value("metrics"_L1).toObject();
        const qint64 writes = cacheWritesOf(metrics);
        if (writes > 0 && intField(metrics, "prompt_tokens"_L1) - cachedOf(metrics) < writes)
            return true;
    }
    return false;
}

struct AtifReader
{
    Trace *trace;
    QDir folder;                          ///< where trajectory_path references are resolved
    QHash<QString, QJsonObject> embedded; ///< session_id -> a subagent trajectory held in the file
    double costUsd = 0;
    bool hasCost = false;
    AtifSums all; ///< every trajectory read, subagents included
    bool anyWritesApart = false;

    /// Reads @p root into @p thread; returns the sums of its own steps (not its subagents').
    AtifSums readTrajectory(const QJsonObject &root, int thread, int depth)
    {
        AtifSums own;
        const bool writesApart = cacheWritesApartFromPrompt(root);
        anyWritesApart = anyWritesApart || writesApart;
        const QString defaultModel = root.value("agent"_L1).toObject().value("model_name"_L1).toString();
        for (const QJsonValue &value : root.value("subagent_trajectories"_L1).toArray()) {
            const QJsonObject sub = value.toObject();
            embedded.insert(sub.value("session_id"_L1).toString(), sub);
        }
        ThreadBuilder builder(trace, thread);
        for (const QJsonValue &value : root.value("steps"_L1).toArray()) {
            const QJsonObject step = value.toObject();
            const qint64 line = step.value("step_id"_L1).toInteger();
            const QString source = step.value("source"_L1).toString();
            const QString message = step.value("message"_L1).toString();
            if (source == "system"_L1) {
                builder.beginTurn(u"system"_s, line);
                if (!message.isEmpty())
                    builder.addStep(StepKind::System, message, line);
            } else if (source == "user"_L1) {
                builder.beginTurn(u"user"_s, line);
                builder.addStep(StepKind::UserText, message, line);
            } else if (source == "agent"_L1) {
                readAgentStep(builder, step, defaultModel, line, writesApart, &own);
            } else {
                trace->skip(line, u"step %1 has no known source (\"%2\")"_s.arg(line).arg(source));
                continue;
            }
            readObservation(builder, step.value("observation"_L1).toObject(), thread, line, depth);
        }
        all += own;
        return own;
    }

    void readAgentStep(ThreadBuilder &builder, const QJsonObject &step, const QString &defaultModel, qint64 line,
                       bool writesApart, AtifSums *own)
    {
        TraceTurn &turn = builder.beginTurn(u"assistant"_s, line);
        const QString model = step.value("model_name"_L1).toString();
        turn.model = model.isEmpty() ? defaultModel : model;
        if (const QString at = step.value("timestamp"_L1).toString(); !at.isEmpty())
            turn.timestamp = builder.store(at);
        const QJsonObject metrics = step.value("metrics"_L1).toObject();
        if (!metrics.isEmpty()) {
            const QJsonObject extra = metrics.value("extra"_L1).toObject();
            const qint64 prompt = intField(metrics, "prompt_tokens"_L1);
            const qint64 writes = cacheWritesOf(metrics);
            TokenUsage usage;
            usage.cacheRead = cachedOf(metrics);
            // Anthropic's usage, copied into extra, splits the writes by how long they are kept.
            usage.cacheWrite1h =
                std::min(writes, intField(extra.value("cache_creation"_L1).toObject(), "ephemeral_1h_input_tokens"_L1));
            usage.cacheWrite5m = writes - usage.cacheWrite1h;
            usage.uncachedInput = std::max<qint64>(0, prompt - usage.cacheRead - (writesApart ? 0 : writes));
            usage.output = intField(metrics, "completion_tokens"_L1);
            usage.reasoning = intField(extra, "reasoning_tokens"_L1);
            turn.usage = usage;
            own->prompt += prompt;
            own->completion += usage.output;
            own->cached += usage.cacheRead;
            own->cacheWrites += writes;
            if (metrics.contains("cost_usd"_L1)) {
                costUsd += metrics.value("cost_usd"_L1).toDouble();
                hasCost = true;
            }
        }
        if (const QString reasoning = step.value("reasoning_content"_L1).toString(); !reasoning.isEmpty())
            builder.addStep(StepKind::Thinking, reasoning, line);
        if (const QString message = step.value("message"_L1).toString(); !message.isEmpty())
            builder.addStep(StepKind::AssistantText, message, line);
        for (const QJsonValue &value : step.value("tool_calls"_L1).toArray()) {
            const QJsonObject call = value.toObject();
            const QJsonValue arguments = call.value("arguments"_L1);
            builder.addToolCall(call.value("tool_call_id"_L1).toString(), call.value("function_name"_L1).toString(),
                                arguments.isString() ? jsonTextAsCompact(arguments.toString()) : compactJson(arguments),
                                line);
        }
    }

    void readObservation(ThreadBuilder &builder, const QJsonObject &observation, int thread, qint64 line, int depth)
    {
        const QJsonArray results = observation.value("results"_L1).toArray();
        if (results.isEmpty())
            return;
        builder.beginTurn(u"tool"_s, line);
        for (const QJsonValue &value : results) {
            const QJsonObject result = value.toObject();
            const QString callId = result.value("source_call_id"_L1).toString();
            const QJsonArray refs = result.value("subagent_trajectory_ref"_L1).toArray();
            QString content = result.value("content"_L1).toString();
            if (content.isEmpty() && !refs.isEmpty())
                content = u"(delegated to a subagent)"_s;
            if (callId.isEmpty())
                builder.addStep(StepKind::System, content, line); // an action without a tool call
            else
                builder.addToolResult(callId, content, false, line);
            for (const QJsonValue &ref : refs)
                readSubagent(ref.toObject(), thread, callId, depth);
        }
    }

    void readSubagent(const QJsonObject &ref, int parent, const QString &callId, int depth)
    {
        const QString session = ref.value("session_id"_L1).toString();
        QJsonObject sub = embedded.value(session);
        if (sub.isEmpty()) {
            const QString path = ref.value("trajectory_path"_L1).toString();
            QFile file(folder.filePath(path));
            if (path.isEmpty() || path.contains("://"_L1) || !file.open(QIODevice::ReadOnly)) {
                trace->skip(0, u"subagent %1: its trajectory is not in this file%2"_s.arg(
                                   session, path.isEmpty() ? QString() : u" nor at %1"_s.arg(path)));
                return;
            }
            sub = QJsonDocument::fromJson(file.readAll()).object();
        }
        if (depth >= MaxSubagentDepth || sub.isEmpty())
            return;
        const QString agent = sub.value("agent"_L1).toObject().value("name"_L1).toString();
        const int thread = addThread(trace, session, agent.isEmpty() ? u"Subagent"_s : agent, parent);
        // The call that delegated is the subagent's parent step.
        TraceThread &parentThread = trace->threads[size_t(parent)];
        for (int i = int(parentThread.steps.size()) - 1; i >= 0; --i) {
            TraceStep &step = parentThread.steps[size_t(i)];
            if (step.kind == StepKind::ToolCall && step.toolId.toString() == callId) {
                step.childThread = thread;
                trace->threads[size_t(thread)].parentStep = i;
                break;
            }
        }
        readTrajectory(sub, thread, depth + 1);
    }
};

QString sumsText(const AtifSums &sums)
{
    return QStringLiteral("prompt %1, completion %2, cached %3").arg(sums.prompt).arg(sums.completion).arg(sums.cached);
}

/// Holds the file's own final_metrics against the steps read, and says in the trace's notes where and why the
/// totals Skillforge shows differ from them.
void noteFinalMetrics(const QJsonObject &final, const AtifSums &own, const AtifReader &reader, Trace *trace)
{
    if (reader.anyWritesApart && reader.all.cacheWrites > 0)
        trace->notes.append(QStringLiteral("prompt_tokens here leave out the cache writes, which metrics.extra reports "
                                           "apart (%1 tokens): they are counted as cache writes on top of "
                                           "prompt_tokens, so the input total is prompt_tokens + %1")
                                .arg(reader.all.cacheWrites));
    const QList<QLatin1StringView> keys = {"total_prompt_tokens"_L1, "total_completion_tokens"_L1,
                                           "total_cached_tokens"_L1};
    if (!std::any_of(keys.cbegin(), keys.cend(), [&](QLatin1StringView key) { return final.contains(key); }))
        return;
    auto agrees = [&](const AtifSums &sums) {
        const qint64 values[] = {sums.prompt, sums.completion, sums.cached};
        for (int i = 0; i < 3; ++i)
            if (final.contains(keys[i]) && intField(final, keys[i]) != values[i])
                return false;
        return true;
    };
    if (agrees(reader.all))
        return;
    AtifSums stated{intField(final, keys[0]), intField(final, keys[1]), intField(final, keys[2]), 0};
    AtifSums subagents = reader.all;
    subagents.prompt -= own.prompt;
    subagents.completion -= own.completion;
    subagents.cached -= own.cached;
    if (agrees(own)) {
        trace->notes.append(QStringLiteral("final_metrics (%1) count the main trajectory's own steps and agree with "
                                           "them; the totals here also count its subagents (%2)")
                                .arg(sumsText(stated), sumsText(subagents)));
        return;
    }
    trace->notes.append(QStringLiteral("final_metrics say %1, but the steps add up to %2 (main trajectory) or %3 "
                                       "(with subagents): the totals here are the steps'")
                            .arg(sumsText(stated), sumsText(own), sumsText(reader.all)));
}

} // namespace

bool importAtif(const QJsonValue &root, const QString &path, Trace *trace, QString *error)
{
    const QJsonObject object = root.toObject();
    if (!object.value("schema_version"_L1).toString().startsWith("ATIF"_L1) || !object.value("steps"_L1).isArray()) {
        *error = u"no \"schema_version\": \"ATIF-v1.x\" with a \"steps\" list"_s;
        return false;
    }
    const QJsonObject agent = object.value("agent"_L1).toObject();
    QString title = agent.value("name"_L1).toString();
    if (const QString model = agent.value("model_name"_L1).toString(); !model.isEmpty())
        title = title.isEmpty() ? model : u"%1 — %2"_s.arg(title, model);
    trace->title = title;
    const int main = addThread(trace, object.value("session_id"_L1).toString(), u"Main session"_s);
    AtifReader reader{trace, QFileInfo(path).absoluteDir(), {}, 0, false, {}, false};
    const AtifSums own = reader.readTrajectory(object, main, 0);
    const QJsonObject final = object.value("final_metrics"_L1).toObject();
    noteFinalMetrics(final, own, reader, trace);
    if (final.contains("total_cost_usd"_L1))
        trace->reportedCostUsd = final.value("total_cost_usd"_L1).toDouble();
    else if (reader.hasCost)
        trace->reportedCostUsd = reader.costUsd;
    finishTrace(trace);
    return true;
}

} // namespace sf::trace_import
