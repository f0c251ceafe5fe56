#include "trace/ContextChart.h"

#include "charts/ChartStyle.h"
#include "common/Theme.h"

#include <QChart>
#include <QChartView>
#include <QEvent>
#include <QLineSeries>
#include <QVBoxLayout>
#include <QValueAxis>
#include <cmath>

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
        // A short chart has room for three or four labels, not the default five; at a round step, or a 1.6k peak
        // read "0k, 1k, 1k".
        const NiceAxis nice = niceAxis(maxY, 3);
        auto *axis = static_cast<QValueAxis *>(vertical.first());
        axis->setRange(0, nice.top);
        axis->setTickCount(nice.ticks);
        axis->setLabelFormat(QStringLiteral("%.%1fk").arg(nice.decimals));
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

ContextChart::NiceAxis ContextChart::niceAxis(double max, int maxIntervals)
{
    max = max > 0 ? max : 1;
    const double raw = max / std::max(1, maxIntervals);
    const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10 * magnitude;
    for (const double m : {1.0, 2.0, 5.0}) {
        if (m * magnitude >= raw * (1 - 1e-9)) {
            step = m * magnitude;
            break;
        }
    }
    NiceAxis axis;
    const int intervals = std::max(1, int(std::ceil(max / step - 1e-9)));
    axis.top = intervals * step;
    axis.ticks = intervals + 1;
    axis.decimals = step >= 1 ? 0 : int(std::ceil(-std::log10(step) - 1e-9));
    return axis;
}

QStringList ContextChart::verticalLabels() const
{
    QStringList labels;
    const auto vertical = m_view->chart()->axes(Qt::Vertical);
    if (vertical.isEmpty())
        return labels;
    const auto *axis = static_cast<const QValueAxis *>(vertical.first());
    for (int i = 0; i < axis->tickCount(); ++i) {
        const double value = axis->min() + i * (axis->max() - axis->min()) / std::max(1, axis->tickCount() - 1);
        labels << QString::asprintf(axis->labelFormat().toLatin1().constData(), value);
    }
    return labels;
}

int ContextChart::pointCount() const
{
    return int(m_series->count());
}

} // namespace sf
