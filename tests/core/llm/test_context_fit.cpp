#include "SkippedChecks.h"
#include "llm/ContextFit.h"

#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

class TestContextFit final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void estimate_countsSystemMessagesToolCallsAndTools()
    {
        ChatRequest request;
        const int empty = ContextFit::estimatePromptTokens(request);
        request.system = u"word "_s.repeated(100);
        const int withSystem = ContextFit::estimatePromptTokens(request);
        QCOMPARE(withSystem - empty, 100);
        request.messages = {{u"user"_s, u"word "_s.repeated(50)}};
        QCOMPARE(ContextFit::estimatePromptTokens(request), withSystem + 50 + ContextFit::perMessageOverheadTokens);
        request.tools = {{u"write_file"_s, u"Write a file"_s, R"({"type":"object"})"}};
        QVERIFY(ContextFit::estimatePromptTokens(request) > withSystem + 50 + ContextFit::perMessageOverheadTokens);
    }

    void fitToContext_lowersTheReplyLimit_andRefusesWhatCannotFit()
    {
        ChatRequest request;
        request.messages = {{u"user"_s, u"word "_s.repeated(500)}};
        request.maxTokens = 100000;
        QVERIFY(ContextFit::fitToContext(request, 4096, u"local:m"_s).isEmpty());
        QVERIFY(request.maxTokens > ContextFit::minimumReplyTokens && request.maxTokens < 4096 - 500);

        request.maxTokens = 64; // already small: left alone
        QVERIFY(ContextFit::fitToContext(request, 4096, u"local:m"_s).isEmpty());
        QCOMPARE(request.maxTokens, 64);

        const QString refusal = ContextFit::fitToContext(request, 600, u"local:m"_s);
        QVERIFY2(refusal.contains("does not fit"_L1) && refusal.contains("local:m"_L1) && refusal.contains("600"_L1),
                 qPrintable(refusal));
        QVERIFY(ContextFit::fitToContext(request, 0, u"local:m"_s).isEmpty()); // an unknown window is not checked
    }

    void saysContextExceeded_knowsTheProvidersWords_andNothingElse()
    {
        QVERIFY(ContextFit::saysContextExceeded(
            u"HTTP 400: request (4169 tokens) exceeds the available context size (4096 tokens), try increasing it"_s));
        QVERIFY(ContextFit::saysContextExceeded(u"HTTP 500: Context size has been exceeded."_s));
        QVERIFY(ContextFit::saysContextExceeded(u"HTTP 400: prompt is too long: 210000 tokens > 200000 maximum"_s));
        QVERIFY(!ContextFit::saysContextExceeded(u"HTTP 500: Internal server error"_s));
        QVERIFY(!ContextFit::saysContextExceeded(u"HTTP 429: rate limited"_s));
    }
};

SF_TEST_GUILESS_MAIN(TestContextFit)
#include "test_context_fit.moc"
