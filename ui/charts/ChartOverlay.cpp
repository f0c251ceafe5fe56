#include "charts/ChartOverlay.h"

#include "charts/ChartStyle.h"

#include <QChart>
#include <QFontMetricsF>
#include <QPainter>
#include <QtMath>

namespace sf::charts {

ChartOverlay::ChartOverlay(QChart *chart, QAbstractSeries *series)
    : QGraphicsObject(chart)
    , m_chart(chart)
    , m_series(series)
{
    setZValue(20); // above series and their labels
    connect(chart, &QChart::plotAreaChanged, this, [this] {
        prepareGeometryChange();
        update();
    });
}

QRectF ChartOverlay::boundingRect() const
{
    // Labels may stand a little above the plot area's top edge.
    return m_chart->plotArea().adjusted(-200, -24, 200, 4);
}

void ChartOverlay::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    painter->setRenderHint(QPainter::Antialiasing);
    const QRectF plot = m_chart->plotArea();
    painter->save();
    painter->setClipRect(plot.adjusted(-2, -2, 2, 2));
    constexpr double cap = 4.0;
    for (const Whisker &w : m_whiskers) {
        const QPointF low = m_chart->mapToPosition(QPointF(w.x, w.low), m_series);
        const QPointF high = m_chart->mapToPosition(QPointF(w.x, w.high), m_series);
        // A thin outline in the background colour keeps the whisker visible where it crosses a bar of its colour.
        for (const QPen &pen : {QPen(m_chart->backgroundBrush().color(), 3.5), QPen(textColour(), 1.5)}) {
            painter->setPen(pen);
            painter->drawLine(low, high);
            painter->drawLine(low - QPointF(cap, 0), low + QPointF(cap, 0));
            painter->drawLine(high - QPointF(cap, 0), high + QPointF(cap, 0));
        }
    }
    for (const Arrow &a : m_arrows) {
        const QPointF from = m_chart->mapToPosition(a.from, m_series);
        const QPointF to = m_chart->mapToPosition(a.to, m_series);
        const QLineF line(from, to);
        if (line.length() < 1)
            continue;
        painter->setPen(QPen(a.colour, 1.6));
        painter->drawLine(line);
        // The head is drawn in pixels, so it keeps its shape whatever the axes' scales.
        const double angle = qDegreesToRadians(line.angle());
        const double head = qMin(9.0, line.length() / 2);
        QPolygonF tip;
        tip << to
            << to + QPointF(-head * std::cos(angle - 0.4), head * std::sin(angle - 0.4))
            << to + QPointF(-head * std::cos(angle + 0.4), head * std::sin(angle + 0.4));
        painter->setBrush(a.colour);
        painter->drawPolygon(tip);
    }
    painter->restore();
    painter->setPen(textColour());
    const QFontMetricsF metrics(painter->font());
    for (const Label &l : m_labels) {
        const QPointF at = m_chart->mapToPosition(l.at, m_series);
        const double width = metrics.horizontalAdvance(l.text);
        if (l.beside) {
            // To the right of the point, or to its left where the plot ends first.
            const double x = at.x() + 9 + width <= plot.right() ? at.x() + 9 : at.x() - 9 - width;
            painter->drawText(QPointF(x, at.y() + metrics.ascent() / 2 - 1), l.text);
        } else {
            painter->drawText(QPointF(at.x() - width / 2, at.y() - 4), l.text);
        }
    }
}

} // namespace sf::charts
