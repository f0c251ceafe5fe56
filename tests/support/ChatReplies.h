#pragma once

#include "ScriptedHttpServer.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace sf::test {

/// What an OpenAI-compatible chat completion reports besides its message.
struct ReplyShape
{
    int promptTokens = 10;
    int completionTokens = 5;
    QString model = QStringLiteral("scripted"); ///< the model the server says answered
    int delayMs = 0;                            ///< how long the server waits before answering
};

/// The body of a chat completion whose message is @p message (text, or tool calls).
inline QByteArray openAiCompletionBody(const QJsonObject &message, const QString &finishReason, const ReplyShape &shape)
{
    const QJsonObject choice{{QStringLiteral("index"), 0},
                             {QStringLiteral("message"), message},
                             {QStringLiteral("finish_reason"), finishReason}};
    const QJsonObject usage{{QStringLiteral("prompt_tokens"), shape.promptTokens},
                            {QStringLiteral("completion_tokens"), shape.completionTokens}};
    return QJsonDocument(QJsonObject{{QStringLiteral("model"), shape.model},
                                     {QStringLiteral("choices"), QJsonArray{choice}},
                                     {QStringLiteral("usage"), usage}})
        .toJson(QJsonDocument::Compact);
}

/// The body of an OpenAI-compatible chat completion whose message is @p text, with its usage.
inline QByteArray openAiReplyBody(const QString &text, int promptTokens = 10, int completionTokens = 5)
{
    const QJsonObject message{{QStringLiteral("role"), QStringLiteral("assistant")}, {QStringLiteral("content"), text}};
    return openAiCompletionBody(message, QStringLiteral("stop"), {promptTokens, completionTokens});
}

/// A chat completion answering @p text, as the scripted server sends it.
inline ScriptedResponse scriptedReply(const QString &text, const ReplyShape &shape = {})
{
    const QJsonObject message{{QStringLiteral("role"), QStringLiteral("assistant")}, {QStringLiteral("content"), text}};
    ScriptedResponse response =
        ScriptedResponse::json(200, openAiCompletionBody(message, QStringLiteral("stop"), shape));
    response.delayMs = shape.delayMs;
    return response;
}

/// A chat completion that calls tool @p name with @p arguments.
inline ScriptedResponse scriptedToolCall(const QString &name, const QJsonObject &arguments,
                                         const ReplyShape &shape = {})
{
    const QJsonObject function{
        {QStringLiteral("name"), name},
        {QStringLiteral("arguments"), QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact))}};
    const QJsonObject call{{QStringLiteral("id"), QStringLiteral("call_%1").arg(name)},
                           {QStringLiteral("type"), QStringLiteral("function")},
                           {QStringLiteral("function"), function}};
    const QJsonObject message{{QStringLiteral("role"), QStringLiteral("assistant")},
                              {QStringLiteral("content"), QJsonValue()},
                              {QStringLiteral("tool_calls"), QJsonArray{call}}};
    ScriptedResponse response =
        ScriptedResponse::json(200, openAiCompletionBody(message, QStringLiteral("tool_calls"), shape));
    response.delayMs = shape.delayMs;
    return response;
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
