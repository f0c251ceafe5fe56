#pragma once

#include "common/ViewPage.h"
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

class CaseChangesModel;
class CaseDetailDialog;
class CaseMatrixFilter;
class CaseMatrixModel;
class EmptyState;
class JobListModel;
class TwoPassRatesPanel;

/// The Compare view: a run of the project (and optionally a second one) as charts — pass rate, tokens, cost or
/// latency per model without and with the skill with 95% intervals, pass rate against tokens, the lift with its
/// p-value — a verdict per model (keep, cut, can't tell yet) with its thresholds, a lift table, the case matrix with
/// filters, and what changed per case between the two runs. Every number comes from core's RunAnalysis. Runs are read
/// on a worker thread, so a large run never freezes the window. Until the project has a run it explains how to get one.
class CompareView final : public ViewPage
{
    Q_OBJECT

public:
    explicit CompareView(QWidget *parent = nullptr);
    ~CompareView() override;

    void setProject(const Project *project) override;
    /// Where "Export Report…" lists its export as a job.
    void setJobs(JobListModel *jobs) { m_jobs = jobs; }
    /// Shows the run at @p path (a folder under runs/).
    void openPath(const QString &path) override;
    bool isBusy() const override;

    /// Chooses the run shown, and the run compared with it ("" for none).
    void showRuns(const QString &run, const QString &comparedWith = {});
    enum class Split
    {
        All,
        Train,
        HeldOut,
        Apart
    };
    void setSplit(Split split);
    void setMetric(charts::Metric metric);
    /// What the scatter puts against pass rate: Metric::Tokens (the default) or Metric::Cost per item.
    void setScatterAxis(charts::Metric metric);

    /// The runs shown (the second is null without a comparison); null while loading.
    std::shared_ptr<const RunAnalysis> shownRun() const { return m_shown; }
    QString shownRunDir() const override;
    QString comparedRunDir() const override;
    std::shared_ptr<const RunAnalysis> comparedRun() const { return m_compared; }
    QString loadError() const;

    CaseMatrixModel *matrixModel() const { return m_matrix; }
    CaseMatrixFilter *matrixFilter() const { return m_filter; }
    QTableView *matrixView() const { return m_matrixView; }
    QComboBox *filterCombo() const { return m_filterCombo; }
    CaseChangesModel *changesModel() const { return m_changes; }
    /// True while the changes table is one of the tabs (two runs compared).
    bool changesShown() const;
    QTableWidget *liftTable() const { return m_liftTable; }
    /// Above the lift table, for runs graded statement by statement (imported skill-creator workspaces): Skillforge's
    /// case pass rate beside skill-creator's statement pass rate; hidden for other runs.
    TwoPassRatesPanel *twoPassRates() const { return m_twoPassRates; }
    /// The verdict per model of the run shown (keep, cut, can't tell yet) and the thresholds that decided them.
    QLabel *verdictLabel() const { return m_verdicts; }
    /// The shown run's suite diagnostics (core's suiteHealthFindings): harm, checks that measure nothing, variance,
    /// outliers; then its contamination check (core's checkContamination) and any skill text found in a baseline.
    QTableWidget *healthTable() const { return m_healthTable; }
    /// Many runs side by side: the project's runs to check, the model × run matrix of lift (interval, verdict) and
    /// the trend chart across them.
    QListWidget *acrossRunList() const { return m_acrossList; }
    QTableWidget *acrossTable() const { return m_acrossTable; }
    charts::ChartPanel *trendChart() const { return m_trendChart; }
    /// Checks exactly the runs at @p dirs in the across-runs list.
    void setAcrossRuns(const QStringList &dirs);
    /// The thresholds the verdicts use; from the settings until set. The spin boxes above the verdicts change them
    /// and store them in the settings.
    QDoubleSpinBox *minLiftSpin() const { return m_minLiftSpin; }
    QSpinBox *minPairsSpin() const { return m_minPairsSpin; }
    void setVerdictThresholds(const VerdictThresholds &thresholds);
    VerdictThresholds verdictThresholds() const { return m_thresholds; }
    charts::ChartPanel *barChart() const { return m_barChart; }
    charts::ChartPanel *scatterChart() const { return m_scatterChart; }
    charts::ChartPanel *liftChart() const { return m_liftChart; }
    CaseDetailDialog *detailDialog() const { return m_detail; }
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
    void rebuildCharts();
    void fillLiftTable();
    void fillVerdicts();
    void fillHealthTable();
    void fillAcrossRuns();
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
    QComboBox *m_runCombo;
    QComboBox *m_compareCombo;
    QComboBox *m_splitCombo;
    QComboBox *m_metricCombo;
    QComboBox *m_scatterCombo;
    QLabel *m_status;
    QLabel *m_verdicts;
    QDoubleSpinBox *m_minLiftSpin;
    QSpinBox *m_minPairsSpin;
    QString m_statusFacts; ///< the status line without the verdicts
    VerdictThresholds m_thresholds;
    charts::ChartPanel *m_barChart;
    charts::ChartPanel *m_scatterChart;
    charts::ChartPanel *m_liftChart;
    QTabWidget *m_tabs;
    CaseMatrixModel *m_matrix;
    CaseMatrixFilter *m_filter;
    QTableView *m_matrixView;
    QComboBox *m_filterCombo;
    QPushButton *m_copyButton;
    QPushButton *m_exportButton;
    QTableWidget *m_liftTable;
    TwoPassRatesPanel *m_twoPassRates;
    QTableWidget *m_healthTable;
    QListWidget *m_acrossList;
    QTableWidget *m_acrossTable;
    charts::ChartPanel *m_trendChart;
    CaseChangesModel *m_changes;
    QTableView *m_changesView;
    QWidget *m_changesPage;
    CaseDetailDialog *m_detail;
};

/// "skill loaded in 8 of 10 (80%, 95% CI 49–94)": how often a model's with-skill items loaded the skill.
QString skillLoadedText(const stats::Proportion &loaded);

} // namespace sf
