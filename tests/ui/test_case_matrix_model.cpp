// The Compare view's table models over core's case matrix and run-to-run diff, on the fixture runs.
#include "SkippedChecks.h"
#include "compare/CaseChangesModel.h"
#include "compare/CaseMatrixModel.h"
#include "eval/RunAnalysis.h"

#include <QAbstractItemModelTester>
#include <QStandardPaths>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

std::shared_ptr<const RunAnalysis> fixtureRun(const QString &name)
{
    auto analysis = analyzeRun(QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/runs/") + name);
    if (!std::holds_alternative<RunAnalysis>(analysis))
        return nullptr;
    return std::make_shared<const RunAnalysis>(std::get<RunAnalysis>(std::move(analysis)));
}

QStringList casesShown(const QAbstractItemModel &model)
{
    QStringList cases;
    for (int row = 0; row < model.rowCount(); ++row)
        cases.append(model.index(row, CaseMatrixModel::CaseNameColumn).data().toString());
    return cases;
}

} // namespace

class TestCaseMatrixModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void matrixModel_passesTheModelTester_andHasACellPerCaseModelAndArm()
    {
        const auto run = fixtureRun(u"skill-v1"_s);
        QVERIFY(run);
        CaseMatrixModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setAnalysis(run);
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.columnCount(), CaseMatrixModel::FirstCellColumn + 4); // 2 models x 2 arms
        QCOMPARE(model.headerData(CaseMatrixModel::FirstCellColumn, Qt::Horizontal).toString(),
                 u"anthropic:claude-haiku-4-5\nwithout skill"_s);
        model.setAnalysis(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }

    void cells_showPassesOverJudgedRepeats_andNameErrors()
    {
        const auto run = fixtureRun(u"skill-v1"_s);
        CaseMatrixModel model;
        model.setAnalysis(run);
        const int layernorm = run->matrix.rowOf(u"layernorm-fused"_s);
        const int claudeBaseline = run->matrix.columnOf(u"anthropic:claude-haiku-4-5"_s, kBaselineArm);
        const int claudeSkill = run->matrix.columnOf(u"anthropic:claude-haiku-4-5"_s, kWithSkillArm);
        const QModelIndex errorCell = model.index(layernorm, CaseMatrixModel::FirstCellColumn + claudeBaseline);
        QCOMPARE(errorCell.data().toString(), u"0/1 (1 error)"_s);
        QVERIFY(errorCell.data(Qt::ToolTipRole).toString().contains(u"error"_s));
        QVERIFY(errorCell.data(Qt::FontRole).value<QFont>().bold());
        const QModelIndex passCell = model.index(layernorm, CaseMatrixModel::FirstCellColumn + claudeSkill);
        QCOMPARE(passCell.data().toString(), u"2/2"_s);
        QCOMPARE(passCell.data(CaseMatrixModel::SortRole).toDouble(), 1.0);
        QCOMPARE(model.cellAt(passCell), &run->matrix.rows[layernorm].cells[claudeSkill]);
        // Passing and failing cells are coloured differently.
        QVERIFY(passCell.data(Qt::BackgroundRole).value<QBrush>().color() !=
                errorCell.data(Qt::BackgroundRole).value<QBrush>().color());
        QVERIFY(model.index(layernorm, 0).data(CaseMatrixModel::ErrorRole).toBool());
    }

    void flipsColumn_comesFromTheSummary()
    {
        const auto run = fixtureRun(u"skill-v1"_s);
        CaseMatrixModel model;
        model.setAnalysis(run);
        for (int row = 0; row < model.rowCount(); ++row) {
            const CaseRow &caseRow = run->matrix.rows[row];
            QCOMPARE(model.index(row, CaseMatrixModel::FlipsColumn).data(CaseMatrixModel::SortRole).toInt(),
                     caseRow.flipsToPass + caseRow.flipsToFail);
            QCOMPARE(model.index(row, 0).data(CaseMatrixModel::FlippedRole).toBool(), caseRow.flipped());
        }
    }

    void filter_showsFailuresFlippedErrorsOrHeldOut()
    {
        const auto run = fixtureRun(u"skill-v1"_s);
        CaseMatrixModel model;
        CaseMatrixFilter filter;
        filter.setSourceModel(&model);
        QAbstractItemModelTester tester(&filter, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setAnalysis(run);
        QCOMPARE(filter.rowCount(), 5);
        filter.setShow(CaseMatrixFilter::Show::Flipped);
        QCOMPARE(casesShown(filter),
                 (QStringList{u"rmsnorm-basic"_s, u"rmsnorm-bf16"_s, u"layernorm-fused"_s, u"geglu-heldout"_s}));
        filter.setShow(CaseMatrixFilter::Show::Errors);
        QCOMPARE(casesShown(filter), QStringList{u"layernorm-fused"_s});
        filter.setShow(CaseMatrixFilter::Show::HeldOut);
        QCOMPARE(casesShown(filter), (QStringList{u"geglu-heldout"_s, u"softmax-heldout"_s}));
        filter.setShow(CaseMatrixFilter::Show::Failures);
        QCOMPARE(filter.rowCount(), 5); // every fixture case fails somewhere
        filter.setShow(CaseMatrixFilter::Show::All);
        filter.setSplits({u"train"_s});
        QCOMPARE(filter.rowCount(), 3);
    }

    void csv_hasAHeaderAndOneLinePerRow_withQuotedFields()
    {
        const auto run = fixtureRun(u"skill-v1"_s);
        CaseMatrixModel model;
        model.setAnalysis(run);
        const QStringList lines = tableToCsv(model).split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 6);
        QVERIFY(lines[0].startsWith(u"Case,Split,Flips,anthropic:claude-haiku-4-5 without skill,"_s));
        QVERIFY(lines[1].startsWith(u"rmsnorm-basic,train,+3 / −0,0/2,2/2,"_s));
    }

    void changesModel_listsCoreDiff_largestChangeFirst()
    {
        const auto before = fixtureRun(u"skill-v1"_s);
        const auto after = fixtureRun(u"skill-v2"_s);
        const QList<CaseChange> changes = diffCaseMatrices(before->matrix, after->matrix);
        QVERIFY(!changes.isEmpty());
        CaseChangesModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setChanges(changes, before->label(), after->label());
        QCOMPARE(model.rowCount(), changes.size());
        QCOMPARE(model.columnCount(), int(CaseChangesModel::ColumnCount));
        for (int row = 0; row < model.rowCount(); ++row) {
            QCOMPARE(model.index(row, CaseChangesModel::CaseColumn).data().toString(), changes[row].caseId);
            QCOMPARE(model.index(row, CaseChangesModel::ChangeColumn).data(CaseChangesModel::SortRole).toDouble(),
                     changes[row].delta());
        }
        QVERIFY(model.headerData(CaseChangesModel::BeforeColumn, Qt::Horizontal).toString().contains(u"v1"_s));
        const QString first = model.index(0, CaseChangesModel::ChangeColumn).data().toString();
        QVERIFY2(first == u"+100 pp"_s || first == u"-100 pp"_s, qPrintable(first));
        model.setChanges({}, {}, {});
        QCOMPARE(model.rowCount(), 0);
    }
};

SF_TEST_MAIN(TestCaseMatrixModel)
#include "test_case_matrix_model.moc"
