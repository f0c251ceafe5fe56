#include "SkippedChecks.h"
#include "common/LineDiff.h"

#include <QRandomGenerator>
#include <QTest>
#include <vector>

using namespace sf;

namespace {

QStringList lines(const char *spaceSeparated)
{
    return QString::fromLatin1(spaceSeparated).split(u' ', Qt::SkipEmptyParts);
}

/// Length of a longest common subsequence, by the textbook quadratic table: the oracle for minimality.
int lcsLength(const QStringList &a, const QStringList &b)
{
    std::vector<std::vector<int>> table(size_t(a.size() + 1), std::vector<int>(size_t(b.size() + 1), 0));
    for (qsizetype i = a.size() - 1; i >= 0; --i) {
        for (qsizetype j = b.size() - 1; j >= 0; --j) {
            table[size_t(i)][size_t(j)] = a[i] == b[j]
                                              ? table[size_t(i + 1)][size_t(j + 1)] + 1
                                              : qMax(table[size_t(i + 1)][size_t(j)], table[size_t(i)][size_t(j + 1)]);
        }
    }
    return table[0][0];
}

/// Checks that @p script is a valid edit script from @p a to @p b: every line of each side appears once,
/// in order, and kept lines are equal. Returns the number of kept lines.
int verifyScript(const QStringList &a, const QStringList &b, const QList<DiffLine> &script)
{
    int i = 0;
    int j = 0;
    int same = 0;
    for (const DiffLine &line : script) {
        switch (line.kind) {
        case DiffLine::Kind::Same:
            if (line.oldIndex != i || line.newIndex != j || a[i] != b[j])
                return -1;
            ++i;
            ++j;
            ++same;
            break;
        case DiffLine::Kind::Removed:
            if (line.oldIndex != i || line.newIndex != -1)
                return -1;
            ++i;
            break;
        case DiffLine::Kind::Added:
            if (line.newIndex != j || line.oldIndex != -1)
                return -1;
            ++j;
            break;
        }
    }
    return i == a.size() && j == b.size() ? same : -1;
}

} // namespace

class TestLineDiff : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void diff_identical_allSame()
    {
        const QStringList a = lines("a b c");
        const QList<DiffLine> script = diffLines(a, a);
        QCOMPARE(script.size(), 3);
        for (int i = 0; i < 3; ++i)
            QCOMPARE(script[i], (DiffLine{DiffLine::Kind::Same, i, i}));
    }

    void diff_fromEmpty_allAdded()
    {
        const QList<DiffLine> script = diffLines({}, lines("a b"));
        QCOMPARE(script, (QList<DiffLine>{{DiffLine::Kind::Added, -1, 0}, {DiffLine::Kind::Added, -1, 1}}));
        QCOMPARE(diffLines(lines("a b"), {}),
                 (QList<DiffLine>{{DiffLine::Kind::Removed, 0, -1}, {DiffLine::Kind::Removed, 1, -1}}));
        QVERIFY(diffLines({}, {}).isEmpty());
    }

    void diff_oneLineChanged_removedThenAdded()
    {
        const QList<DiffLine> script = diffLines(lines("a b c"), lines("a x c"));
        QCOMPARE(script, (QList<DiffLine>{{DiffLine::Kind::Same, 0, 0},
                                          {DiffLine::Kind::Removed, 1, -1},
                                          {DiffLine::Kind::Added, -1, 1},
                                          {DiffLine::Kind::Same, 2, 2}}));
    }

    void diff_insertionInMiddle_keepsTheRest()
    {
        const QStringList a = lines("a b c d");
        const QStringList b = lines("a b new c d");
        const QList<DiffLine> script = diffLines(a, b);
        QCOMPARE(verifyScript(a, b, script), 4);
        QCOMPARE(script[2], (DiffLine{DiffLine::Kind::Added, -1, 2}));
    }

    void diff_classicMyersExample_isShortest()
    {
        // The example of Myers' paper: ABCABBA -> CBABAC has an LCS of 4 (D = 5).
        const QStringList a = lines("A B C A B B A");
        const QStringList b = lines("C B A B A C");
        QCOMPARE(verifyScript(a, b, diffLines(a, b)), 4);
    }

    void diff_randomInputs_validAndMinimal()
    {
        QRandomGenerator random(20240531);
        for (int round = 0; round < 400; ++round) {
            // Overlapping alphabets, so that some lines occur on one side only.
            const auto make = [&random](char16_t first) {
                QStringList out;
                const int n = int(random.bounded(0, 30));
                for (int i = 0; i < n; ++i)
                    out.append(QString(QChar(char16_t(first + random.bounded(0, 5)))));
                return out;
            };
            const QStringList a = make(u'a');
            const QStringList b = make(round % 2 ? u'a' : u'c');
            const int same = verifyScript(a, b, diffLines(a, b));
            QVERIFY2(same >= 0, qPrintable(a.join(u' ') + QStringLiteral(" -> ") + b.join(u' ')));
            QCOMPARE(same, lcsLength(a, b));
        }
    }

    void diff_largeFilesWithFewEdits_fast()
    {
        QStringList a;
        for (int i = 0; i < 5000; ++i)
            a.append(QStringLiteral("line %1").arg(i));
        QStringList b = a;
        b[100] = QStringLiteral("changed");
        b.insert(2500, QStringLiteral("inserted"));
        b.removeAt(4000);
        const QList<DiffLine> script = diffLines(a, b);
        QCOMPARE(verifyScript(a, b, script), 4998);
    }

    void sideBySide_pairsRemovedWithAdded()
    {
        const QList<DiffRow> rows = sideBySideRows(diffLines(lines("a b c d"), lines("a x y d")));
        QCOMPARE(rows.size(), 4);
        QCOMPARE(rows[0].kind, DiffRow::Kind::Same);
        QCOMPARE(rows[1].kind, DiffRow::Kind::Changed);
        QCOMPARE(rows[1].oldIndex, 1);
        QCOMPARE(rows[1].newIndex, 1);
        QCOMPARE(rows[2].kind, DiffRow::Kind::Changed);
        QCOMPARE(rows[3].kind, DiffRow::Kind::Same);

        const QList<DiffRow> uneven = sideBySideRows(diffLines(lines("a b c"), lines("a x y z")));
        QCOMPARE(uneven.size(), 4);
        QCOMPARE(uneven[1].kind, DiffRow::Kind::Changed);
        QCOMPARE(uneven[2].kind, DiffRow::Kind::Changed);
        QCOMPARE(uneven[3].kind, DiffRow::Kind::Added);
        QCOMPARE(uneven[3].oldIndex, -1);
        QCOMPARE(uneven[3].newIndex, 3);
    }

    void splitLines_handlesTerminators()
    {
        QCOMPARE(splitLines(QString()), QStringList());
        QCOMPARE(splitLines(QStringLiteral("a\nb\n")), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        QCOMPARE(splitLines(QStringLiteral("a\r\nb")), (QStringList{QStringLiteral("a"), QStringLiteral("b")}));
        QCOMPARE(splitLines(QStringLiteral("\n")), QStringList{QString()});
    }
};

SF_TEST_GUILESS_MAIN(TestLineDiff)
#include "test_line_diff.moc"
