#include "EvalResult.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace sf {

QString ItemKey::toString() const
{
    return QStringLiteral("%1|%2|%3|%4").arg(model, arm, caseId).arg(repeat);
}

QString ItemKey::fileName() const
{
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]+"));
    QString name = QStringLiteral("%1__%2__%3__r%4").arg(model, arm, caseId).arg(repeat);
    return name.replace(unsafe, QStringLiteral("_"));
}

QJsonObject usageToJson(const TokenUsage &u)
{
    return {{QStringLiteral("uncached_input"), u.uncachedInput},
            {QStringLiteral("cache_read"), u.cacheRead},
            {QStringLiteral("cache_write_5m"), u.cacheWrite5m},
            {QStringLiteral("cache_write_1h"), u.cacheWrite1h},
            {QStringLiteral("output"), u.output},
            {QStringLiteral("reasoning"), u.reasoning}};
}

TokenUsage usageFromJson(const QJsonObject &o)
{
    TokenUsage u;
    u.uncachedInput = o.value(QStringLiteral("uncached_input")).toInteger();
    u.cacheRead = o.value(QStringLiteral("cache_read")).toInteger();
    u.cacheWrite5m = o.value(QStringLiteral("cache_write_5m")).toInteger();
    u.cacheWrite1h = o.value(QStringLiteral("cache_write_1h")).toInteger();
    u.output = o.value(QStringLiteral("output")).toInteger();
    u.reasoning = o.value(QStringLiteral("reasoning")).toInteger();
    return u;
}

QJsonObject ItemResult::toJson() const
{
    QJsonArray checks;
    for (const VerifierOutcome &v : verifiers) {
        QJsonObject c{{QStringLiteral("type"), v.type},
                      {QStringLiteral("passed"), v.passed},
                      {QStringLiteral("evidence"), v.evidence}};
        if (!v.name.isEmpty())
            c.insert(QStringLiteral("name"), v.name);
        if (!v.available)
            c.insert(QStringLiteral("available"), false);
        if (v.score)
            c.insert(QStringLiteral("score"), *v.score);
        if (!v.reasoning.isEmpty())
            c.insert(QStringLiteral("reasoning"), v.reasoning);
        checks.append(c);
    }
    QJsonObject tools;
    for (auto it = toolCallCounts.begin(); it != toolCallCounts.end(); ++it)
        tools.insert(it.key(), it.value());
    QJsonObject o{{QStringLiteral("model"), key.model},
                  {QStringLiteral("arm"), key.arm},
                  {QStringLiteral("case"), key.caseId},
                  {QStringLiteral("repeat"), key.repeat},
                  {QStringLiteral("split"), split},
                  {QStringLiteral("passed"), passed},
                  {QStringLiteral("verifiers"), checks},
                  {QStringLiteral("answer"), answer},
                  {QStringLiteral("resolved_model"), resolvedModel},
                  {QStringLiteral("provider"), provider},
                  {QStringLiteral("usage"), usageToJson(usage)},
                  {QStringLiteral("cost_usd"), costUsd ? QJsonValue(*costUsd) : QJsonValue()},
                  {QStringLiteral("latency_ms"), latencyMs},
                  {QStringLiteral("llm_ms"), llmMs},
                  {QStringLiteral("turns"), turns},
                  {QStringLiteral("tool_calls"), toolCalls},
                  {QStringLiteral("tool_errors"), toolErrors},
                  {QStringLiteral("tool_call_counts"), tools},
                  {QStringLiteral("stop_reason"), stopReason},
                  {QStringLiteral("error"), error.isEmpty() ? QJsonValue() : QJsonValue(error)},
                  {QStringLiteral("transcript"), transcript},
                  {QStringLiteral("started_at"), startedAt}};
    if (toolsOffered)
        o.insert(QStringLiteral("tools_offered"), *toolsOffered);
    if (skillLoaded) {
        o.insert(QStringLiteral("skill_loaded"), *skillLoaded);
        if (*skillLoaded)
            o.insert(QStringLiteral("skill_loaded_at_turn"), skillLoadedAtTurn);
    }
    if (!skillFilesRead.isEmpty())
        o.insert(QStringLiteral("skill_files_read"), QJsonArray::fromStringList(skillFilesRead));
    if (!harnessSession.isEmpty())
        o.insert(QStringLiteral("harness_session"), harnessSession);
    if (cliStartupMs >= 0)
        o.insert(QStringLiteral("cli_startup_ms"), cliStartupMs);
    if (unpricedRequests > 0) {
        o.insert(QStringLiteral("cost_unpriced_requests"), unpricedRequests);
        o.insert(QStringLiteral("cost_priced_part_usd"), pricedPartUsd);
    }
    if (!costPriced.isEmpty())
        o.insert(QStringLiteral("cost_priced"), costPriced);
    return o;
}

