#include "SkippedChecks.h"
#include "llm/ModelName.h"

#include <QStandardPaths>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

class TestModelName final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void parse_simpleName_splitsProviderAndModel()
    {
        const Result<ModelName> name = ModelName::parse(u"anthropic:claude-opus-4-5"_s);
        QVERIFY2(name.ok(), qPrintable(name.error));
        QCOMPARE(name.value->provider, u"anthropic"_s);
        QCOMPARE(name.value->model, u"claude-opus-4-5"_s);
    }

    void parse_hfModelWithRouteSuffix_splitsAtFirstColon()
    {
        const Result<ModelName> name = ModelName::parse(u"hf:moonshotai/Kimi-K2-Thinking:groq"_s);
        QVERIFY(name.ok());
        QCOMPARE(name.value->provider, u"hf"_s);
        QCOMPARE(name.value->model, u"moonshotai/Kimi-K2-Thinking:groq"_s);
    }

    void parse_surroundingWhitespace_isIgnored()
    {
        const Result<ModelName> name = ModelName::parse(u"  ollama:qwen3-coder \n"_s);
        QVERIFY(name.ok());
        QCOMPARE(name.value->toString(), u"ollama:qwen3-coder"_s);
    }

    void parse_invalid_explainsWhatIsMissing_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("no colon") << u"gpt-4.1"_s << u"PROVIDER:MODEL"_s;
        QTest::newRow("empty provider") << u":gpt-4.1"_s << u"no provider"_s;
        QTest::newRow("empty model") << u"openai:"_s << u"no model"_s;
        QTest::newRow("empty") << QString() << u"PROVIDER:MODEL"_s;
    }

    void parse_invalid_explainsWhatIsMissing()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const Result<ModelName> name = ModelName::parse(text);
        QVERIFY(!name.ok());
        QVERIFY2(name.error.contains(expected), qPrintable(name.error));
    }

    void toString_roundTrips()
    {
        const ModelName name{u"local"_s, u"gemma3-270m"_s};
        QCOMPARE(ModelName::parse(name.toString()).value, name);
    }
};

SF_TEST_GUILESS_MAIN(TestModelName)
#include "test_model_name.moc"
