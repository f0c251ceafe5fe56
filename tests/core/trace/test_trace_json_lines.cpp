#include "SkippedChecks.h"
#include "trace/TraceImport.h"

#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

QString fixture(const QString &relative)
{
    return QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/trace/") + relative;
}

} // namespace

/// JSON Lines in shapes close to the known ones: read when Skillforge can, else refused with what the records
/// look like and what they lack, never with a whole-document parse error at line 2.
class TestTraceJsonLines : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void importClaudeCode_minimalSessionWithoutUuidOrRole_reads()
    {
        const Result<Trace> result = importTrace(fixture(u"claude-code/minimal-no-uuid.jsonl"_s));
        QVERIFY2(result, qPrintable(result.error));
        const Trace &trace = *result.value;
        QCOMPARE(trace.format, u"claude-code"_s);
        QCOMPARE(trace.turnCount(), 2);
        QCOMPARE(trace.threads[0].turns[0].role, u"user"_s);
        QCOMPARE(trace.threads[0].steps[1].text.toString(), u"It parses the arguments."_s);
        const TokenUsage usage = trace.totalUsage();
        QCOMPARE(usage.uncachedInput, 30);
        QCOMPARE(usage.cacheRead, 400);
        QCOMPARE(usage.output, 9);
    }

    void detect_claudeCodeShapeWithStringMessages_refusedSayingWhy()
    {
        const QString path = fixture(u"nasty/string-messages.jsonl"_s);
        QString why;
        QCOMPARE(detectTraceFormat(path, &why), QString());
        QVERIFY2(why.startsWith(path + u": JSON Lines whose records have keys {message, timestamp, type} but no uuid "
                                       "or sessionId: not a Claude Code session Skillforge can read, because its "
                                       "\"user\" records' \"message\" is a string, not Claude Code's {role, content} "
                                       "object (tried: "_s),
                 qPrintable(why));
        QVERIFY(!why.contains(u"garbage"_s));
        QVERIFY(!importTrace(path));
    }

    void detect_unknownJsonLines_namesTheKeys()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"events.jsonl"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"event\":\"start\",\"at\":1}\n{\"event\":\"tick\",\"at\":2,\"data\":{}}\n");
        file.close();
        QString why;
        QCOMPARE(detectTraceFormat(path, &why), QString());
        QVERIFY2(why.startsWith(path + u": JSON Lines whose records have keys {at, data, event}: not a trace in any "
                                       "known format (tried: "_s),
                 qPrintable(why));
    }

    void detect_oneChatMessagePerLine_saysHowSkillforgeReadsChats()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"chat.jsonl"_s);
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"role\":\"user\",\"content\":\"hi\"}\n{\"role\":\"assistant\",\"content\":\"hello\"}\n");
        file.close();
        QString why;
        QCOMPARE(detectTraceFormat(path, &why), QString());
        QVERIFY2(why.contains(u"JSON Lines of single chat messages ({role, content} a line)"_s), qPrintable(why));
    }
};

SF_TEST_GUILESS_MAIN(TestTraceJsonLines)
#include "test_trace_json_lines.moc"
