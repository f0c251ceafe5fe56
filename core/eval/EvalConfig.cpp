#include "EvalConfig.h"

#include <QJsonArray>

namespace sf {

QJsonObject EvalConfig::toJson() const
{
    auto optional = [](const auto &value) { return value ? QJsonValue(double(*value)) : QJsonValue(); };
    return {{QStringLiteral("models"), QJsonArray::fromStringList(models)},
            {QStringLiteral("runs"), runs},
            {QStringLiteral("runs_for_every_case"), runsForEveryCase},
            {QStringLiteral("mode"), mode},
            {QStringLiteral("concurrency"), concurrency},
            {QStringLiteral("max_turns"), maxTurns},
            {QStringLiteral("max_tokens"), maxTokens},
            {QStringLiteral("timeout_seconds"), timeoutSeconds},
            {QStringLiteral("max_output_tokens"), maxOutputTokens},
            {QStringLiteral("command_timeout_seconds"), commandTimeoutSeconds},
            {QStringLiteral("temperature"), optional(temperature)},
            {QStringLiteral("top_p"), optional(topP)},
            {QStringLiteral("seed"), optional(seed)},
            {QStringLiteral("judge_model"), judgeModel},
            {QStringLiteral("student_tools"), toolOfferName(studentTools)},
            {QStringLiteral("harness"), harness},
            {QStringLiteral("harness_cli"), harnessCli},
            {QStringLiteral("mcp_config"), mcpConfig},
            {QStringLiteral("allowed_tools"), QJsonArray::fromStringList(allowedTools)}};
}

EvalConfig EvalConfig::fromJson(const QJsonObject &o)
{
    EvalConfig c;
    for (const QJsonValue &m : o.value(QStringLiteral("models")).toArray())
        c.models.append(m.toString());
    c.runs = o.value(QStringLiteral("runs")).toInt(c.runs);
    c.runsForEveryCase = o.value(QStringLiteral("runs_for_every_case")).toBool(false);
    c.mode = o.value(QStringLiteral("mode")).toString(c.mode);
    c.concurrency = o.value(QStringLiteral("concurrency")).toInt(c.concurrency);
    c.maxTurns = o.value(QStringLiteral("max_turns")).toInt(c.maxTurns);
    c.maxTokens = o.value(QStringLiteral("max_tokens")).toInteger(c.maxTokens);
    c.timeoutSeconds = o.value(QStringLiteral("timeout_seconds")).toInt(c.timeoutSeconds);
    c.maxOutputTokens = o.value(QStringLiteral("max_output_tokens")).toInt(c.maxOutputTokens);
    c.commandTimeoutSeconds = o.value(QStringLiteral("command_timeout_seconds")).toInt(c.commandTimeoutSeconds);
    if (o.value(QStringLiteral("temperature")).isDouble())
        c.temperature = o.value(QStringLiteral("temperature")).toDouble();
    if (o.value(QStringLiteral("top_p")).isDouble())
        c.topP = o.value(QStringLiteral("top_p")).toDouble();
    if (o.value(QStringLiteral("seed")).isDouble())
        c.seed = o.value(QStringLiteral("seed")).toInteger();
    c.judgeModel = o.value(QStringLiteral("judge_model")).toString();
    // Runs made before "auto" recorded a flag: true offered tools to every case, and resuming one keeps that.
    if (const QJsonValue tools = o.value(QStringLiteral("student_tools")); tools.isBool())
        c.studentTools = tools.toBool() ? ToolOffer::Always : ToolOffer::Never;
    else
        c.studentTools = toolOfferFromName(tools.toString(), ToolOffer::Auto);
    c.harness = o.value(QStringLiteral("harness")).toString(c.harness);
    c.harnessCli = o.value(QStringLiteral("harness_cli")).toString();
    c.mcpConfig = o.value(QStringLiteral("mcp_config")).toString();
    for (const QJsonValue &tool : o.value(QStringLiteral("allowed_tools")).toArray())
        c.allowedTools.append(tool.toString());
    return c;
}

} // namespace sf
