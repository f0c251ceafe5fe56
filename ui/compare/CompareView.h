#pragma once

#include "common/ViewPage.h"
#include "compare/RunSelectionBar.h"
#include "compare/VerdictsPanel.h"
#include "eval/Contamination.h"
#include "eval/RunAnalysis.h"
#include "eval/Verdict.h"

#include <QHash>
#include <QSet>
#include <memory>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QListWidget;
class QPushButton;
class QStackedWidget;
class QTabWidget;
class QTableView;
class QTableWidget;

namespace sf {

namespace charts {
class ChartPanel;
enum class Metric;
} // namespace charts

class AcrossRunsPanel;
class CaseChangesModel;
class CaseDetailDialog;
class CaseMatrixFilter;
class CaseMatrixModel;
class CaseMatrixPage;
class CompareCharts;
class ElidedLabel;
class SuiteHealthTable;
class EmptyState;
class JobListModel;
class TwoPassRatesPanel;

/// The Compare view: a run of the project (and optionally a second one) as charts — pass rate, tokens, cost or
/// latency per model without and with the skill with 95% intervals, pass rate against tokens, the lift with its
/// p-value — a verdict per model (keep, cut, can't tell yet) with its thresholds, a lift table, the case matrix with
/// filters, and what changed per case between the two runs. Every number comes from core's RunAnalysis. Runs are read
/// on a worker thread, so a large run never freezes the window. Until the project has a run it explains how to get one.
/// Its parts: the run choice (RunSelectionBar), the charts (CompareCharts), the verdicts (VerdictsPanel), many runs
/// side by side (AcrossRunsPanel), the cases (CaseMatrixPage), the suite's health (SuiteHealthTable).
class CompareView final : public ViewPage
{
    Q_OBJECT

public:
    explicit CompareView(QWidget *parent = nullptr);
    ~CompareView() override;

    void setProject(const Project *project) override;
    /// Where "Export Report…" lists its export as a job.
    void setJobs(JobListModel *jobs) { m_jobs = jobs; }
    /// Shows the run at @p path (a folder under runs/), listing it first if it is new (a run that just finished).
    void openPath(const QString &path) override;
    bool isBusy() const override;

    /// Chooses the run shown, and the run compared with it ("" for none).
    void showRuns(const QString &run, const QString &comparedWith = {});
    using Split = RunSelectionBar::Split;
    void setSplit(Split split);
    void setMetric(charts::Metric metric);
    /// What the scatter puts against pass rate: Metric::Tokens (the default) or Metric::Cost per item.
    void setScatterAxis(charts::Metric metric);

    /// The runs shown (the second is null without a comparison); null while loading.
    std::shared_ptr<const RunAnalysis> shownRun() const { return m_shown; }
    QString shownRunDir() const override;
    QString comparedRunDir() const override;
    std::shared_ptr<const RunAnalysis> comparedRun() const { return m_compared; }
    /// The names the shown runs go by in the charts and tables: as the run choice lists them.
    QStringList shownRunNames() const;
    QString loadError() const;

    RunSelectionBar *selectionBar() const { return m_selection; }
    /// The case matrix tab's model, filter, table and filter choice.
    CaseMatrixModel *matrixModel() const;
    CaseMatrixFilter *matrixFilter() const;
    QTableView *matrixView() const;
    QComboBox *filterCombo() const;
    CaseChangesModel *changesModel() const { return m_changes; }
    /// True while the changes table is one of the tabs (two runs compared).
    bool changesShown() const;
    /// The verdicts, the lift table and (for runs graded statement by statement) the two pass rates.
    VerdictsPanel *verdicts() const { return m_verdicts; }
    QTableWidget *liftTable() const { return m_verdicts->liftTable(); }
    TwoPassRatesPanel *twoPassRates() const { return m_verdicts->twoPassRates(); }
    QLabel *verdictLabel() const { return m_verdicts->verdictLabel(); }
    /// The shown run's suite diagnostics (core's suiteHealthFindings): harm, checks that measure nothing, variance,
    /// outliers; then its contamination check (core's checkContamination) and any skill text found in a baseline.
    QTableWidget *healthTable() const;
    /// Many runs side by side: the project's runs to check, the model × run matrix of lift (interval, verdict) and
    /// the trend chart across them.
    AcrossRunsPanel *acrossRuns() const { return m_across; }
    QListWidget *acrossRunList() const;
    QTableWidget *acrossTable() const;
    charts::ChartPanel *trendChart() const;
    /// Checks exactly the runs at @p dirs in the across-runs list.
    void setAcrossRuns(const QStringList &dirs);
    /// The thresholds the verdicts use; from the settings until set. The spin boxes above the verdicts change them
    /// and store them in the settings.
    QDoubleSpinBox *minLiftSpin() const { return m_verdicts->minLiftSpin(); }
    QSpinBox *minPairsSpin() const { return m_verdicts->minPairsSpin(); }
    void setVerdictThresholds(const VerdictThresholds &thresholds);
    VerdictThresholds verdictThresholds() const { return m_verdicts->thresholds(); }
    charts::ChartPanel *barChart() const;
    charts::ChartPanel *scatterChart() const;
    charts::ChartPanel *liftChart() const;
    CaseDetailDialog *detailDialog() const;
    /// The case matrix as shown (filter and order) as CSV; also what Ctrl+C copies.
    QString matrixCsv() const;
    /// Opens the transcripts of the matrix cell at @p index of the shown (filtered) table.
    void openCell(const QModelIndex &index);

Q_SIGNALS:
    /// The charts and tables show the chosen runs.
    void runsShown();

protected:
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void reloadRunList();
    void requestRuns();
    void load(const QString &dir);
    void rebuild();
    void showVerdicts();
    void updateStatus();
    void fillHealthTable();
    QStringList splits() const;

    const Project *m_project = nullptr;
    JobListModel *m_jobs = nullptr;
    QHash<QString, std::shared_ptr<const RunAnalysis>> m_cache;
    QHash<QString, QString> m_errors;
    QHash<QString, ContaminationReport> m_contamination; ///< by run folder, beside m_cache
    QSet<QString> m_loading;
    std::shared_ptr<const RunAnalysis> m_shown;
    std::shared_ptr<const RunAnalysis> m_compared;
    int m_generation = 0;

    QStackedWidget *m_stack;
    EmptyState *m_empty;
    RunSelectionBar *m_selection;
    ElidedLabel *m_status;
    QString m_statusFacts; ///< the status line without the verdicts
    CompareCharts *m_charts;
    QTabWidget *m_tabs;
    CaseMatrixPage *m_matrixPage;
    VerdictsPanel *m_verdicts;
    SuiteHealthTable *m_healthTable;
    AcrossRunsPanel *m_across;
    CaseChangesModel *m_changes;
    QTableView *m_changesView;
    QWidget *m_changesPage;
};

} // namespace sf