void ItemResult::setCost(const CostTally &tally)
{
    costUsd = tally.total();
    unpricedRequests = tally.unpricedRequests;
    pricedPartUsd = tally.unpricedRequests > 0 ? tally.pricedUsd : 0;
}

QString ItemResult::costText() const
{
    if (costUsd)
        return formatUsd(*costUsd);
    if (unpricedRequests > 0 && pricedPartUsd > 0)
        return QStringLiteral("%1 for part of its requests, %2 unpriced")
            .arg(formatUsd(pricedPartUsd))
            .arg(unpricedRequests);
    return QStringLiteral("price unknown");
}

std::optional<ItemResult> ItemResult::fromJson(const QJsonObject &o)
{
    ItemResult r;
    r.key.model = o.value(QStringLiteral("model")).toString();
    r.key.arm = o.value(QStringLiteral("arm")).toString();
    r.key.caseId = o.value(QStringLiteral("case")).toString();
    r.key.repeat = o.value(QStringLiteral("repeat")).toInt();
    if (r.key.model.isEmpty() || r.key.arm.isEmpty() || r.key.caseId.isEmpty() || r.key.repeat < 1)
        return std::nullopt;
    r.split = o.value(QStringLiteral("split")).toString(QStringLiteral("train"));
    r.passed = o.value(QStringLiteral("passed")).toBool();
    for (const QJsonValue &value : o.value(QStringLiteral("verifiers")).toArray()) {
        const QJsonObject c = value.toObject();
        VerifierOutcome v;
        v.type = c.value(QStringLiteral("type")).toString();
        v.name = c.value(QStringLiteral("name")).toString();
        v.passed = c.value(QStringLiteral("passed")).toBool();
        v.available = c.value(QStringLiteral("available")).toBool(true);
        v.evidence = c.value(QStringLiteral("evidence")).toString();
        if (c.contains(QStringLiteral("score")))
            v.score = c.value(QStringLiteral("score")).toInt();
        v.reasoning = c.value(QStringLiteral("reasoning")).toString();
        r.verifiers.append(v);
    }
    r.answer = o.value(QStringLiteral("answer")).toString();
    r.resolvedModel = o.value(QStringLiteral("resolved_model")).toString();
    r.provider = o.value(QStringLiteral("provider")).toString();
    r.usage = usageFromJson(o.value(QStringLiteral("usage")).toObject());
    if (o.value(QStringLiteral("cost_usd")).isDouble())
        r.costUsd = o.value(QStringLiteral("cost_usd")).toDouble();
    r.unpricedRequests = o.value(QStringLiteral("cost_unpriced_requests")).toInt();
    r.pricedPartUsd = o.value(QStringLiteral("cost_priced_part_usd")).toDouble();
    r.costPriced = o.value(QStringLiteral("cost_priced")).toString();
    r.latencyMs = o.value(QStringLiteral("latency_ms")).toInteger();
    r.llmMs = o.value(QStringLiteral("llm_ms")).toInteger();
    r.turns = o.value(QStringLiteral("turns")).toInt();
    r.toolCalls = o.value(QStringLiteral("tool_calls")).toInt();
    r.toolErrors = o.value(QStringLiteral("tool_errors")).toInt();
    const QJsonObject tools = o.value(QStringLiteral("tool_call_counts")).toObject();
    for (auto it = tools.begin(); it != tools.end(); ++it)
        r.toolCallCounts.insert(it.key(), it.value().toInt());
    r.stopReason = o.value(QStringLiteral("stop_reason")).toString();
    r.error = o.value(QStringLiteral("error")).toString();
    if (o.value(QStringLiteral("tools_offered")).isBool())
        r.toolsOffered = o.value(QStringLiteral("tools_offered")).toBool();
    if (o.contains(QStringLiteral("skill_loaded")))
        r.skillLoaded = o.value(QStringLiteral("skill_loaded")).toBool();
    r.skillLoadedAtTurn = o.value(QStringLiteral("skill_loaded_at_turn")).toInt();
    for (const QJsonValue &file : o.value(QStringLiteral("skill_files_read")).toArray())
        r.skillFilesRead.append(file.toString());
    r.harnessSession = o.value(QStringLiteral("harness_session")).toString();
    r.cliStartupMs = o.value(QStringLiteral("cli_startup_ms")).toInteger(-1);
    r.transcript = o.value(QStringLiteral("transcript")).toString();
    r.startedAt = o.value(QStringLiteral("started_at")).toString();
    return r;
}

ErrorItems errorItems(const QList<ItemResult> &results)
{
    ErrorItems errors;
    for (const ItemResult &r : results) {
        if (!r.isError())
            continue;
        if (errors.count++ == 0)
            errors.firstError = r.error;
    }
    return errors;
}

} // namespace sf
