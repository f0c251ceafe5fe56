#pragma once

#include "ScriptedHttpServer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace sf::test {

/// The body of an OpenAI-compatible chat completion whose message is @p text, with its usage.
inline QByteArray openAiReplyBody(const QString &text, int promptTokens = 10, int completionTokens = 5)
{
    const QJsonObject message{{QStringLiteral("role"), QStringLiteral("assistant")}, {QStringLiteral("content"), text}};
    const QJsonObject choice{{QStringLiteral("index"), 0},
                             {QStringLiteral("message"), message},
                             {QStringLiteral("finish_reason"), QStringLiteral("stop")}};
    const QJsonObject usage{{QStringLiteral("prompt_tokens"), promptTokens},
                            {QStringLiteral("completion_tokens"), completionTokens}};
    return QJsonDocument(QJsonObject{{QStringLiteral("model"), QStringLiteral("scripted")},
                                     {QStringLiteral("choices"), QJsonArray{choice}},
                                     {QStringLiteral("usage"), usage}})
        .toJson(QJsonDocument::Compact);
}

/// The same reply as OpenAI-compatible server-sent events, @p piece characters of text an event.
inline ScriptedResponse openAiStreamedReply(const QString &text, int piece = 40, int delayMs = 0)
{
    QList<QByteArray> events;
    for (qsizetype i = 0; i < text.size(); i += piece) {
        const QJsonObject delta{{QStringLiteral("content"), text.mid(i, piece)}};
        const QJsonObject choice{{QStringLiteral("index"), 0}, {QStringLiteral("delta"), delta}};
        events << "data: " +
                      QJsonDocument(QJsonObject{{QStringLiteral("choices"), QJsonArray{choice}}})
                          .toJson(QJsonDocument::Compact) +
                      "\n\n";
    }
    events << QByteArrayLiteral("data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n"
                                "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":5}}\n\n"
                                "data: [DONE]\n\n");
    ScriptedResponse response = ScriptedResponse::streamed(events, 1);
    response.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("text/event-stream")));
    response.delayMs = delayMs;
    return response;
}

} // namespace sf::test
