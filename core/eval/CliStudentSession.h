#pragma once

#include "AgentSession.h"
#include "agents/CliItemRun.h"

#include <QElapsedTimer>
#include <QJsonObject>
#include <QObject>
#include <QPointer>

namespace sf {

class ChatClient;
class ItemJudge;

/// The prompt an agent CLI gets for a case: its input (TestCase::studentPrompt()), and where its files are (they
/// are in the workspace, where a user's agent would find them).
QString cliPromptFor(const TestCase &testCase, const QString &skillName);

/**
 * One item run by a real agent CLI (the run's harness): the case's files written into a fresh workspace, the CLI
 * run once in the sandbox behind the door (CliItemRun), its session file read for the answer's steps and for
 * whether it loaded the skill, then the same verifiers as every other item, on its answer and the workspace it
 * left. A CLI that fails (no start, a crash, an exit status other than 0, no readable result) makes an error item,
 * which --resume runs again.
 */
class CliStudentSession final : public QObject
{
    Q_OBJECT

public:
    CliStudentSession(ChatClient &chat, DoorServices services, const AgentSetup &setup, AgentCliBinary binary,
                      WorkItem item, QString runDir, QObject *parent = nullptr);
    ~CliStudentSession() override;

    void start();
    const ItemKey &key() const { return m_item.key; }

Q_SIGNALS:
    void finished(const sf::ItemResult &result, const QJsonObject &transcript);

private:
    void onCliFinished(const CliItemOutcome &outcome);
    void readSession(const QString &sessionFile);
    void stop(const QString &reason, const QString &error = {});
    void finish(const ItemResult &judged);

    ChatClient &m_chat;
    DoorServices m_services;
    const AgentSetup &m_setup;
    AgentCliBinary m_binary;
    WorkItem m_item;
    QString m_runDir;
    ItemResult m_result;
    CostTally m_cost; ///< the door's requests, each priced on its own
    QJsonObject m_transcript;
    QPointer<CliItemRun> m_run;
    QPointer<ItemJudge> m_judge;
    QElapsedTimer m_clock;
};

} // namespace sf
