#include "SkippedChecks.h"
#include "suite/SuiteCasesModel.h"
#include "suite/SuiteDocument.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace sf;

namespace {

TestCase makeCase(const QString &id, const QString &input, const QStringList &contains)
{
    TestCase c;
    c.id = id;
    c.input = input;
    c.expectedContains = contains;
    return c;
}

TestSuite twoCases()
{
    TestSuite suite;
    suite.cases = {makeCase(QStringLiteral("a"), QStringLiteral("First prompt"), {QStringLiteral("x")}),
                   makeCase(QStringLiteral("b"), QStringLiteral("Second prompt"), {QStringLiteral("y")})};
    VerifierSpec regex;
    regex.type = QStringLiteral("regex");
    regex.pattern = QStringLiteral("^ok");
    suite.cases[1].verifiers = {regex, regex};
    return suite;
}

} // namespace

/// The table of a suite's cases: what it shows, what it lets the user change, and that each change is undoable.
class TestSuiteCasesModel final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void rows_showIdRepeatsInputAndChecks()
    {
        SuiteDocument document;
        SuiteCasesModel model(&document);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        document.reset(twoCases());
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(model.index(0, SuiteCasesModel::Id).data().toString(), QStringLiteral("a"));
        QCOMPARE(model.index(1, SuiteCasesModel::Input).data().toString(), QStringLiteral("Second prompt"));
        QCOMPARE(model.index(1, SuiteCasesModel::Checks).data().toString(), QStringLiteral("Answer contains, Matches a pattern ×2"));
        QCOMPARE(model.index(0, SuiteCasesModel::Repeats).data(Qt::EditRole).toInt(), 0);
        QCOMPARE(model.index(0, SuiteCasesModel::HeldOut).data(Qt::CheckStateRole).toInt(), int(Qt::Unchecked));
    }

    void checkingHeldOut_marksTheCaseHeldOut_andUndoRestoresTrain()
    {
        SuiteDocument document;
        SuiteCasesModel model(&document);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        document.reset(twoCases());
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QVERIFY(model.setData(model.index(1, SuiteCasesModel::HeldOut), Qt::Checked, Qt::CheckStateRole));
        QCOMPARE(document.suite().cases[1].split, QStringLiteral("heldout"));
        QVERIFY(document.isModified());
        QVERIFY(!changed.isEmpty());
        document.undoStack()->undo();
        QCOMPARE(document.suite().cases[1].split, QStringLiteral("train"));
        QVERIFY(!document.isModified());
    }

    void renamingToATakenOrEmptyId_isRefused()
    {
        SuiteDocument document;
        SuiteCasesModel model(&document);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        document.reset(twoCases());
        QVERIFY(!model.setData(model.index(1, SuiteCasesModel::Id), QStringLiteral("a")));
        QVERIFY(!model.setData(model.index(1, SuiteCasesModel::Id), QStringLiteral("  ")));
        QVERIFY(model.setData(model.index(1, SuiteCasesModel::Id), QStringLiteral("c")));
        QCOMPARE(document.suite().cases[1].id, QStringLiteral("c"));
        QVERIFY(model.setData(model.index(0, SuiteCasesModel::Repeats), 5));
        QCOMPARE(document.suite().cases[0].repeats, 5);
        QVERIFY(!model.setData(model.index(0, SuiteCasesModel::Repeats), -1));
    }

    void aCaseTheReaderWouldRefuse_carriesItsProblem()
    {
        SuiteDocument document;
        SuiteCasesModel model(&document);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        document.reset(twoCases());
        QVERIFY(model.index(0, 0).data(SuiteCasesModel::ProblemRole).toString().isEmpty());
        document.changeCase(0, QStringLiteral("clear"), [](TestCase &c) { c.expectedContains.clear(); });
        QVERIFY2(
            model.index(0, 0).data(SuiteCasesModel::ProblemRole).toString().contains(QStringLiteral("checks nothing")),
            qPrintable(model.index(0, 0).data(SuiteCasesModel::ProblemRole).toString()));
        document.changeCase(1, QStringLiteral("bad regex"),
                            [](TestCase &c) { c.verifiers[0].pattern = QStringLiteral("("); });
        QVERIFY(model.index(1, 0)
                    .data(SuiteCasesModel::ProblemRole)
                    .toString()
                    .contains(QStringLiteral("invalid pattern")));
    }

    void addingAndRemovingCases_resetsRows_andTypingMergesIntoOneStep()
    {
        SuiteDocument document;
        SuiteCasesModel model(&document);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        document.reset(twoCases());
        document.change(QStringLiteral("add"), [](TestSuite &s) {
            s.cases.append(makeCase(QStringLiteral("c"), QStringLiteral("p"), {QStringLiteral("z")}));
        });
        QCOMPARE(model.rowCount(), 3);
        const int key = SuiteDocument::mergeKey(2, SuiteDocument::Input);
        document.changeCase(
            2, QStringLiteral("type"), [](TestCase &c) { c.input = QStringLiteral("p1"); }, key);
        document.changeCase(
            2, QStringLiteral("type"), [](TestCase &c) { c.input = QStringLiteral("p12"); }, key);
        QCOMPARE(document.undoStack()->count(), 2);
        document.undoStack()->undo();
        QCOMPARE(document.suite().cases[2].input, QStringLiteral("p"));
        document.undoStack()->undo();
        QCOMPARE(model.rowCount(), 2);
        QVERIFY(!document.isModified());
    }
};

SF_TEST_MAIN(TestSuiteCasesModel)
#include "test_suite_cases_model.moc"
