#include "SkippedChecks.h"
#include "llm/SseParser.h"

#include <QStandardPaths>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

QList<SseEvent> parseInPieces(const QByteArray &stream, const QList<qsizetype> &cuts, QString *error = nullptr)
{
    SseParser parser;
    QList<SseEvent> events;
    qsizetype start = 0;
    for (const qsizetype cut : cuts) {
        events += parser.feed(stream.mid(start, cut - start));
        start = cut;
    }
    events += parser.feed(stream.mid(start));
    if (error) {
        *error = parser.error();
    }
    return events;
}

} // namespace

class TestSseParser final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void eventsWithNamesAndData_areSplitOnBlankLines()
    {
        SseParser parser;
        const QList<SseEvent> events =
            parser.feed("event: message_start\ndata: {\"a\":1}\n\nevent: ping\ndata: {}\n\ndata: [DONE]\n\n");
        QCOMPARE(events.size(), 3);
        QCOMPARE(events.at(0).event, QByteArray("message_start"));
        QCOMPARE(events.at(0).data, QByteArray("{\"a\":1}"));
        QCOMPARE(events.at(1).event, QByteArray("ping"));
        QCOMPARE(events.at(2).event, QByteArray());
        QCOMPARE(events.at(2).data, QByteArray("[DONE]"));
        QVERIFY(!parser.hasError());
        QVERIFY(!parser.hasPartialEvent());
    }

    void crlfAndCrLineEndings_readLikeLf()
    {
        SseParser parser;
        const QList<SseEvent> events = parser.feed("data: one\r\n\r\ndata: two\r\rdata:three\n\n");
        QCOMPARE(events.size(), 3);
        QCOMPARE(events.at(0).data, QByteArray("one"));
        QCOMPARE(events.at(1).data, QByteArray("two"));
        QCOMPARE(events.at(2).data, QByteArray("three")); // the space after the colon is optional
    }

    void commentsAndIdAndRetry_areIgnored()
    {
        SseParser parser;
        const QList<SseEvent> events = parser.feed(": keep-alive\nid: 7\nretry: 1000\ndata: x\n\n: OPENROUTER PROCESSING\n\n");
        QCOMPARE(events.size(), 1);
        QCOMPARE(events.at(0).data, QByteArray("x"));
        QVERIFY(!parser.hasError());
    }

    void multipleDataLines_joinWithNewline()
    {
        SseParser parser;
        const QList<SseEvent> events = parser.feed("data: {\"a\":\ndata: 1}\n\n");
        QCOMPARE(events.size(), 1);
        QCOMPARE(events.at(0).data, QByteArray("{\"a\":\n1}"));
    }

    void splitAtEveryByte_includingInsideUtf8AndCrlf_givesTheSameEvents()
    {
        const QByteArray stream = u"event: content_block_delta\r\ndata: {\"text\":\"Grüße – 日本\"}\r\n\r\n"
                                  u": ping\r\ndata: {\"text\":\"😀\"}\r\n\r\n"_s.toUtf8();
        const QList<SseEvent> whole = parseInPieces(stream, {});
        QCOMPARE(whole.size(), 2);
        for (qsizetype cut = 1; cut < stream.size(); ++cut) {
            for (qsizetype second = cut + 1; second < stream.size(); second += 7) {
                const QList<SseEvent> pieces = parseInPieces(stream, {cut, second});
                QCOMPARE(pieces.size(), 2);
                QCOMPARE(pieces.at(0).event, whole.at(0).event);
                QCOMPARE(pieces.at(0).data, whole.at(0).data);
                QCOMPARE(pieces.at(1).data, whole.at(1).data);
            }
        }
        QCOMPARE(QString::fromUtf8(whole.at(0).data), u"{\"text\":\"Grüße – 日本\"}"_s);
    }

    void crAtEndOfChunk_waitsToSeeIfLfFollows()
    {
        SseParser parser;
        QCOMPARE(parser.feed("data: a\r").size(), 0);
        QCOMPARE(parser.feed("\n").size(), 0);
        const QList<SseEvent> events = parser.feed("\r\n");
        QCOMPARE(events.size(), 1);
        QCOMPARE(events.at(0).data, QByteArray("a"));
    }

    void unterminatedEvent_isReportedAsPartial()
    {
        SseParser parser;
        QCOMPARE(parser.feed("data: {\"half\":").size(), 0);
        QVERIFY(parser.hasPartialEvent());
        SseParser between;
        between.feed("data: x\n");
        QVERIFY(between.hasPartialEvent()); // the blank line that ends the event never came
    }

    void garbageLine_isAnErrorQuotingTheBytes()
    {
        QString error;
        const QList<SseEvent> events =
            parseInPieces("data: ok\n\n<html>\x01\xff oops</html>\ndata: later\n\n", {}, &error);
        QCOMPARE(events.size(), 1);
        QVERIFY2(error.contains("not a server-sent event field"_L1), qPrintable(error));
        QVERIFY2(error.contains(u"\"<html>\\x01\\xff oops</html>\""_s), qPrintable(error));
    }

    void afterAnError_nothingMoreIsParsed()
    {
        SseParser parser;
        parser.feed("bogus\n");
        QVERIFY(parser.hasError());
        QCOMPARE(parser.feed("data: x\n\n").size(), 0);
    }

    void quotedBytes_escapesControlAndNonAsciiAndTruncates()
    {
        QCOMPARE(quotedBytes("a\nb\r\x02"), u"\"a\\nb\\r\\x02\""_s);
        QCOMPARE(quotedBytes(QByteArray(300, 'x'), 4), u"\"xxxx...\""_s);
    }
};

SF_TEST_GUILESS_MAIN(TestSseParser)
#include "test_sse_parser.moc"
