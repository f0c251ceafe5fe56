#include "charts/ChartOverlay.h"

#include "charts/ChartStyle.h"

#include <QChart>
#include <QFontMetricsF>
#include <QPainter>
#include <QtMath>
#include <algorithm>

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
    // Labels may stand a little above the plot area's top edge, or beside or below a point near an edge.
    return m_chart->plotArea().adjusted(-200, -60, 200, 24);
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
    // Each label where it reads best, else nearby, else not at all: two models whose points or bars stand close
    // must not print their names over each other.
    QList<QList<QRectF>> candidates;
    QStringList texts;
    // A name beside a point is at most half the plot wide: a model's long name is cut in the middle.
    const double widest = std::max(120.0, plot.width() * 0.5);
    for (const Label &l : m_labels) {
        const QPointF at = m_chart->mapToPosition(l.at, m_series);
        texts.append(l.beside ? metrics.elidedText(l.text, Qt::ElideMiddle, widest) : l.text);
        const QSizeF size(metrics.horizontalAdvance(texts.last()), metrics.height());
        QList<QRectF> places;
        if (l.beside) {
            const QRectF right(QPointF(at.x() + 9, at.y() - size.height() / 2), size);
            const QRectF left(QPointF(at.x() - 9 - size.width(), at.y() - size.height() / 2), size);
            // To the right of the point, or to its left where the plot ends first; then above or below it.
            if (right.right() <= plot.right())
                places << right << left;
            else
                places << left << right;
            places << QRectF(QPointF(at.x() - size.width() / 2, at.y() - 8 - size.height()), size)
                   << QRectF(QPointF(at.x() - size.width() / 2, at.y() + 8), size);
        } else {
            // Above the point, or a line higher.
            for (int step = 0; step < 3; ++step)
                places << QRectF(QPointF(at.x() - size.width() / 2, at.y() - 4 - size.height() * (step + 1)), size);
        }
        candidates.append(places);
    }
    m_drawn.clear();
    const QList<std::optional<QRectF>> placed = placeLabels(candidates);
    for (int i = 0; i < m_labels.size(); ++i) {
        if (!placed[i])
            continue;
        m_drawn.append(*placed[i]);
        painter->drawText(QPointF(placed[i]->left(), placed[i]->top() + metrics.ascent()), texts[i]);
    }
}

QList<std::optional<QRectF>> ChartOverlay::placeLabels(const QList<QList<QRectF>> &candidates)
{
    QList<std::optional<QRectF>> placed;
    QList<QRectF> taken;
    for (const QList<QRectF> &places : candidates) {
        std::optional<QRectF> chosen;
        for (const QRectF &place : places) {
            const bool free = std::none_of(taken.cbegin(), taken.cend(),
                                           [&](const QRectF &other) { return other.intersects(place); });
            if (free) {
                chosen = place;
                break;
            }
        }
        if (chosen)
            taken.append(*chosen);
        placed.append(chosen);
    }
    return placed;
}

} // namespace sf::charts
