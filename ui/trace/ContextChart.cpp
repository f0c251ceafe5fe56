#include "trace/ContextChart.h"

#include "charts/ChartStyle.h"
#include "common/Theme.h"

#include <QChart>
#include <QEvent>
#include <QChartView>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>

namespace sf {

ContextChart::ContextChart(QWidget *parent)
    : QWidget(parent)
    , m_view(new QChartView(this))
    , m_series(new QLineSeries(this))
{
    auto *chart = new QChart;
    chart->addSeries(m_series);
    chart->createDefaultAxes();
    chart->setTitle(tr("Context size per turn (input tokens)"));
    m_view->setChart(chart);
    applyStyle();
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(120);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
}

void ContextChart::setTrace(const Trace *trace)
{
    QList<QPointF> points;
    if (trace && !trace->threads.empty()) {
        std::vector<std::pair<int, qint64>> sizes;
        const auto &turns = trace->threads[0].turns;
        for (int i = 0; i < int(turns.size()); ++i)
            if (turns[size_t(i)].usage)
                sizes.emplace_back(i, turns[size_t(i)].usage->totalInput());
        // Thin by keeping the largest context of each bucket: peaks are what a reader looks for.
        const size_t bucket = std::max<size_t>(1, (sizes.size() + MaxPoints - 1) / MaxPoints);
        for (size_t i = 0; i < sizes.size(); i += bucket) {
            auto best = sizes[i];
            for (size_t j = i; j < std::min(sizes.size(), i + bucket); ++j)
                if (sizes[j].second > best.second)
                    best = sizes[j];
            points.append(QPointF(best.first + 1, double(best.second) / 1000.0)); // in thousands: short labels
        }
    }
    m_series->replace(points);
    double maxX = 1, maxY = 1;
    for (const QPointF &p : points) {
        maxX = std::max(maxX, p.x());
        maxY = std::max(maxY, p.y());
    }
    QChart *chart = m_view->chart();
    const auto horizontal = chart->axes(Qt::Horizontal);
    const auto vertical = chart->axes(Qt::Vertical);
    if (!horizontal.isEmpty()) {
        horizontal.first()->setRange(1, maxX);
        static_cast<QValueAxis *>(horizontal.first())->setLabelFormat(QStringLiteral("%d"));
    }
    if (!vertical.isEmpty()) {
        vertical.first()->setRange(0, maxY * 1.05);
        auto *axis = static_cast<QValueAxis *>(vertical.first());
        axis->setLabelFormat(QStringLiteral("%.0fk"));
        axis->setTickCount(3); // a short chart has room for three labels, not the default five
    }
    setVisible(!points.isEmpty());
}

void ContextChart::applyStyle()
{
    QChart *chart = m_view->chart();
    charts::prepareChart(chart); // resets the series' colour: set again below
    chart->legend()->hide();
    chart->setMargins(QMargins(2, 2, 2, 2));
    QFont title = chart->titleFont();
    title.setBold(false);
    title.setPointSizeF(QFont().pointSizeF() * 0.85);
    chart->setTitleFont(title);
    m_series->setColor(charts::okabeIto(Theme::isDark() ? 1 : 4)); // sky blue reads on dark, blue on light
    charts::styleAxes(chart);
    m_view->setBackgroundBrush(palette().color(QPalette::Base));
}

void ContextChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        applyStyle();
}

int ContextChart::pointCount() const
{
    return int(m_series->count());
}

} // namespace sf
