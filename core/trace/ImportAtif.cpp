// ATIF, the Agent Trajectory Interchange Format (Harbor's RFC 0001, v1.0 to v1.5): {schema_version: "ATIF-v1.x",
// session_id, agent{name, version, model_name}, steps[{step_id, timestamp, source: system|user|agent, model_name,
// message, reasoning_content, tool_calls[{tool_call_id, function_name, arguments}], observation{results[
// {source_call_id, content, subagent_trajectory_ref[{session_id, trajectory_path}]}]}, metrics{prompt_tokens
// (cached included), completion_tokens, cached_tokens, cost_usd, extra}}], final_metrics}. A subagent is found
// embedded (subagent_trajectories) or in the file its reference names, and becomes a thread under its call.

#include "trace/TraceImport_p.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>

namespace sf::trace_import {

namespace {

using namespace Qt::StringLiterals;

constexpr int MaxSubagentDepth = 8; // a reference that loops back is read this deep at most

struct AtifReader
{
    Trace *trace;
    QDir folder;                               ///< where trajectory_path references are resolved
    QHash<QString, QJsonObject> embedded;      ///< session_id -> a subagent trajectory held in the file
    double costUsd = 0;
    bool hasCost = false;

    void readTrajectory(const QJsonObject &root, int thread, int depth)
    {
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
                readAgentStep(builder, step, defaultModel, line);
            } else {
                trace->skip(line, u"step %1 has no known source (\"%2\")"_s.arg(line).arg(source));
                continue;
            }
            readObservation(builder, step.value("observation"_L1).toObject(), thread, line, depth);
        }
    }

    void readAgentStep(ThreadBuilder &builder, const QJsonObject &step, const QString &defaultModel, qint64 line)
    {
        TraceTurn &turn = builder.beginTurn(u"assistant"_s, line);
        const QString model = step.value("model_name"_L1).toString();
        turn.model = model.isEmpty() ? defaultModel : model;
        if (const QString at = step.value("timestamp"_L1).toString(); !at.isEmpty())
            turn.timestamp = builder.store(at);
        const QJsonObject metrics = step.value("metrics"_L1).toObject();
        if (!metrics.isEmpty()) {
            // ATIF's prompt_tokens are the whole input: the cached tokens, and the cache writes its metrics.extra
            // names (Anthropic's cache_creation_input_tokens), are parts of it.
            TokenUsage usage;
            const QJsonObject extra = metrics.value("extra"_L1).toObject();
            usage.cacheRead = intField(metrics, "cached_tokens"_L1);
            usage.cacheWrite5m = intField(extra, "cache_creation_input_tokens"_L1);
            usage.uncachedInput =
                std::max<qint64>(0, intField(metrics, "prompt_tokens"_L1) - usage.cacheRead - usage.cacheWrite5m);
            usage.output = intField(metrics, "completion_tokens"_L1);
            usage.reasoning = intField(extra, "reasoning_tokens"_L1);
            turn.usage = usage;
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
    AtifReader reader{trace, QFileInfo(path).absoluteDir(), {}, 0, false};
    reader.readTrajectory(object, main, 0);
    const QJsonObject final = object.value("final_metrics"_L1).toObject();
    if (final.contains("total_cost_usd"_L1))
        trace->reportedCostUsd = final.value("total_cost_usd"_L1).toDouble();
    else if (reader.hasCost)
        trace->reportedCostUsd = reader.costUsd;
    finishTrace(trace);
    return true;
}

} // namespace sf::trace_import
