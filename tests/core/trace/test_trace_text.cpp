// A trace's texts: UTF-8 in a store of chunks, viewed by the steps.
#include "SkippedChecks.h"
#include "trace/Trace.h"
#include "trace/TraceTextFinder.h"

#include <QTest>
#include <random>

using namespace sf;
using namespace Qt::StringLiterals;

class TestTraceText final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void add_keepsEveryTextInPlaceAcrossManyChunks()
    {
        TraceTextStore store;
        std::vector<TraceText> texts;
        std::vector<QString> expected;
        // Enough to fill several chunks, with a few texts large enough for an allocation of their own.
        for (int i = 0; i < 20000; ++i) {
            const QString text = i % 5000 == 17 ? QString(2 * 1024 * 1024, QChar(u'a' + i % 26))
                                                : QStringLiteral("text %1 %2").arg(i).arg(QString(i % 300, u'é'));
            texts.push_back(store.add(text));
            expected.push_back(text);
        }
        QVERIFY(store.bytesAllocated() > 8 * 1024 * 1024);
        for (size_t i = 0; i < texts.size(); ++i)
            QCOMPARE(texts[i].toString(), expected[i]);
    }

    void add_emptyTextIsEmpty()
    {
        TraceTextStore store;
        QVERIFY(store.add(QString()).isEmpty());
        QVERIFY(store.add(std::string_view()).isEmpty());
        QCOMPARE(TraceText().toString(), QString());
    }

    void add_unpairedSurrogateBecomesTheReplacementCharacter()
    {
        // UTF-8 cannot hold a lone surrogate: it is stored as U+FFFD, never dropped with what follows it.
        TraceTextStore store;
        const QString text = u"a"_s + QChar(0xD800) + u"b"_s;
        QCOMPARE(store.add(text).toString(), u"a\uFFFDb"_s);
    }

    void left_convertsOnlyTheStartAndNeverSplitsACharacter_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("units");
        QTest::newRow("ascii") << u"hello world"_s << 5;
        QTest::newRow("shorter than asked") << u"hi"_s << 10;
        QTest::newRow("two-byte") << QString(50, u'é') << 7;
        QTest::newRow("three-byte") << QString(50, u'€') << 9;
        QTest::newRow("surrogate pairs") << QString::fromUtf8("😀😀😀😀😀😀") << 4;
        QTest::newRow("mixed") << QString::fromUtf8("a€😀é b€😀") << 6;
    }

    void left_convertsOnlyTheStartAndNeverSplitsACharacter()
    {
        QFETCH(QString, text);
        QFETCH(int, units);
        TraceTextStore store;
        QCOMPARE(store.add(text).left(units), text.left(units));
    }

    void characterCount_countsCodePoints()
    {
        TraceTextStore store;
        QCOMPARE(store.add(QString::fromUtf8("a€😀é")).characterCount(), 4);
        QCOMPARE(TraceText().characterCount(), 0);
    }

    void contains_matchesAsQStringWould_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("needle");
        QTest::addColumn<bool>("caseSensitive");
        QTest::addColumn<bool>("found");
        QTest::newRow("ascii, case-insensitive") << u"The Kernel LAUNCH failed"_s << u"launch"_s << false << true;
        QTest::newRow("ascii, case-sensitive miss") << u"The Kernel LAUNCH failed"_s << u"launch"_s << true << false;
        QTest::newRow("ascii, case-sensitive hit") << u"The Kernel LAUNCH failed"_s << u"LAUNCH"_s << true << true;
        QTest::newRow("ascii needle in non-ascii text") << u"café CUDA über"_s << u"cuda"_s << false << true;
        QTest::newRow("non-ascii needle, folded") << u"Grüße aus München"_s << u"MÜNCHEN"_s << false << true;
        QTest::newRow("non-ascii needle, absent") << u"Grüße"_s << u"ö"_s << false << false;
        QTest::newRow("empty needle") << u"x"_s << QString() << true << true;
        QTest::newRow("case-sensitive non-ascii") << u"Grüße"_s << u"üß"_s << true << true;
        QTest::newRow("caseless non-ascii") << u"カーネルを書く"_s << u"ネル"_s << false << true;
        QTest::newRow("non-ascii needle, ascii run absent") << u"a naive kernel"_s << u"naïve"_s << false << false;
        QTest::newRow("non-ascii needle with ascii run") << u"A NAÏVE kernel"_s << u"naïve"_s << false << true;
        QTest::newRow("needle at the very end") << u"abcdefgh"_s << u"FGH"_s << false << true;
        QTest::newRow("needle at the very start") << u"abcdefgh"_s << u"ABC"_s << false << true;
        QTest::newRow("repeated prefix") << u"aaaaab"_s << u"AAAB"_s << false << true;
        QTest::newRow("needle longer than 255")
            << QString(300, u'x') + u"Y"_s << QString(299, u'X') + u"y"_s << false << true;
        QTest::newRow("longer than the text") << u"ab"_s << u"abc"_s << false << false;
    }

    void contains_matchesAsQStringWould()
    {
        QFETCH(QString, text);
        QFETCH(QString, needle);
        QFETCH(bool, caseSensitive);
        QFETCH(bool, found);
        const Qt::CaseSensitivity cs = caseSensitive ? Qt::CaseSensitive : Qt::CaseInsensitive;
        QCOMPARE(text.contains(needle, cs), found); // the expectation itself is QString's
        TraceTextStore store;
        QCOMPARE(store.add(text).contains(needle, cs), found);
    }

    void finder_agreesWithQStringOnRandomTexts()
    {
        // Small alphabets make matches and near misses common: both cases, a two-byte and a three-byte
        // character, and a caseless one.
        const QString alphabet = u"aAbBcé€x"_s;
        std::mt19937 random(2026);
        auto randomText = [&](int length) {
            QString text;
            for (int i = 0; i < length; ++i)
                text += alphabet.at(int(random() % alphabet.size()));
            return text;
        };
        TraceTextStore store;
        int matches = 0;
        for (int round = 0; round < 3000; ++round) {
            const QString text = randomText(int(random() % 40));
            const QString needle = randomText(1 + int(random() % 4));
            const TraceText stored = store.add(text);
            for (const Qt::CaseSensitivity cs : {Qt::CaseSensitive, Qt::CaseInsensitive}) {
                const bool expected = text.contains(needle, cs);
                matches += expected;
                QVERIFY2(TraceTextFinder(needle, cs).foundIn(stored) == expected,
                         qPrintable(u"%1 in %2"_s.arg(needle, text)));
            }
        }
        QVERIFY(matches > 1000); // the comparison saw both outcomes often
    }

    void clear_reusesTheChunkAndForgetsTheTexts()
    {
        TraceTextStore store;
        const TraceText first = store.add(u"first"_s);
        const qsizetype allocated = store.bytesAllocated();
        store.clear();
        const TraceText second = store.add(u"again"_s);
        QCOMPARE(store.bytesAllocated(), allocated);
        QCOMPARE(second.utf8().data(), first.utf8().data()); // the same room, written again
        QCOMPARE(second.toString(), u"again"_s);
    }

    void traceCopy_sharesItsTexts()
    {
        Trace copy;
        TraceText text;
        {
            Trace original;
            text = original.store(u"kept by the copy"_s);
            copy = original;
        }
        QCOMPARE(text.toString(), u"kept by the copy"_s);
        QCOMPARE(copy.texts.use_count(), 1);
    }

    void keepAlive_keepsAnotherStoresTexts()
    {
        auto store = std::make_shared<TraceTextStore>();
        TraceText text;
        {
            auto other = std::make_shared<TraceTextStore>();
            text = other->add(u"moved with its steps"_s);
            store->keepAlive(std::move(other));
        }
        QCOMPARE(text.toString(), u"moved with its steps"_s);
    }
};

SF_TEST_GUILESS_MAIN(TestTraceText)
#include "test_trace_text.moc"
