// smolagents' benchmark answers: JSON Lines, one question per line (examples/smolagents_benchmark/run.py and
// the GAIA runs write them), {question, original_question, answer, true_answer, model_id, intermediate_steps,
// token_counts, start_time, end_time}. intermediate_steps is the agent's memory as chat messages ({role,
// content: text or [{type: "text", text}]}, tool use as "tool-call" / "tool-response" messages whose text
// smolagents writes as a Python repr), or one string (str(agent.memory.steps)). Each line becomes a thread.

#include "trace/TraceImport_p.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

namespace sf::trace_import {

namespace {

using namespace Qt::StringLiterals;

QString firstCapture(const QRegularExpression &pattern, const QString &text)
{
    const QRegularExpressionMatch match = pattern.match(text);
    return match.hasMatch() ? match.captured(1) : QString();
}

/// One message of intermediate_steps, placed as the step it is.
void addMessage(ThreadBuilder &builder, const QJsonObject &message, int callNumber, QString *lastCallId, qint64 line)
{
    static const QRegularExpression callName(uR"re(['"]name['"]:\s*['"]([^'"]+)['"])re"_s);
    static const QRegularExpression callId(uR"re(['"]id['"]:\s*['"]([^'"]+)['"])re"_s);
    static const QRegularExpression responseId(uR"re(Call id:\s*(\S+))re"_s);
    const QString role = message.value("role"_L1).toString();
    const QString text = contentText(message.value("content"_L1));
    if (role == "tool-call"_L1 || role == "tool_call"_L1) {
        builder.turnFor(u"assistant"_s, line);
        QString id = firstCapture(callId, text);
        if (id.isEmpty())
            id = u"call-%1"_s.arg(callNumber);
        *lastCallId = id;
        const QString name = firstCapture(callName, text);
        builder.addToolCall(id, name.isEmpty() ? u"tool"_s : name, text, line);
    } else if (role == "tool-response"_L1 || role == "tool_response"_L1) {
        builder.beginTurn(u"tool"_s, line);
        const QString id = firstCapture(responseId, text);
        const bool failed = text.contains("Error:"_L1) && !text.contains("Observation:"_L1);
        builder.addToolResult(id.isEmpty() ? *lastCallId : id, text, failed, line);
    } else if (role == "system"_L1) {
        builder.beginTurn(u"system"_s, line);
        builder.addStep(StepKind::System, text, line);
    } else if (role == "user"_L1) {
        builder.beginTurn(u"user"_s, line);
        builder.addStep(StepKind::UserText, text, line);
    } else if (!text.isEmpty()) {
        builder.turnFor(u"assistant"_s, line);
        builder.addStep(StepKind::AssistantText, text, line);
    }
}

} // namespace

bool importSmolagentsAnswers(const QString &path, Trace *trace, QString *error)
{
    QByteArray data;
    if (!readWholeFile(path, &data, error))
        return false;
    const QList<QByteArray> lines = data.split('\n');
    int calls = 0;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const qint64 line = i + 1;
        if (lines[i].trimmed().isEmpty())
            continue;
        QJsonParseError parseError;
        const QJsonObject record = QJsonDocument::fromJson(lines[i], &parseError).object();
        if (parseError.error != QJsonParseError::NoError || record.isEmpty()) {
            trace->skip(line, parseError.error != QJsonParseError::NoError
                                  ? u"not JSON: %1"_s.arg(parseError.errorString())
                                  : u"not a JSON object"_s);
            continue;
        }
        const QString question = record.value("original_question"_L1).toString().isEmpty()
                                     ? record.value("question"_L1).toString()
                                     : record.value("original_question"_L1).toString();
        const QString model = record.value("model_id"_L1).toString();
        QString title = question.simplified().left(80);
        if (!model.isEmpty())
            title = u"%1 — %2"_s.arg(model, title);
        const int thread = addThread(trace, u"question-%1"_s.arg(line), title);
        ThreadBuilder builder(trace, thread);

        const QJsonValue steps = record.value("intermediate_steps"_L1);
        bool sawUser = false;
        QString lastCallId;
        if (steps.isArray()) {
            for (const QJsonValue &value : steps.toArray()) {
                const QJsonObject message = value.toObject();
                sawUser = sawUser || message.value("role"_L1).toString() == "user"_L1;
                if (message.value("role"_L1).toString() == "tool-call"_L1)
                    ++calls;
                addMessage(builder, message, calls, &lastCallId, line);
            }
        }
        if (!sawUser && !question.isEmpty()) {
            // The question is the run's task; memory as a string (or none at all) does not carry it apart.
            TraceThread &t = builder.thread();
            if (t.steps.empty()) {
                builder.beginTurn(u"user"_s, line);
                builder.addStep(StepKind::UserText, question, line);
            }
        }
        if (steps.isString() && !steps.toString().isEmpty()) {
            builder.beginTurn(u"assistant"_s, line);
            builder.addStep(StepKind::AssistantText, u"Agent steps, as smolagents wrote them:\n"_s + steps.toString(),
                            line);
        }
        TraceTurn &answer = builder.beginTurn(u"assistant"_s, line);
        const QJsonValue answerValue = record.value("answer"_L1);
        builder.addStep(StepKind::AssistantText,
                        u"Final answer: %1"_s.arg(answerValue.isString() ? answerValue.toString()
                                                                          : compactJson(answerValue)),
                        line);
        // The run's total, on its last turn: {input, output} or TokenUsage's {input_tokens, output_tokens}.
        const QJsonObject counts = record.value("token_counts"_L1).toObject();
        if (!counts.isEmpty()) {
            TokenUsage usage;
            usage.uncachedInput = counts.contains("input_tokens"_L1) ? intField(counts, "input_tokens"_L1)
                                                                    : intField(counts, "input"_L1);
            usage.output = counts.contains("output_tokens"_L1) ? intField(counts, "output_tokens"_L1)
                                                               : intField(counts, "output"_L1);
            answer.usage = usage;
        }
        if (!model.isEmpty())
            answer.model = model;
    }
    if (trace->threads.empty()) {
        *error = u"no question could be read"_s;
        return false;
    }
    finishTrace(trace);
    return true;
}

} // namespace sf::trace_import
