// The Compare view as a user drives it, on a project holding the two fixture runs.
#include "SkippedChecks.h"
#include "TestFiles.h"
#include "charts/ChartLegend.h"
#include "charts/ChartOverlay.h"
#include "charts/ChartPanel.h"
#include "charts/ChartStyle.h"
#include "charts/ComparisonCharts.h"
#include "common/EmptyState.h"
#include "common/StatusMessages.h"
#include "compare/CaseChangesModel.h"
#include "compare/CaseDetailDialog.h"
#include "compare/CaseMatrixModel.h"
#include "compare/CompareView.h"
#include "compare/RunSelectionBar.h"
#include "compare/TwoPassRatesModel.h"
#include "compare/TwoPassRatesPanel.h"
#include "compare/VerdictsPanel.h"
#include "eval/Contamination.h"
#include "eval/LiftAcrossRuns.h"
#include "eval/SkillCreatorWorkspace.h"
#include "eval/SuiteHealth.h"
#include "project/AppSettings.h"
#include "project/Project.h"
#include "report/ExportReportDialog.h"
#include "skill/DiffView.h"

#include <QAbstractItemModelTester>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QPushButton>
#include <QRegularExpression>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QValueAxis>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

const QString kFixtures = QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/runs/");

QBarSeries *barsOf(charts::ChartPanel *panel)
{
    for (QAbstractSeries *series : panel->chart()->series()) {
        if (auto *bars = qobject_cast<QBarSeries *>(series))
            return bars;
    }
    return nullptr;
}

QStringList categoriesOf(charts::ChartPanel *panel)
{
    for (QAbstractAxis *axis : panel->chart()->axes(Qt::Horizontal)) {
        if (auto *categories = qobject_cast<QBarCategoryAxis *>(axis))
            return categories->categories();
    }
    return {};
}

QStringList casesShown(const QAbstractItemModel &model)
{
    QStringList cases;
    for (int row = 0; row < model.rowCount(); ++row)
        cases.append(model.index(row, CaseMatrixModel::CaseNameColumn).data().toString());
    return cases;
}

/// Core's number for @p metric in the chart's display unit (percent, tokens, US$, seconds).
std::optional<std::array<double, 3>> expected(const ArmSummary &arm, charts::Metric metric)
{
    switch (metric) {
    case charts::Metric::PassRate:
        return std::array{arm.passRate.rate * 100, arm.passRate.ci.low * 100, arm.passRate.ci.high * 100};
    case charts::Metric::Tokens: return std::array{arm.tokens.mean, arm.tokens.meanCi.low, arm.tokens.meanCi.high};
    case charts::Metric::Cost:
        if (!arm.costUsd)
            return std::nullopt;
        return std::array{arm.costUsd->mean, arm.costUsd->meanCi.low, arm.costUsd->meanCi.high};
    case charts::Metric::Latency:
        return std::array{arm.latencyMs.mean / 1000, arm.latencyMs.meanCi.low / 1000, arm.latencyMs.meanCi.high / 1000};
    }
    return std::nullopt;
}

} // namespace

