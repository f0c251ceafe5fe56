#pragma once

#include "charts/ComparisonCharts.h"

#include <QWidget>

class QComboBox;

namespace sf {

namespace charts {
class ChartPanel;
}

/// Compare's charts side by side: a metric per model and arm with 95% intervals (pass rate, tokens, cost or latency:
/// the "Bars" choice), pass rate against tokens or cost (the "Pass rate against" choice), and the lift with its
/// p-value. Drawn from the runs' summaries, never recomputed.
class CompareCharts final : public QWidget
{
    Q_OBJECT

public:
    explicit CompareCharts(QWidget *parent = nullptr);

    /// Draws @p runs (their summaries must outlive the next call) on the cases of @p splits.
    void showRuns(const QList<charts::ChartRun> &runs, const QStringList &splits);
    /// Draws the same runs again (the palette changed).
    void redraw();

    void setMetric(charts::Metric metric);
    void setScatterAxis(charts::Metric metric);
    /// What Save Chart suggests (the run's skill, the project's folder), and the tooltip of the cost-bearing charts.
    void setSaveHints(const QString &prefix, const QString &folder);
    void setPricesText(const QString &text);

    charts::ChartPanel *barChart() const { return m_barChart; }
    charts::ChartPanel *scatterChart() const { return m_scatterChart; }
    charts::ChartPanel *liftChart() const { return m_liftChart; }

private:
    QList<charts::ChartRun> m_runs;
    QStringList m_splits;
    QComboBox *m_metricCombo;
    QComboBox *m_scatterCombo;
    charts::ChartPanel *m_barChart;
    charts::ChartPanel *m_scatterChart;
    charts::ChartPanel *m_liftChart;
};

} // namespace sf
