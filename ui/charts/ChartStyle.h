#pragma once

#include <QColor>
#include <QScatterSeries>

class QBarSet;
class QChart;
class QValueAxis;
class QXYSeries;

namespace sf::charts {

/// How one series of a comparison chart is drawn: which run it belongs to and which arm it shows.
struct SeriesStyle
{
    QColor colour;
    Qt::BrushStyle fill = Qt::SolidPattern; ///< baseline bars are hatched, so a grey-scale print still separates arms
    QScatterSeries::MarkerShape marker = QScatterSeries::MarkerShapeCircle;
};

/// The Okabe–Ito palette (Okabe & Ito 2008): eight colours that stay distinct under the common forms of
/// colour blindness. Index wraps.
QColor okabeIto(int index);

/// The style of the @p arm ("baseline" or "with_skill") of the @p runIndex-th run shown (0 or 1).
SeriesStyle seriesStyle(int runIndex, const QString &arm);

/// Styles a bar set: fill colour and hatch pattern, with a solid outline in the same colour.
void styleBarSet(QBarSet *set, const SeriesStyle &style);

/// Gives a new, empty @p chart the application's light or dark look (background, title, legend), so a chart
/// sits in the window like the widgets around it and an exported picture matches what was on screen. Call it
/// before adding series: Qt's chart theme resets series colours.
void prepareChart(QChart *chart);
/// Colours the axes @p chart has now (labels, titles, grid) for the current palette.
void styleAxes(QChart *chart);

/// The text colour of chart labels for the current palette.
QColor textColour();

/// How wide a data point is drawn on a line: a run of one iteration is a single point, which must be seen.
constexpr double kPointSize = 8;
/// Draws @p series' points @p size pixels across (Qt's default is about 1.4, a dot where there is no line).
void showPoints(QXYSeries *series, double size = kPointSize);
/// Sets @p axis to [@p low, @p high] with room beyond both ends, so a point at either end (a rate of 0 or 1, the first
/// iteration) is drawn whole, not cut in half by the plot's edge: the range grows by a quarter @p step each way, and
/// the ticks stay on round numbers, every @p step from @p low.
void setPaddedRange(QValueAxis *axis, double low, double high, double step);

} // namespace sf::charts
