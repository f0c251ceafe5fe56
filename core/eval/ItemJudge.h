#pragma once

#include "EvalResult.h"
#include "TestSuite.h"
#include "Verifiers.h"

#include <QObject>
#include <QPointer>
#include <functional>

namespace sf {

class ChatCall;
class ChatClient;

/**
 * Judges one item once its student has stopped, whoever drove the student (Skillforge's loop or an agent CLI):
 * every verifier but llm_judge on a worker thread against the final answer and the workspace, then each
 * llm_judge through the judge model, then pass or fail. A verifier whose cluster job failed makes the item an
 * error (it judged nothing), which --resume runs again.
 */
class ItemJudge final : public QObject
{
    Q_OBJECT

public:
    /// @p context carries the answer, workspace and runners; @p defaultJudge is the run's judge model.
    ItemJudge(ChatClient &chat, TestCase testCase, VerifyContext context, QString defaultJudge,
              QObject *parent = nullptr);
    ~ItemJudge() override;

    /// Fills @p result's verifiers (and error, for a failed verifier job) and emits finished() with it.
    void judge(const ItemResult &result);

    /// Whether every verifier of @p result passed and it is no error: the item's verdict.
    static bool passes(const ItemResult &result);

Q_SIGNALS:
    void finished(const sf::ItemResult &result);

private:
    void judgeNext();

    ChatClient &m_chat;
    TestCase m_case;
    VerifyContext m_context;
    QString m_defaultJudge;
    ItemResult m_result;
    QList<VerifierSpec> m_judgeQueue;
    QPointer<ChatCall> m_call;
};

} // namespace sf
