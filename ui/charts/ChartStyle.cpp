#include "charts/ChartStyle.h"

#include "common/Theme.h"
#include "eval/EvalResult.h"

#include <QAbstractAxis>
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QLegend>
#include <QPalette>
#include <QValueAxis>
#include <QXYSeries>

namespace sf::charts {

QColor okabeIto(int index)
{
    // Orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple, black.
    static const QRgb colours[] = {0xE69F00, 0x56B4E9, 0x009E73, 0xF0E442, 0x0072B2, 0xD55E00, 0xCC79A7, 0x000000};
    constexpr int count = int(std::size(colours));
    QColor colour = QColor::fromRgb(colours[((index % count) + count) % count]);
    // Black disappears on a dark background; the palette's text colour takes its place there.
    if (colour == Qt::black)
        colour = textColour();
    return colour;
}

SeriesStyle seriesStyle(int runIndex, const QString &arm)
{
    const bool baseline = arm == kBaselineArm;
    SeriesStyle style;
    // First run: orange without the skill, blue with it; second run: vermillion and bluish green. Yellow is left
    // out: it vanishes on white paper.
    if (runIndex == 0)
        style.colour = okabeIto(baseline ? 0 : 4);
    else
        style.colour = okabeIto(baseline ? 5 : 2);
    if (baseline)
        style.fill = runIndex == 0 ? Qt::BDiagPattern : Qt::DiagCrossPattern;
    else
        style.fill = runIndex == 0 ? Qt::SolidPattern : Qt::Dense3Pattern;
    style.marker = baseline ? QScatterSeries::MarkerShapeCircle : QScatterSeries::MarkerShapeRectangle;
    return style;
}

void styleBarSet(QBarSet *set, const SeriesStyle &style)
{
    set->setBrush(QBrush(style.colour, style.fill));
    set->setPen(QPen(style.colour, 1.5));
}

QColor textColour()
{
    return QApplication::palette().color(QPalette::WindowText);
}

void prepareChart(QChart *chart)
{
    chart->setTheme(Theme::isDark() ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    const QPalette palette = QApplication::palette();
    chart->setBackgroundBrush(palette.color(QPalette::Base));
    chart->setBackgroundRoundness(0);
    chart->setTitleBrush(palette.color(QPalette::WindowText));
    QFont title = chart->titleFont();
    title.setBold(true);
    chart->setTitleFont(title);
    chart->legend()->setLabelColor(palette.color(QPalette::WindowText));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->setMargins(QMargins(4, 4, 4, 4));
}

void styleAxes(QChart *chart)
{
    const QPalette palette = QApplication::palette();
    QColor grid = palette.color(QPalette::WindowText);
    grid.setAlphaF(0.18);
    for (QAbstractAxis *axis : chart->axes()) {
        axis->setLabelsColor(palette.color(QPalette::WindowText));
        axis->setTitleBrush(palette.color(QPalette::WindowText));
        axis->setGridLineColor(grid);
        axis->setLinePenColor(Theme::muted());
    }
}

void showPoints(QXYSeries *series, double size)
{
    series->setPointsVisible(true);
    series->setMarkerSize(size);
}

void setPaddedRange(QValueAxis *axis, double low, double high, double step)
{
    const double pad = step / 4;
    axis->setRange(low - pad, high + pad);
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(low);
    axis->setTickInterval(step);
}

} // namespace sf::charts
