#include "SkippedChecks.h"
#include "common/TokenEstimate.h"

#include <QTest>

using namespace sf;

class TestTokenEstimate : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void empty_isZero() { QCOMPARE(estimateTokens(QString()), 0); }

    void englishProse_isAboutFourCharactersPerToken()
    {
        const QString prose = QStringLiteral(
            "RMSNorm normalizes each row of a tensor. It is purely memory-bound, so a good kernel reads every "
            "input byte once, writes every output byte once, and keeps enough loads in flight to saturate the "
            "memory bandwidth. Correctness comes first: test against a reference on odd shapes before timing.");
        const double charactersPerToken = double(prose.size()) / estimateTokens(prose);
        QVERIFY2(charactersPerToken > 3.5 && charactersPerToken < 5.0, qPrintable(QString::number(charactersPerToken)));
    }

    void code_isDenserThanProse()
    {
        const QString code = QStringLiteral("__global__ void rmsnorm(const float* __restrict__ x, float* y, int n) {\n"
                                            "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                            "    if (i < n) { y[i] = x[i] * rsqrtf(acc[i] / n + 1e-6f); }\n"
                                            "}\n");
        const double charactersPerToken = double(code.size()) / estimateTokens(code);
        QVERIFY2(charactersPerToken > 2.0 && charactersPerToken < 3.5, qPrintable(QString::number(charactersPerToken)));
    }

    void words_costByLength()
    {
        QCOMPARE(estimateTokens(QStringLiteral("a")), 1);
        QCOMPARE(estimateTokens(QStringLiteral("kernel")), 1);
        QCOMPARE(estimateTokens(QStringLiteral("normalization")), 3);
        QCOMPARE(estimateTokens(QStringLiteral("one two")), 2);
    }

    void whitespace_isFreeButDeepIndentationCounts()
    {
        QCOMPARE(estimateTokens(QStringLiteral("   \n\n  ")), 0);
        QCOMPARE(estimateTokens(QStringLiteral("        x")), 2);
    }

    void repeatedPunctuation_countsAsRuns()
    {
        QCOMPARE(estimateTokens(QStringLiteral("---")), 1);
        QCOMPARE(estimateTokens(QStringLiteral("{}();")), 5);
    }

    void nonAscii_isOneTokenPerCharacterEvenOutsideTheBmp()
    {
        QCOMPARE(estimateTokens(QStringLiteral("日本語")), 3);
        QCOMPARE(estimateTokens(QString::fromUtf8("\xF0\x9F\x98\x80")), 1); // one emoji, two UTF-16 units
    }
};

SF_TEST_GUILESS_MAIN(TestTokenEstimate)
#include "test_token_estimate.moc"