class TestCompareView : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::optional<Project> m_project;
    QString m_v1;
    QString m_v2;

    /// A view on the fixture project, showing @p run (default: the newest) once it has been read.
    std::unique_ptr<CompareView> openView(const QString &run = {}, const QString &comparedWith = {})
    {
        auto view = std::make_unique<CompareView>();
        QSignalSpy shown(view.get(), &CompareView::runsShown);
        view->setProject(&*m_project);
        if (!run.isEmpty())
            view->showRuns(run, comparedWith);
        [&] { QTRY_VERIFY_WITH_TIMEOUT(!view->isBusy() && shown.count() > 0, 10000); }();
        return view;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        m_v1 = m_dir.filePath(u"runs/skill-v1"_s);
        m_v2 = m_dir.filePath(u"runs/skill-v2"_s);
        QVERIFY(test::copyTree(kFixtures + u"skill-v1"_s, m_v1));
        QVERIFY(test::copyTree(kFixtures + u"skill-v2"_s, m_v2));
        auto project = Project::open(m_dir.path());
        QVERIFY(std::holds_alternative<Project>(project));
        m_project = std::get<Project>(std::move(project));
    }

    void projectWithoutRuns_keepsTheExplanation()
    {
        QTemporaryDir empty;
        auto project = Project::open(empty.path());
        QVERIFY(std::holds_alternative<Project>(project));
        CompareView view;
        view.setProject(&std::get<Project>(project));
        auto *state = view.findChild<EmptyState *>();
        QVERIFY(state->isVisibleTo(&view));
        QCOMPARE(state->title(), u"Nothing to compare yet"_s);
        QVERIFY(!view.shownRun());
    }

    void opening_showsTheNewestRun_withFlippedCasesFirst()
    {
        auto view = openView();
        QVERIFY(view->shownRun());
        QCOMPARE(QFileInfo(view->shownRun()->dir).fileName(), u"skill-v2"_s);
        QVERIFY(!view->comparedRun());
        QVERIFY(!view->changesShown());
        QAbstractItemModelTester tester(view->matrixFilter(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        const QAbstractItemModel &shown = *view->matrixView()->model();
        QCOMPARE(shown.rowCount(), 5);
        // Every flipped case comes before every case that did not flip.
        bool seenUnflipped = false;
        int flipped = 0;
        for (int row = 0; row < shown.rowCount(); ++row) {
            const bool isFlipped = shown.index(row, 0).data(CaseMatrixModel::FlippedRole).toBool();
            QVERIFY2(!(isFlipped && seenUnflipped), "a flipped case after an unflipped one");
            seenUnflipped = seenUnflipped || !isFlipped;
            flipped += isFlipped ? 1 : 0;
        }
        QVERIFY(flipped > 0 && flipped < 5);
        QCOMPARE(shown.index(0, 0).data().toString(), u"rmsnorm-basic"_s); // 4 flips, first in run order
    }

    void filters_failuresFlippedErrorsHeldOut()
    {
        auto view = openView(m_v1);
        QCOMPARE(QFileInfo(view->shownRun()->dir).fileName(), u"skill-v1"_s);
        QComboBox *filter = view->filterCombo();
        const QAbstractItemModel &shown = *view->matrixView()->model();
        filter->setCurrentIndex(filter->findText(u"Errors"_s));
        QCOMPARE(casesShown(shown), QStringList{u"layernorm-fused"_s});
        filter->setCurrentIndex(filter->findText(u"Held-out"_s));
        QCOMPARE(casesShown(shown), (QStringList{u"geglu-heldout"_s, u"softmax-heldout"_s}));
        filter->setCurrentIndex(filter->findText(u"Flipped"_s));
        QCOMPARE(shown.rowCount(), 4);
        QVERIFY(!casesShown(shown).contains(u"softmax-heldout"_s));
        filter->setCurrentIndex(filter->findText(u"Failures"_s));
        QCOMPARE(shown.rowCount(), 5);
        filter->setCurrentIndex(filter->findText(u"All cases"_s));
        view->setSplit(CompareView::Split::HeldOut);
        QCOMPARE(casesShown(shown), (QStringList{u"geglu-heldout"_s, u"softmax-heldout"_s}));
    }

    void sorting_byCaseOrByACell()
    {
        auto view = openView(m_v1);
        view->matrixView()->sortByColumn(CaseMatrixModel::CaseNameColumn, Qt::AscendingOrder);
        const QAbstractItemModel &shown = *view->matrixView()->model();
        QStringList cases = casesShown(shown);
        QStringList sorted = cases;
        sorted.sort();
        QCOMPARE(cases, sorted);
        // By the gemma with-skill cell, best first: both repeats of rmsnorm-bf16 passed there.
        const int column = CaseMatrixModel::FirstCellColumn +
                           view->shownRun()->matrix.columnOf(u"local:gemma-3-270m"_s, kWithSkillArm);
        view->matrixView()->sortByColumn(column, Qt::DescendingOrder);
        QCOMPARE(shown.index(0, 0).data().toString(), u"rmsnorm-bf16"_s);
        QCOMPARE(shown.index(0, column).data().toString(), u"2/2"_s);
    }

    void clickingACell_opensBothTranscripts_withTheAnswersDiffed()
    {
        auto view = openView(m_v1);
        view->resize(1300, 900);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        QTableView *table = view->matrixView();
        const QAbstractItemModel &shown = *table->model();
        const int column = CaseMatrixModel::FirstCellColumn +
                           view->shownRun()->matrix.columnOf(u"anthropic:claude-haiku-4-5"_s, kWithSkillArm);
        const int row = int(casesShown(shown).indexOf(u"rmsnorm-basic"_s));
        const QModelIndex index = shown.index(row, column);
        table->scrollTo(index);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(index).center());
        CaseDetailDialog *detail = view->detailDialog();
        QTRY_VERIFY(detail->isVisible());
        QCOMPARE(detail->repeat(), 1);
        QVERIFY2(detail->baselineText().startsWith(u"FAILED"_s), qPrintable(detail->baselineText()));
        QVERIFY(detail->baselineText().contains(u"torch.nn.functional.rms_norm"_s)); // its transcript
        QVERIFY(detail->baselineText().contains(u"not in the answer"_s));            // a verifier's evidence
        QVERIFY(detail->withSkillText().startsWith(u"PASSED"_s));
        QVERIFY(detail->withSkillText().contains(u"__global__ void rmsnorm"_s));
        QVERIFY(detail->answerDiff()->addedLines() > 0);
        QVERIFY(detail->answerDiff()->removedLines() > 0);
        detail->close();

        // A click on the case's name opens it as well, on the first model.
        const QModelIndex name = shown.index(row, CaseMatrixModel::CaseNameColumn);
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(name).center());
        QTRY_VERIFY(detail->isVisible());
        QVERIFY(detail->withSkillText().startsWith(u"PASSED"_s));
        detail->close();
    }

    void barChart_valuesAndWhiskers_equalCoreStatistics_forEveryMetricAndSplit()
    {
        auto view = openView(m_v1);
        const RunSummary &summary = view->shownRun()->summary;
        int zeroBars = 0;
        using charts::Metric;
        for (const auto split : {CompareView::Split::All, CompareView::Split::Apart}) {
            view->setSplit(split);
            const QStringList splits = split == CompareView::Split::All ? QStringList{u"all"_s}
                                                                        : QStringList{u"train"_s, u"heldout"_s};
            for (const Metric metric : {Metric::PassRate, Metric::Tokens, Metric::Cost, Metric::Latency}) {
                view->setMetric(metric);
                QBarSeries *bars = barsOf(view->barChart());
                QVERIFY(bars);
                // Each bar prints its value, so a bar of height zero still reads "0" (issue 24.17).
                QVERIFY(bars->isLabelsVisible());
                const QStringList categories = categoriesOf(view->barChart());
                QCOMPARE(categories.size(), 2 * splits.size());
                QCOMPARE(bars->count(), 2);
                const QList<charts::ChartOverlay::Whisker> whiskers =
                    charts::overlayOf(view->barChart()->chart())->whiskers();
                int checked = 0;
                for (int s = 0; s < 2; ++s) {
                    const QString arm = s == 0 ? kBaselineArm : kWithSkillArm;
                    for (int c = 0; c < categories.size(); ++c) {
                        const QString model = c / splits.size() == 0 ? u"anthropic:claude-haiku-4-5"_s
                                                                      : u"local:gemma-3-270m"_s;
                        const ArmSummary *armSummary = summary.arm(model, arm, splits[c % splits.size()]);
                        QVERIFY(armSummary);
                        const auto numbers = expected(*armSummary, metric);
                        QVERIFY(numbers);
                        QCOMPARE(bars->barSets()[s]->at(c), (*numbers)[0]);
                        const double x = charts::barCentre(c, s, 2, bars->barWidth());
                        auto whisker = std::find_if(whiskers.begin(), whiskers.end(),
                                                    [&](const auto &w) { return qFuzzyCompare(w.x + 10, x + 10); });
                        QVERIFY(whisker != whiskers.end());
                        QCOMPARE(whisker->low, (*numbers)[1]);
                        if ((*numbers)[0] == 0) {
                            const auto labels = charts::overlayOf(view->barChart()->chart())->labels();
                            QVERIFY(std::any_of(labels.begin(), labels.end(), [&](const auto &l) {
                                return l.text == u"0"_s && qFuzzyCompare(l.at.x() + 10, x + 10) && l.at.y() == 0;
                            }));
                            ++zeroBars;
                        }
                        QCOMPARE(whisker->high, (*numbers)[2]);
                        ++checked;
                    }
                }
                QCOMPARE(checked, 4 * splits.size());
            }
        }
        QVERIFY(zeroBars > 0); // the fixture has a model and arm that passes nothing
    }

    // Issue 46: a run recorded before requests were priced one by one (usage, no cost) opens with its costs worked
    // out from what it recorded, and the cost chart says so.
    void runRecordedWithoutCosts_costChartFilled_andMarkedPricedAfterwards()
    {
        QTemporaryDir dir;
        const QString old = dir.filePath(u"runs/old-run"_s);
        QVERIFY(test::copyTree(kFixtures + u"skill-v1"_s, old));
        QFile results(old + u"/results.jsonl"_s);
        QVERIFY(results.open(QIODevice::ReadOnly));
        const QByteArray text = results.readAll();
        results.close();
        QString stripped = QString::fromUtf8(text);
        stripped.replace(QRegularExpression(u"\"cost_usd\":[0-9.e-]+"_s), u"\"cost_usd\":null"_s);
        QVERIFY(!stripped.contains(QRegularExpression(u"\"cost_usd\":[0-9]"_s)));
        QVERIFY(results.open(QIODevice::WriteOnly | QIODevice::Truncate));
        results.write(stripped.toUtf8());
        results.close();
        auto project = Project::open(dir.path());
        QVERIFY(std::holds_alternative<Project>(project));
        CompareView view;
        QSignalSpy shown(&view, &CompareView::runsShown);
        view.setProject(&std::get<Project>(project));
        view.showRuns(old);
        QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy() && shown.count() > 0, 10000);
        view.setMetric(charts::Metric::Cost);
        const ArmSummary *haiku = view.shownRun()->summary.arm(u"anthropic:claude-haiku-4-5"_s, kWithSkillArm);
        QVERIFY(haiku && haiku->costUsd);
        QVERIFY(haiku->costUsd->mean > 0);
        QCOMPARE(haiku->pricedAfterwards, haiku->passRate.trials);
        QBarSeries *bars = barsOf(view.barChart());
        QVERIFY(bars);
        QCOMPARE(bars->barSets()[1]->at(0), haiku->costUsd->mean);
    }

    void liftChartAndTable_showCoreLiftAndPValue()
    {
        auto view = openView(m_v1);
        const RunSummary &summary = view->shownRun()->summary;
        QBarSeries *bars = barsOf(view->liftChart());
        QVERIFY(bars);
        QCOMPARE(bars->count(), 1);
        const QStringList models{u"anthropic:claude-haiku-4-5"_s, u"local:gemma-3-270m"_s};
        const QList<charts::ChartOverlay::Label> labels = charts::overlayOf(view->liftChart()->chart())->labels();
        QCOMPARE(labels.size(), 2);
        for (int c = 0; c < models.size(); ++c) {
            const ArmComparison *comparison = summary.comparison(models[c]);
            QVERIFY(comparison);
            QCOMPARE(bars->barSets()[0]->at(c), comparison->lift * 100);
            QCOMPARE(labels[c].text, u"%1 · p=%2"_s.arg(QString::asprintf("%+.0f", comparison->lift * 100),
                                                        QString::number(comparison->pValue, 'g', 2)));
        }
        QTableWidget *table = view->liftTable();
        // Each model over all cases, and over the held-out cases that decide its verdict.
        QCOMPARE(table->rowCount(), 4);
        QCOMPARE(table->findItems(u"all"_s, Qt::MatchExactly).size(), 2);
        QCOMPARE(table->findItems(u"held-out"_s, Qt::MatchExactly).size(), 2);
        const ArmComparison *claude = summary.comparison(models[0]);
        QCOMPARE(table->item(0, 1)->text(), models[0]);
        QCOMPARE(table->item(0, 2)->text(), u"all"_s);
        QCOMPARE(table->item(0, 4)->text(), QString::number(claude->table.pairs()));
        QCOMPARE(table->item(0, 5)->text(), QString::number(claude->pValue, 'g', 3));
        QCOMPARE(table->item(0, 6)->text(), QString::number(claude->table.onlySecond));

        // The scatter: a point per model and arm at core's pass rate and mean tokens, an arrow per model.
        QList<QScatterSeries *> points;
        for (QAbstractSeries *series : view->scatterChart()->chart()->series())
            points.append(qobject_cast<QScatterSeries *>(series));
        QCOMPARE(points.size(), 2);
        const ArmSummary *gemmaSkill = summary.arm(models[1], kWithSkillArm);
        QCOMPARE(points[1]->at(1), QPointF(gemmaSkill->tokens.mean, gemmaSkill->passRate.rate * 100));
        QCOMPARE(charts::overlayOf(view->scatterChart()->chart())->arrows().size(), 2);
    }

    void importedSkillCreatorRun_showsBothPassRates_namedSideBySide()
    {
        // A project whose one run is an imported skill-creator workspace: no baseline item meets every statement.
        QTemporaryDir dir;
        auto imported = importSkillCreatorWorkspace(
            QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/skill-creator/pdf-forms-workspace"),
            dir.filePath(u"runs"_s));
        QVERIFY(std::holds_alternative<RunStore>(imported));
        auto project = Project::open(dir.path());
        QVERIFY(std::holds_alternative<Project>(project));
        CompareView view;
        QSignalSpy shown(&view, &CompareView::runsShown);
        view.setProject(&std::get<Project>(project));
        QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy() && shown.count() > 0, 10000);

        TwoPassRatesPanel *panel = view.twoPassRates();
        QVERIFY(!panel->isHidden());
        TwoPassRatesModel *model = panel->model();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model->rowCount(), 2);
        QCOMPARE(model->headerData(TwoPassRatesModel::CasePassRateColumn, Qt::Horizontal).toString(),
                 u"Case pass rate (Skillforge's)"_s);
        QCOMPARE(model->headerData(TwoPassRatesModel::StatementPassRateColumn, Qt::Horizontal).toString(),
                 u"Statement pass rate (skill-creator's)"_s);
        int baselineRow = -1;
        for (int row = 0; row < model->rowCount(); ++row) {
            if (model->index(row, TwoPassRatesModel::ArmColumn).data().toString() == armLabel(kBaselineArm))
                baselineRow = row;
        }
        QVERIFY(baselineRow >= 0);
        const auto cell = [&](int column, int role = Qt::DisplayRole) {
            return model->index(baselineRow, column).data(role);
        };
        QCOMPARE(cell(TwoPassRatesModel::ModelColumn).toString(), u"skill-creator:claude-sonnet-4-5"_s);
        QVERIFY(cell(TwoPassRatesModel::CasePassRateColumn).toString().startsWith(u"0 of 6 items"_s));
        QCOMPARE(cell(TwoPassRatesModel::CasePassRateColumn, TwoPassRatesModel::RateRole).toDouble(), 0.0);
        QCOMPARE(cell(TwoPassRatesModel::StatementPassRateColumn, TwoPassRatesModel::RateRole).toDouble(), 4.4 / 6);
        QCOMPARE(cell(TwoPassRatesModel::StatementsColumn).toString(), u"28 of 38"_s);
        QCOMPARE(cell(TwoPassRatesModel::BenchmarkColumn, TwoPassRatesModel::RateRole).toDouble(), 0.7333);
        QVERIFY(cell(TwoPassRatesModel::BenchmarkColumn).toString().endsWith(u"(the same)"_s));
        // One run: no run column; no held-out cases: no split column; benchmark.json read: its column shown.
        QVERIFY(panel->view()->isColumnHidden(TwoPassRatesModel::RunColumn));
        QVERIFY(panel->view()->isColumnHidden(TwoPassRatesModel::SplitColumn));
        QVERIFY(!panel->view()->isColumnHidden(TwoPassRatesModel::BenchmarkColumn));
        const QList<QLabel *> labels = view.findChildren<QLabel *>();
        QVERIFY(std::any_of(labels.begin(), labels.end(), [](const QLabel *label) {
            return label->text().contains(u"graded by statements: two pass rates under Verdicts and lift"_s);
        }));

        // A run of Skillforge's own verifiers has no statements: the panel is hidden.
        auto fixtureView = openView(m_v1);
        QVERIFY(fixtureView->twoPassRates()->isHidden());
        QCOMPARE(fixtureView->twoPassRates()->model()->rowCount(), 0);
    }

    void verdicts_perModel_withTheThresholdsShown_andFollowingThem()
    {
        auto view = openView(m_v1);
        const RunSummary &summary = view->shownRun()->summary;
        const QList<Verdict> verdicts = decideVerdicts(summary, view->verdictThresholds());
        QCOMPARE(verdicts.size(), 2);
        const QString text = view->verdictLabel()->text();
        for (const Verdict &v : verdicts)
            QVERIFY2(text.contains(v.reason().toHtmlEscaped()), qPrintable(text));
        QVERIFY2(text.contains(view->verdictThresholds().describe().toHtmlEscaped()), qPrintable(text));
        // The lift table's verdict column says the same, on the row of the cases that decided it.
        QTableWidget *table = view->liftTable();
        QCOMPARE(table->horizontalHeaderItem(9)->text(), u"Verdict"_s);
        for (int row = 0; row < table->rowCount(); ++row) {
            for (const Verdict &v : verdicts) {
                if (table->item(row, 1)->text() == v.model && table->item(row, 2)->text() == charts::splitName(v.split))
                    QCOMPARE(table->item(row, 9)->text(), v.word());
            }
        }
        // Other thresholds, other verdicts: a minimum of a thousand pairs leaves every model undecided.
        view->setVerdictThresholds({0.0, 1000});
        for (const Verdict &v : decideVerdicts(summary, {0.0, 1000}))
            QCOMPARE(v.kind, Verdict::Kind::CantTell);
        QVERIFY(view->verdictLabel()->text().contains(u"under 1000 paired cases"_s));
        QCOMPARE(view->minPairsSpin()->value(), 1000);
        // The spin boxes are the settings: a change there re-decides and is stored for reports and eval.
        view->minPairsSpin()->setValue(2);
        view->minLiftSpin()->setValue(5);
        QCOMPARE(view->verdictThresholds().minPairs, 2);
        QCOMPARE(view->verdictThresholds().minLift, 0.05);
        QCOMPARE(AppSettings().verdictThresholds().minPairs, 2);
        QVERIFY(view->verdictLabel()->text().contains(u"under 2 paired cases"_s));
        AppSettings().setVerdictThresholds({});
        QVERIFY(view->verdictLabel()->text().contains(u"can&#x27;t tell yet"_s) ||
                view->verdictLabel()->text().contains(u"can't tell yet"_s));
    }

    void scatterAgainstCost_putsEachModelAndArmAtCoresPassRateAndMeanCost()
    {
        auto view = openView(m_v1);
        const RunSummary &summary = view->shownRun()->summary;
        view->setScatterAxis(charts::Metric::Cost);
        QCOMPARE(view->scatterChart()->chart()->title(), u"Pass rate against cost"_s);
        QList<QScatterSeries *> points;
        for (QAbstractSeries *series : view->scatterChart()->chart()->series())
            points.append(qobject_cast<QScatterSeries *>(series));
        QCOMPARE(points.size(), 2);
        const QStringList models{u"anthropic:claude-haiku-4-5"_s, u"local:gemma-3-270m"_s};
        for (int m = 0; m < models.size(); ++m) {
            for (int armIndex = 0; armIndex < 2; ++armIndex) {
                const ArmSummary *a = summary.arm(models[m], armIndex ? kWithSkillArm : kBaselineArm);
                QVERIFY(a && a->costUsd);
                QCOMPARE(points[armIndex]->at(m), QPointF(a->costUsd->mean, a->passRate.rate * 100));
            }
        }
        view->setScatterAxis(charts::Metric::Tokens);
        QCOMPARE(view->scatterChart()->chart()->title(), u"Pass rate against tokens"_s);
    }

    void suiteHealth_listsCoresFindings_forTheShownRun()
    {
        auto view = openView(m_v1);
        QList<SuiteHealthFinding> findings = suiteHealthFindings(diagnoseSuite(*view->shownRun()));
        QVERIFY(!findings.isEmpty());
        // Then the contamination check's summary (the fixture's baseline holds no skill text).
        const ContaminationReport contamination = checkContamination(*view->shownRun());
        QVERIFY(contamination.leaks.isEmpty());
        findings.append({u"contamination check"_s, QString(), u"both arms"_s, contamination.summary()});
        QTableWidget *table = view->healthTable();
        QCOMPARE(table->rowCount(), findings.size());
        QStringList shown;
        for (int row = 0; row < table->rowCount(); ++row)
            shown.append(table->item(row, 1)->text() + u'|' + table->item(row, 3)->text());
        for (const SuiteHealthFinding &f : findings)
            QVERIFY2(shown.contains(f.caseId + u'|' + f.detail), qPrintable(f.detail));
        auto *tabs = view->findChild<QTabWidget *>();
        QVERIFY(tabs);
        QCOMPARE(tabs->tabText(tabs->indexOf(table)), u"Suite health (%1)"_s.arg(findings.size()));
    }

    void acrossRuns_matrixOfLiftPerModelAndRun_andATrendLinePerModel()
    {
        auto view = openView(m_v2);
        QCOMPARE(view->acrossRunList()->count(), 2);
        view->setAcrossRuns({m_v1, m_v2});
        QTRY_COMPARE_WITH_TIMEOUT(view->acrossTable()->columnCount(), 2, 10000);
        // Oldest first: v1, then v2; each cell is core's lift, interval and verdict for that run.
        auto loaded1 = analyzeRun(m_v1);
        auto loaded2 = analyzeRun(m_v2);
        const RunAnalysis &first = std::get<RunAnalysis>(loaded1);
        const RunAnalysis &second = std::get<RunAnalysis>(loaded2);
        const LiftAcrossRuns across = liftAcrossRuns({&second, &first}, view->verdictThresholds());
        QCOMPARE(view->acrossTable()->rowCount(), across.models.size());
        QCOMPARE(view->acrossTable()->horizontalHeaderItem(0)->text(), across.runs[0]->label());
        int heldOutCells = 0;
        for (int m = 0; m < across.models.size(); ++m) {
            QCOMPARE(view->acrossTable()->verticalHeaderItem(m)->text(), across.models[m]);
            for (int r = 0; r < across.runs.size(); ++r) {
                const auto &cell = across.cells[m][r];
                QVERIFY(cell);
                const QString text = view->acrossTable()->item(m, r)->text();
                QVERIFY2(text.contains(u"· "_s + cell->word()), qPrintable(text));
                // A cell decided on the held-out cases says so: its lift can differ from the all-cases lift.
                QVERIFY2(text.endsWith(u" (held-out cases)"_s) == (cell->split == u"heldout"), qPrintable(text));
                heldOutCells += cell->split == u"heldout" ? 1 : 0;
                QVERIFY2(text.startsWith(QLocale().toString(cell->lift * 100, 'f', 1)) ||
                             text.startsWith(u'+' + QLocale().toString(cell->lift * 100, 'f', 1)),
                         qPrintable(text));
            }
        }
        QVERIFY(heldOutCells > 0); // the fixtures' verdicts are decided on held-out cases
        // The trend: one line per model through each run's lift.
        QList<QLineSeries *> lines;
        for (QAbstractSeries *series : view->trendChart()->chart()->series())
            lines.append(qobject_cast<QLineSeries *>(series));
        QCOMPARE(lines.size(), across.models.size());
        for (int m = 0; m < lines.size(); ++m) {
            QVERIFY(lines[m]);
            QCOMPARE(lines[m]->count(), 2);
            QCOMPARE(lines[m]->at(1), QPointF(1, across.cells[m][1]->lift * 100));
        }
    }

    // A run still being written is read again when the view is shown again: its new results are counted.
    void runStillBeingWritten_shownAgain_isReadAgain_withItsNewResults()
    {
        QTemporaryDir folder;
        const QString live = folder.filePath(u"runs/live"_s);
        QVERIFY(test::copyTree(kFixtures + u"skill-v1"_s, live));
        QFile manifestFile(live + u"/run.json"_s);
        QVERIFY(manifestFile.open(QIODevice::ReadOnly));
        QJsonObject manifest = QJsonDocument::fromJson(manifestFile.readAll()).object();
        manifestFile.close();
        manifest.insert(u"status"_s, u"running"_s);
        manifest.remove(u"finished_at"_s);
        QVERIFY(manifestFile.open(QIODevice::WriteOnly | QIODevice::Truncate));
        manifestFile.write(QJsonDocument(manifest).toJson());
        manifestFile.close();
        // The first half of the results written so far; the second half comes while the view is hidden.
        QFile resultsFile(live + u"/results.jsonl"_s);
        QVERIFY(resultsFile.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = resultsFile.readAll().split('\n');
        resultsFile.close();
        QList<QByteArray> results;
        for (const QByteArray &line : lines)
            if (!line.trimmed().isEmpty())
                results.append(line);
        QCOMPARE(results.size(), 40);
        const auto writeResults = [&resultsFile, &results](qsizetype from, qsizetype to, QIODevice::OpenMode mode) {
            QVERIFY(resultsFile.open(mode));
            for (qsizetype i = from; i < to; ++i)
                resultsFile.write(results[i] + '\n');
            resultsFile.close();
        };
        writeResults(0, 20, QIODevice::WriteOnly | QIODevice::Truncate);
        auto project = Project::open(folder.path());
        QVERIFY(std::holds_alternative<Project>(project));
        const auto judged = [](const RunAnalysis &run) {
            int items = 0;
            for (const ArmSummary &arm : run.summary.arms)
                items += arm.split == u"all" ? arm.items : 0;
            return items;
        };

        CompareView view;
        view.setProject(&std::get<Project>(project));
        view.show();
        QTRY_VERIFY_WITH_TIMEOUT(!view.isBusy() && view.shownRun(), 10000);
        QCOMPARE(view.shownRun()->manifest.status, u"running"_s);
        QCOMPARE(view.shownRun()->results.size(), 20);
        QCOMPARE(judged(*view.shownRun()), 20);

        view.hide();
        writeResults(20, 40, QIODevice::WriteOnly | QIODevice::Append);
        view.show();
        QTRY_COMPARE_WITH_TIMEOUT(view.shownRun()->results.size(), 40, 10000);
        QCOMPARE(judged(*view.shownRun()), 40);
    }

    void comparingTwoRuns_showsBothInTheCharts_andTheChangesTable()
    {
        auto view = openView(m_v2, m_v1);
        QVERIFY(view->comparedRun());
        QVERIFY(view->changesShown());
        const QList<CaseChange> changes = diffCaseMatrices(view->comparedRun()->matrix, view->shownRun()->matrix);
        QAbstractItemModelTester tester(view->changesModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(view->changesModel()->rowCount(), changes.size());
        QCOMPARE(view->changesModel()->changes().first().caseId, changes.first().caseId);
        QBarSeries *bars = barsOf(view->barChart());
        QCOMPARE(bars->count(), 4);
        // Each set by run and arm; the runs by what tells them apart (their skill's version and start).
        QCOMPARE(bars->barSets()[0]->label(), u"v2 — without skill"_s);
        QCOMPARE(bars->barSets()[2]->label(), u"v1 — without skill"_s);
        QCOMPARE(bars->barSets()[2]->at(0),
                 view->comparedRun()->summary.arm(u"anthropic:claude-haiku-4-5"_s, kBaselineArm)->passRate.rate * 100);
        QCOMPARE(barsOf(view->liftChart())->count(), 2);
        QCOMPARE(view->liftTable()->rowCount(), 8); // two runs, two models, all cases and the deciding held-out ones

        view->showRuns(m_v2);
        QTRY_VERIFY(!view->changesShown());
    }

    void runs_areNamedByWhatTellsThemApart_theIdOnlyInTooltips()
    {
        auto view = openView(m_v2, m_v1);
        QComboBox *runs = view->selectionBar()->runCombo();
        QCOMPARE(runs->count(), 2);
        QCOMPARE(runs->itemText(0), u"diffusers-cuda-rmsnorm v2 (2026-11-22 10:00)"_s);
        QCOMPARE(runs->itemText(1), u"diffusers-cuda-rmsnorm v1 (2026-11-21 10:00)"_s);
        for (int i = 0; i < runs->count(); ++i) {
            QVERIFY(!runs->itemText(i).contains(u"2026112"_s)); // no run id ("20261121T100001Z-000001")
            QVERIFY(runs->itemData(i, Qt::ToolTipRole).toString().contains(u"Run 2026112"_s));
        }
        QCOMPARE(view->shownRunNames(), (QStringList{runs->itemText(0), runs->itemText(1)}));
        QCOMPARE(view->liftTable()->item(0, VerdictsPanel::RunColumn)->text(), runs->itemText(0));
        // A long name is elided in its box, never widening the view; the list shows it whole.
        QCOMPARE(runs->sizeAdjustPolicy(), QComboBox::AdjustToMinimumContentsLengthWithIcon);
    }

    void compareWith_offersEveryRunButTheOneShown()
    {
        auto view = openView(m_v2);
        RunSelectionBar *bar = view->selectionBar();
        const auto offered = [bar] {
            QStringList dirs;
            for (int i = 0; i < bar->compareCombo()->count(); ++i)
                dirs.append(bar->compareCombo()->itemData(i).toString());
            return dirs;
        };
        QCOMPARE(offered(), (QStringList{QString(), QFileInfo(m_v1).absoluteFilePath()}));
        // Another run chosen: the list follows, and a comparison with the run itself is dropped.
        bar->select(QFileInfo(m_v1).absoluteFilePath(), QFileInfo(m_v1).absoluteFilePath());
        QCOMPARE(offered(), (QStringList{QString(), QFileInfo(m_v2).absoluteFilePath()}));
        QCOMPARE(bar->comparedRun(), QString());
        QTRY_VERIFY(view->shownRun() && !view->isBusy());
        QVERIFY(!view->comparedRun());
    }

    void twoRuns_legendsSayRunAndArm_wholeAtTheSmallestWindow_andLabelsNeverOverlap()
    {
        auto view = openView(m_v2, m_v1);
        view->resize(1060, 700); // Compare's share of a 1280×800 window beside the sidebar
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        for (charts::ChartPanel *panel : {view->barChart(), view->scatterChart(), view->liftChart()}) {
            charts::ChartLegend *legend = charts::legendOf(panel->chart());
            QVERIFY(legend);
            QVERIFY(!panel->chart()->legend()->isVisible()); // Qt's own, which truncates every entry alike
            QStringList texts;
            for (const auto &entry : legend->entries())
                texts.append(entry.text);
            QCOMPARE(QSet<QString>(texts.begin(), texts.end()).size(), texts.size());
            for (const QString &text : texts)
                QVERIFY2(text.startsWith(u"v1"_s) || text.startsWith(u"v2"_s), qPrintable(text)); // the runs' versions
            QCOMPARE(legend->shownTexts(), texts); // whole, in as many rows as they need
            if (panel != view->liftChart()) {
                QCOMPARE(texts.size(), 4);
                QCOMPARE(texts.filter(u"without skill"_s).size(), 2);
                QCOMPARE(texts.filter(u" with skill"_s).size(), 2);
            }
        }
        // The scatter names both runs' points of one model at about the same place: each label is drawn where no
        // other is, or not at all.
        view->scatterChart()->grab();
        const QList<QRectF> drawn = charts::overlayOf(view->scatterChart()->chart())->drawnLabels();
        QVERIFY(!drawn.isEmpty());
        for (qsizetype i = 0; i < drawn.size(); ++i) {
            for (qsizetype j = i + 1; j < drawn.size(); ++j)
                QVERIFY2(!drawn[i].intersects(drawn[j]), "two labels overlap");
        }
    }

    void labelsThatWouldOverlap_moveAside_orAreLeftOut()
    {
        const QRectF a(0, 0, 50, 10);
        const QRectF b(20, 0, 50, 10);   // over a
        const QRectF below(20, 12, 50, 10);
        const auto placed = charts::ChartOverlay::placeLabels({{a}, {b, below}, {a.translated(5, 0)}});
        QCOMPARE(placed.size(), 3);
        QCOMPARE(placed[0], std::optional<QRectF>(a));
        QCOMPARE(placed[1], std::optional<QRectF>(below)); // its second choice
        QVERIFY(!placed[2]);                              // nowhere free: not printed over the others
    }

    void verdicts_textAndTableFromTheSameNumbers_onTheHeldOutCasesThatDecide()
    {
        auto view = openView(m_v1);
        view->setSplit(CompareView::Split::All);
        const QList<Verdict> verdicts = decideVerdicts(view->shownRun()->summary, view->verdictThresholds());
        QVERIFY(!verdicts.isEmpty());
        const QString text = view->verdictLabel()->text();
        QVERIFY2(text.contains(u"decided on the held-out cases"_s), qPrintable(text));
        QTableWidget *table = view->liftTable();
        for (const Verdict &v : verdicts) {
            QCOMPARE(v.split, u"heldout"_s); // the fixture has held-out cases: they decide
            // The row the verdict stands on is listed although the view shows all cases, and says what the text says.
            int deciding = -1;
            for (int row = 0; row < table->rowCount(); ++row) {
                if (table->item(row, VerdictsPanel::ModelColumn)->text() == v.model &&
                    table->item(row, VerdictsPanel::CasesColumn)->text() == u"held-out"_s)
                    deciding = row;
            }
            QVERIFY2(deciding >= 0, qPrintable(v.model));
            const auto at = [&](int column) { return table->item(deciding, column)->text(); };
            QCOMPARE(at(VerdictsPanel::VerdictColumn), v.word());
            QCOMPARE(at(VerdictsPanel::PairsColumn), QString::number(v.pairs));
            QCOMPARE(at(VerdictsPanel::IntervalColumn), liftIntervalText(v.liftCi));
            QVERIFY2(text.contains(u"%1 pairs"_s.arg(v.pairs)) && text.contains(liftIntervalText(v.liftCi)),
                     qPrintable(text));
            // Every other row of the model says where its verdict was decided, none is blank.
            for (int row = 0; row < table->rowCount(); ++row) {
                if (row != deciding && table->item(row, VerdictsPanel::ModelColumn)->text() == v.model)
                    QCOMPARE(table->item(row, VerdictsPanel::VerdictColumn)->text(), u"(decided on held-out cases)"_s);
            }
        }
    }

    void acrossRuns_oneRun_isAPointOfEightPixels_drawnWhole()
    {
        auto view = openView(m_v2);
        view->setAcrossRuns({m_v2});
        QTRY_COMPARE_WITH_TIMEOUT(view->acrossTable()->columnCount(), 1, 10000);
        for (QAbstractSeries *series : view->trendChart()->chart()->series()) {
            auto *line = qobject_cast<QLineSeries *>(series);
            QVERIFY(line);
            QCOMPARE(line->count(), 1);
            QVERIFY(line->pointsVisible());
            QCOMPARE(line->markerSize(), charts::kPointSize);
            // Inside the axes with room to spare, so the marker is not cut by the plot's edge.
            for (QAbstractAxis *axis : line->attachedAxes()) {
                const QPointF p = line->at(0);
                const double v = axis->orientation() == Qt::Horizontal ? p.x() : p.y();
                if (auto *values = qobject_cast<QValueAxis *>(axis))
                    QVERIFY(values->min() < v && v < values->max());
            }
        }
    }

    void paddedRange_keepsPointsAtTheEndsWhole_andTicksRound()
    {
        QValueAxis axis;
        charts::setPaddedRange(&axis, 0, 1, 0.2);
        QVERIFY(axis.min() < 0 && axis.max() > 1);
        QCOMPARE(axis.tickType(), QValueAxis::TicksDynamic);
        QCOMPARE(axis.tickAnchor(), 0.0);
        QCOMPARE(axis.tickInterval(), 0.2);
    }

    void exportReport_opensTheDialogOnTheRunsShown()
    {
        auto view = openView(m_v2, m_v1);
        QTest::mouseClick(view->findChild<QPushButton *>(u"exportReport"_s), Qt::LeftButton);
        auto *dialog = view->findChild<ExportReportDialog *>();
        QVERIFY(dialog && dialog->isVisible());
        // Both runs: the second run's folder name joins the file name of the comparison report.
        QVERIFY2(dialog->outputPath().endsWith(QFileInfo(m_v2).fileName() + u"-vs-"_s + QFileInfo(m_v1).fileName() +
                                               u".html"_s),
                 qPrintable(dialog->outputPath()));
        dialog->close();
    }

    void charts_exportAsPngAndSvg()
    {
        auto view = openView(m_v1);
        view->resize(1300, 900);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        QTemporaryDir out;
        for (charts::ChartPanel *panel : {view->barChart(), view->scatterChart(), view->liftChart()}) {
            const QString png = out.filePath(u"chart.png"_s);
            const QString svg = out.filePath(u"chart.svg"_s);
            QCOMPARE(panel->savePng(png), QString());
            QCOMPARE(panel->saveSvg(svg), QString());
            const QImage image(png);
            QVERIFY(!image.isNull());
            QCOMPARE(image.size(), panel->size() * 2);
            QFile file(svg);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray text = file.readAll();
            QVERIFY(text.contains("<svg"));
            QVERIFY(text.size() > 2000);
        }
        QVERIFY(!view->barChart()->savePng(out.filePath(u"missing/dir/x.png"_s)).isEmpty());
    }

    void saveChart_suggestsTheRunsSkillAndTitle_inTheProjectThenTheLastFolder()
    {
        auto view = openView(m_v1);
        AppSettings().setChartFolder({});
        const QString skill = view->barChart()->suggestedPath(u"png"_s);
        QCOMPARE(QFileInfo(skill).absolutePath(), QFileInfo(m_project->rootPath()).absoluteFilePath());
        const QString name = QFileInfo(skill).fileName();
        QVERIFY2(name.startsWith(u"diffusers-cuda-rmsnorm-pass-rate"_s) && name.endsWith(u".png"_s), qPrintable(name));
        for (charts::ChartPanel *panel : {view->barChart(), view->scatterChart(), view->liftChart()}) {
            const QString base = QFileInfo(panel->suggestedPath(u"svg"_s)).completeBaseName();
            QVERIFY2(!base.endsWith(u'-') && !base.startsWith(u'-') && !base.contains(u"--"_s), qPrintable(base));
            QVERIFY2(QRegularExpression(u"^[a-z0-9_-]+$"_s).match(base).hasMatch(), qPrintable(base));
        }
        QTemporaryDir elsewhere;
        AppSettings().setChartFolder(elsewhere.path());
        QCOMPARE(QFileInfo(view->liftChart()->suggestedPath(u"png"_s)).absolutePath(),
                 QFileInfo(elsewhere.path()).absoluteFilePath());
        AppSettings().setChartFolder({});
    }

    void copyAsCsv_saysWhatWasCopied()
    {
        auto view = openView(m_v1);
        QSignalSpy messages(&StatusMessages::instance(), &StatusMessages::message);
        QPushButton *copy = nullptr;
        for (QPushButton *button : view->findChildren<QPushButton *>())
            if (button->text() == u"Copy as CSV"_s)
                copy = button;
        QVERIFY(copy);
        copy->click();
        QCOMPARE(messages.count(), 1);
        QCOMPARE(messages.first().first().toString(), u"Copied the case matrix as CSV"_s);
    }

    void ctrlC_copiesTheShownMatrixAsCsv()
    {
        auto view = openView(m_v1);
        view->show();
        QVERIFY(QTest::qWaitForWindowExposed(view.get()));
        view->filterCombo()->setCurrentIndex(view->filterCombo()->findText(u"Errors"_s));
        view->matrixView()->setFocus();
        QGuiApplication::clipboard()->clear();
        QTest::keySequence(view->matrixView(), QKeySequence::Copy);
        const QString csv = QGuiApplication::clipboard()->text();
        QCOMPARE(csv, view->matrixCsv());
        const QStringList lines = csv.split(u'\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 2);
        QVERIFY(lines[0].startsWith(u"Case,Split,Flips,"_s));
        QVERIFY(lines[1].startsWith(u"layernorm-fused,train,"_s));
    }

    void unreadableRun_saysWhy()
    {
        QTemporaryDir dir;
        QVERIFY(QDir().mkpath(dir.filePath(u"runs/broken"_s)));
        QFile manifest(dir.filePath(u"runs/broken/run.json"_s));
        QVERIFY(manifest.open(QIODevice::WriteOnly));
        manifest.write("{\"format\": \"skillforge-run/1\",\n \"run_id\": [}\n");
        manifest.close();
        auto project = Project::open(dir.path());
        QVERIFY(std::holds_alternative<Project>(project));
        CompareView view;
        view.setProject(&std::get<Project>(project));
        QTRY_VERIFY(!view.isBusy());
        QVERIFY(!view.shownRun());
        QVERIFY2(view.loadError().contains(u"run.json"_s), qPrintable(view.loadError()));
    }
};

SF_TEST_MAIN(TestCompareView)
#include "test_compare_view.moc"
