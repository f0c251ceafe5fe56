#pragma once

#include "TriggerQuerySet.h"

#include <QObject>
#include <QPointer>

namespace sf {

class ChatCall;
class ChatClient;
struct ChatResponse;

struct TriggerQueryRequest
{
    QString skillDir;
    QString model;
    int count = 20; ///< skill-creator's guide: about 20, half of each class, with near-miss negatives
    int maxTokens = 4000;
    QString outputPath; ///< written atomically; the caller picks a path that does not exist
};

/**
 * A teacher writes a trigger query set for a skill: requests that should and should not load it, the negatives
 * mostly near misses (the skills beside it and the bundled decoys are named so it can aim at them). The reply is held
 * to a JSON Schema, read with the query-set reader and written in skill-creator's format.
 */
class TriggerQueryGenerator final : public QObject
{
    Q_OBJECT

public:
    explicit TriggerQueryGenerator(ChatClient &chat, QObject *parent = nullptr);
    ~TriggerQueryGenerator() override;

    void start(const TriggerQueryRequest &request);

Q_SIGNALS:
    void finished(const QString &path, const QList<sf::TriggerQuery> &queries);
    void failed(const QString &message);

private:
    void onReply(const ChatResponse &response);
    void fail(const QString &message);

    ChatClient &m_chat;
    TriggerQueryRequest m_request;
    QPointer<ChatCall> m_call;
};

} // namespace sf
