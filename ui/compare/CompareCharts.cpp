#include "compare/CompareCharts.h"

#include "charts/ChartPanel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

namespace sf {

CompareCharts::CompareCharts(QWidget *parent)
    : QWidget(parent)
    , m_metricCombo(new QComboBox(this))
    , m_scatterCombo(new QComboBox(this))
    , m_barChart(new charts::ChartPanel(this))
    , m_scatterChart(new charts::ChartPanel(this))
    , m_liftChart(new charts::ChartPanel(this))
{
    using charts::Metric;
    for (const Metric metric : {Metric::PassRate, Metric::Tokens, Metric::Cost, Metric::Latency})
        m_metricCombo->addItem(charts::metricName(metric), int(metric));
    m_metricCombo->setToolTip(tr("What the bars measure, per item, without and with the skill"));
    m_scatterCombo->addItem(tr("Tokens"), int(Metric::Tokens));
    m_scatterCombo->addItem(tr("Cost"), int(Metric::Cost));
    m_scatterCombo->setToolTip(tr("Pass rate against mean tokens or mean cost per item: a small model with the skill "
                                  "that beats a large one without it, for less, sits up and to the left of it"));

    auto *choices = new QHBoxLayout;
    choices->addWidget(new QLabel(tr("Bars:"), this));
    choices->addWidget(m_metricCombo);
    choices->addSpacing(12);
    choices->addWidget(new QLabel(tr("Pass rate against:"), this));
    choices->addWidget(m_scatterCombo);
    choices->addStretch(1);

    for (charts::ChartPanel *panel : {m_barChart, m_scatterChart, m_liftChart})
        panel->setToolTip(tr("Hover a bar or point for its numbers; right-click to save the chart as PNG or SVG."));
    auto *row = new QSplitter(Qt::Horizontal, this);
    row->addWidget(m_barChart);
    row->addWidget(m_scatterChart);
    row->addWidget(m_liftChart);
    row->setStretchFactor(0, 3);
    row->setStretchFactor(1, 2);
    row->setStretchFactor(2, 2);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(choices);
    layout->addWidget(row, 1);

    connect(m_metricCombo, &QComboBox::currentIndexChanged, this, &CompareCharts::redraw);
    connect(m_scatterCombo, &QComboBox::currentIndexChanged, this, &CompareCharts::redraw);
}

void CompareCharts::showRuns(const QList<charts::ChartRun> &runs, const QStringList &splits)
{
    m_runs = runs;
    m_splits = splits;
    redraw();
}

void CompareCharts::redraw()
{
    if (m_runs.isEmpty())
        return;
    const auto metric = charts::Metric(m_metricCombo->currentData().toInt());
    m_barChart->replaceChart(charts::makeArmBarChart(charts::armBarData(m_runs, m_splits, metric)));
    const auto scatterAxis = charts::Metric(m_scatterCombo->currentData().toInt());
    m_scatterChart->replaceChart(
        charts::makeScatterChart(charts::scatterData(m_runs, m_splits, scatterAxis), scatterAxis));
    m_liftChart->replaceChart(charts::makeLiftChart(charts::liftData(m_runs, m_splits)));
}

void CompareCharts::setMetric(charts::Metric metric)
{
    m_metricCombo->setCurrentIndex(m_metricCombo->findData(int(metric)));
}

void CompareCharts::setScatterAxis(charts::Metric metric)
{
    m_scatterCombo->setCurrentIndex(std::max(0, m_scatterCombo->findData(int(metric))));
}

void CompareCharts::setSaveHints(const QString &prefix, const QString &folder)
{
    for (charts::ChartPanel *panel : {m_barChart, m_scatterChart, m_liftChart})
        panel->setSaveHints(prefix, folder);
}

void CompareCharts::setPricesText(const QString &text)
{
    for (charts::ChartPanel *panel : {m_barChart, m_scatterChart})
        panel->setToolTip(text);
}

} // namespace sf
