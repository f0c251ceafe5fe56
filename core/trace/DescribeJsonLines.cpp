// What a JSON Lines file that no importer takes looks like, for the refusal: its records' keys, and for a near
// miss (a Claude Code session cut down to {type, message}) what it lacks that Skillforge needs.

#include "trace/TraceImport_p.h"

#include <QSet>
#include <algorithm>

namespace sf::trace_import {

namespace {

using namespace Qt::StringLiterals;

constexpr int KeysNamed = 12; // more keys than this are counted, not listed

QString keyList(const QList<QJsonObject> &records)
{
    QSet<QString> seen;
    for (const QJsonObject &record : records)
        for (const QString &key : record.keys())
            seen.insert(key);
    QStringList keys(seen.cbegin(), seen.cend());
    keys.sort();
    const qsizetype more = keys.size() - KeysNamed;
    if (more > 0) {
        keys.resize(KeysNamed);
        keys.append(u"and %1 more"_s.arg(more));
    }
    return u"{%1}"_s.arg(keys.join(u", "_s));
}

QString jsonTypeName(const QJsonValue &value)
{
    switch (value.type()) {
    case QJsonValue::String:
        return u"a string"_s;
    case QJsonValue::Array:
        return u"a list"_s;
    case QJsonValue::Object:
        return u"an object"_s;
    case QJsonValue::Double:
        return u"a number"_s;
    case QJsonValue::Bool:
        return u"a boolean"_s;
    default:
        return u"null"_s;
    }
}

/// Why records with "type" and "message" (but none of Claude Code's ids) are no session Skillforge reads.
QString whyNotClaudeCode(const QList<QJsonObject> &records)
{
    QStringList types;
    for (const QJsonObject &record : records)
        if (const QString type = record.value("type"_L1).toString(); !types.contains(type))
            types.append(type);
    const bool conversational = types.contains(u"user"_s) || types.contains(u"assistant"_s);
    if (!conversational)
        return u"none of its record types (%1) is \"user\" or \"assistant\", the records a session's conversation is "
               "kept in"_s.arg(types.join(u", "_s));
    for (const QJsonObject &record : records) {
        const QString type = record.value("type"_L1).toString();
        if (type != "user"_L1 && type != "assistant"_L1)
            continue;
        const QJsonValue message = record.value("message"_L1);
        if (!message.isObject())
            return u"its \"%1\" records' \"message\" is %2, not Claude Code's {role, content} object"_s.arg(
                type, jsonTypeName(message));
        return u"its \"%1\" records' message has neither \"role\" nor \"content\" (it has %2)"_s.arg(
            type, keyList({message.toObject()}));
    }
    return {};
}

} // namespace

QString describeUnknownJsonLines(const QList<QJsonObject> &records)
{
    const QString keys = keyList(records);
    const QJsonObject &first = records.constFirst();
    const bool typedMessages = std::any_of(records.cbegin(), records.cend(), [](const QJsonObject &record) {
        return record.contains("type"_L1) && record.contains("message"_L1);
    });
    if (typedMessages)
        return u"JSON Lines whose records have keys %1 but no uuid or sessionId: not a Claude Code session "
               "Skillforge can read, because %2"_s.arg(keys, whyNotClaudeCode(records));
    if (first.value("messages"_L1).isArray())
        return u"JSON Lines of whole chats ({messages: [...]} a line, as chat fine-tuning data is written), not a "
               "trace: Skillforge reads one chat as a JSON document (openai-messages)"_s;
    if (first.contains("role"_L1) && first.contains("content"_L1))
        return u"JSON Lines of single chat messages ({role, content} a line), not a trace: Skillforge reads a chat "
               "as one JSON list of messages (openai-messages)"_s;
    return u"JSON Lines whose records have keys %1: not a trace in any known format"_s.arg(keys);
}

} // namespace sf::trace_import
