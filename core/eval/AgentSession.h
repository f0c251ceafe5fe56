#pragma once

#include "Executor.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QPointer>
#include <QTimer>

namespace sf {

class ChatCall;
class ChatClient;
class ItemJudge;

/// What every session of a run shares.
struct AgentSetup
{
    EvalConfig config;
    SkillUnderTest skill;
    CommandRunner runCommand;
    CommandRunner
        verifierCommand; ///< the command verifier's runner when it differs (jobs on a cluster); else runCommand
    KernelChecker *kernels = nullptr;
};

/// The system prompt of an arm: the same base text for both arms, plus the skill (inline: its body; agentic:
/// its name, description and where it lives) for with_skill. @p tools: whether the student has its tools.
QString systemPromptFor(const AgentSetup &setup, const QString &arm, bool tools);
/// The first user message: the case's input (TestCase::studentPrompt()), then its context files as fenced blocks
/// (they are also in the workspace), as upskill does, so a model without tools sees them too.
QString userPromptFor(const TestCase &testCase, const QString &skillName);
/// Writes the case's context files into @p workspace; "" or what could not be written.
QString writeCaseFiles(const TestCase &testCase, const QString &workspace);

/**
 * One item: the student's conversation (model calls and tool calls, within the turn, token and time limits),
 * then the verifiers, then finished(). Tool calls and verifiers that block run on worker threads.
 */
class AgentSession final : public QObject
{
    Q_OBJECT

public:
    AgentSession(ChatClient &chat, const AgentSetup &setup, WorkItem item, QObject *parent = nullptr);
    ~AgentSession() override;

    void start();
    /// Starts from the event loop, ahead of the events already waiting there: when many items finish at once,
    /// each one's successor sends its request as soon as that item is recorded, not after the whole batch.
    void startSoon();
    const ItemKey &key() const { return m_item.key; }

protected:
    bool event(QEvent *event) override;

Q_SIGNALS:
    void finished(const sf::ItemResult &result, const QJsonObject &transcript);

private:
    void callModel();
    void onReply(const ChatResponse &response);
    void onFailed(const QString &message);
    void runTools(const QList<ToolCall> &calls);
    void stop(const QString &reason, const QString &error = {});
    void verify();
    void finish();
    void record(const QJsonObject &entry);

    ChatClient &m_chat;
    const AgentSetup &m_setup;
    WorkItem m_item;
    ItemResult m_result;
    CostTally m_cost; ///< each model request priced as it came back
    QList<ChatMessage> m_messages;
    QList<ToolDefinition> m_tools; // offered on every turn; empty when the student has no tools
    QString m_system;
    QJsonArray m_transcript;
    QPointer<ChatCall> m_call;
    QElapsedTimer m_clock;
    QTimer m_deadline;
    QPointer<ItemJudge> m_judge;
    bool m_stopped = false;
};

} // namespace sf
