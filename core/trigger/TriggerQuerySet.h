#pragma once

#include "common/LoadError.h"

#include <QList>
#include <QString>
#include <variant>

namespace sf {

/// One query of a trigger set: a user request, and whether the candidate skill should be loaded for it.
struct TriggerQuery
{
    QString query;
    bool shouldTrigger = false;
    QString split{}; ///< "train", "heldout" or "" (the optimizer then splits itself)
};

/**
 * Trigger query sets in skill-creator's format, `[{query, should_trigger}]`, read from the shapes real files have:
 * a bare list, or an object holding it under `queries`, `evals`, `eval_set` or `trigger_evals` (eval_set.json,
 * trigger_evals.json); `prompt` or `input` for `query`; `should_trigger` (or `trigger`, `expected`) as a boolean,
 * 0/1 or "true"/"false"/"yes"/"no". Queries that repeat are kept (a run measures each entry).
 */
namespace triggerqueries {

std::variant<QList<TriggerQuery>, LoadError> parse(const QByteArray &json, const QString &fileName);
std::variant<QList<TriggerQuery>, LoadError> read(const QString &path);
/// skill-creator's shape: a bare list of {query, should_trigger} (plus split when set), indented.
QByteArray toJson(const QList<TriggerQuery> &queries);
/// Atomic write; "" or a message naming the file.
QString write(const QString &path, const QList<TriggerQuery> &queries);

} // namespace triggerqueries
} // namespace sf
