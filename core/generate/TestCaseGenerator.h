#pragma once

#include "StructuredReply.h"
#include "eval/TestSuite.h"
#include "llm/ChatTypes.h"
#include "usage/CostTally.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>

namespace sf {

class ChatCall;
class ChatClient;

/** What test cases are asked for. */
struct TestGenerationRequest
{
    QString skillDir;
    QString model; ///< PROVIDER:MODEL
    int count = 6;
    double heldOutFraction = 1.0 / 3.0; ///< this share is marked held out, spread evenly over the suite
    QString task;                       ///< defaults to skill_meta.json's source_task
    QString outputPath;                 ///< the suite file to create; must not exist yet
    QStringList kernelTasks;            ///< task ids a cuda_kernel verifier may name
    int maxTokens = 12000;
    ReplyFormat replyFormat = ReplyFormat::Auto;
};

/** The suite written, with what it took. */
struct TestGenerationResult
{
    QString path;
    TestSuite suite;
    bool repaired = false;
    QStringList dropped; ///< verifiers and cases left out of a reply that could not be read whole, and why
    int modelCalls = 0;
    TokenUsage usage;
    CostTally cost; ///< each call priced on its own
    qint64 latencyMs = 0;
};

/**
 * Asks a model for test cases for a skill, reads them with the suite reader (so anything the
 * evaluation would refuse is refused here, with its line), asks once more with the problem when the
 * reply cannot be read, keeps the readable cases and verifiers of a second unreadable reply (saying what it
 * left out) rather than losing them all, marks a share of the cases held out — chosen here, not by the model, and
 * spread evenly — and writes the suite without ever replacing an existing file. Exactly one of
 * finished() or failed() follows start().
 */
class TestCaseGenerator final : public QObject
{
    Q_OBJECT

public:
    explicit TestCaseGenerator(ChatClient &client, QObject *parent = nullptr);
    ~TestCaseGenerator() override;

    void start(const TestGenerationRequest &request);
    void cancel();

    /** Marks the cases at evenly spread positions held out, the rest train. */
    static void assignSplits(QList<TestCase> &cases, double heldOutFraction);
    /** The JSON in a reply: the reply itself, or the inside of its code fence. */
    static QByteArray jsonOf(const QString &reply);
    /**
     * The cases of @p json (a suite the reader refuses) that it can read, each with only its readable
     * verifiers; a case left with none is dropped. What was left out, and why, goes to @p dropped.
     */
    static std::optional<TestSuite> salvage(const QByteArray &json, QStringList *dropped);

Q_SIGNALS:
    void stage(const QString &what);
    void finished(const sf::TestGenerationResult &result);
    void failed(const QString &message);

private:
    void ask();
    void onReply(const ChatResponse &response);
    void fail(const QString &message);

    ChatClient &m_client;
    TestGenerationRequest m_request;
    ChatRequest m_chat;
    QPointer<ChatCall> m_call;
    TestGenerationResult m_result;
    bool m_running = false;
};

} // namespace sf

Q_DECLARE_METATYPE(sf::TestGenerationResult)
