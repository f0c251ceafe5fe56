#pragma once

#include "ChatReplies.h"

#include <QRegularExpression>
#include <QSet>
#include <QStringList>

namespace sf::test {

/**
 * A scripted student for trigger trials, whose choice depends only on the words of the listed descriptions, so a
 * test knows recall and false positives in advance. It reads the catalogue (`<skill><name>…<description>…`) from
 * the system prompt and the query from the last user message; a word is a lowercase run of 4+ letters. It activates
 * the skill whose description shares the most words with the query, when that is at least `minOverlap` (ties: the
 * first listed), and otherwise answers in text. It answers 400 when the activation tool's `name` is not an enum of
 * exactly the listed names, so a test fails if the catalogue contract breaks.
 */
struct TriggerStudent
{
    int minOverlap = 2;

    static QSet<QString> words(const QString &text)
    {
        QSet<QString> result;
        static const QRegularExpression word(QStringLiteral("[a-z]{4,}"));
        auto it = word.globalMatch(text.toLower());
        while (it.hasNext())
            result.insert(it.next().captured(0));
        return result;
    }

    ScriptedResponse operator()(const RecordedRequest &request) const
    {
        const QJsonObject body = QJsonDocument::fromJson(request.body).object();
        const QJsonArray messages = body.value(QStringLiteral("messages")).toArray();
        QString system, query;
        for (const QJsonValue &m : messages) {
            const QJsonObject message = m.toObject();
            if (message.value(QStringLiteral("role")).toString() == QStringLiteral("system"))
                system = message.value(QStringLiteral("content")).toString();
            if (message.value(QStringLiteral("role")).toString() == QStringLiteral("user"))
                query = message.value(QStringLiteral("content")).toString();
        }
        static const QRegularExpression skill(
            QStringLiteral("<skill>\\s*<name>([^<]*)</name>\\s*<description>([^<]*)</description>"));
        QStringList names;
        QString best;
        int bestOverlap = 0;
        const QSet<QString> queryWords = words(query);
        auto it = skill.globalMatch(system);
        while (it.hasNext()) {
            const auto match = it.next();
            names.append(match.captured(1));
            const int overlap = int(words(match.captured(2)).intersect(queryWords).size());
            if (overlap > bestOverlap) {
                bestOverlap = overlap;
                best = match.captured(1);
            }
        }
        const QJsonArray tools = body.value(QStringLiteral("tools")).toArray();
        QStringList listed;
        for (const QJsonValue &t : tools) {
            const QJsonObject function = t.toObject().value(QStringLiteral("function")).toObject();
            if (function.value(QStringLiteral("name")).toString() != QStringLiteral("activate_skill"))
                continue;
            const QJsonArray values = function.value(QStringLiteral("parameters"))
                                          .toObject()
                                          .value(QStringLiteral("properties"))
                                          .toObject()
                                          .value(QStringLiteral("name"))
                                          .toObject()
                                          .value(QStringLiteral("enum"))
                                          .toArray();
            for (const QJsonValue &v : values)
                listed.append(v.toString());
        }
        if (names.isEmpty() || listed != names)
            return ScriptedResponse::json(400,
                                          "{\"error\":{\"message\":\"the activate_skill enum is not the catalogue\"}}");
        if (bestOverlap >= minOverlap)
            return scriptedToolCall(QStringLiteral("activate_skill"), {{QStringLiteral("name"), best}}, {1000, 12});
        return scriptedReply(QStringLiteral("I can answer that directly."), {1000, 12});
    }
};

} // namespace sf::test
