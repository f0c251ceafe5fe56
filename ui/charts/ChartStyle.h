#pragma once

#include <QColor>
#include <QScatterSeries>

class QBarSet;
class QChart;

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

} // namespace sf::charts
