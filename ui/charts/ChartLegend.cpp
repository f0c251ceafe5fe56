#include "charts/ChartLegend.h"

#include "charts/ChartStyle.h"

#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QFontMetricsF>
#include <QLegend>
#include <QLineSeries>
#include <QPainter>
#include <QScatterSeries>

namespace sf::charts {

namespace {

constexpr double kSwatch = 11;  ///< the colour sample's size
constexpr double kGap = 5;      ///< between sample and text
constexpr double kSpacing = 14; ///< between entries in a row
constexpr double kPadding = 6;  ///< left and right of the rows

} // namespace

ChartLegend *ChartLegend::attach(QChart *chart)
{
    // From the series themselves: Qt's legend makes its markers only once the chart is in a scene.
    QList<Entry> entries;
    for (QAbstractSeries *series : chart->series()) {
        if (auto *bars = qobject_cast<QAbstractBarSeries *>(series)) {
            for (const QBarSet *set : bars->barSets())
                entries.append({set->label(), set->brush(), set->pen(), Entry::Swatch::Box});
        } else if (auto *points = qobject_cast<QScatterSeries *>(series)) {
            entries.append({points->name(), points->brush(), points->pen(),
                            points->markerShape() == QScatterSeries::MarkerShapeCircle ? Entry::Swatch::Circle
                                                                                       : Entry::Swatch::Box});
        } else if (auto *line = qobject_cast<QLineSeries *>(series)) {
            entries.append({line->name(), QBrush(), QPen(line->color(), 2.5), Entry::Swatch::Line});
        }
    }
    chart->legend()->hide();
    return new ChartLegend(chart, std::move(entries));
}

ChartLegend::ChartLegend(QChart *chart, QList<Entry> entries)
    : QGraphicsObject(chart)
    , m_chart(chart)
    , m_entries(std::move(entries))
    , m_baseBottomMargin(chart->margins().bottom())
{
    setZValue(20);
    connect(chart, &QGraphicsWidget::geometryChanged, this, &ChartLegend::relayout);
    relayout();
}

void ChartLegend::relayout()
{
    prepareGeometryChange();
    m_places.clear();
    m_shown.clear();
    const QFontMetricsF metrics(m_chart->legend()->font());
    const double rowHeight = std::max(kSwatch, metrics.height()) + 4;
    const double width = std::max(40.0, m_chart->size().width() - 2 * kPadding);
    // Flow the entries into rows; an entry wider than a row is elided to fit one.
    QList<QList<int>> rows;
    QList<double> rowWidths;
    double used = 0;
    for (int i = 0; i < m_entries.size(); ++i) {
        const double room = width - kSwatch - kGap;
        const QString text = metrics.elidedText(m_entries[i].text, Qt::ElideMiddle, room);
        m_shown.append(text);
        const double entryWidth = kSwatch + kGap + metrics.horizontalAdvance(text);
        if (rows.isEmpty() || used + kSpacing + entryWidth > width) {
            rows.append(QList<int>());
            rowWidths.append(0);
            used = entryWidth;
        } else {
            used += kSpacing + entryWidth;
        }
        rows.last().append(i);
        rowWidths.last() = used;
        m_places.append(QRectF(0, 0, entryWidth, rowHeight));
    }
    m_rows = int(rows.size());
    const double height = m_rows * rowHeight + (m_rows > 0 ? 4 : 0);
    const double top = m_chart->size().height() - m_baseBottomMargin - height;
    // Centred rows, as Qt's legend sits.
    for (int r = 0; r < rows.size(); ++r) {
        double x = kPadding + (width - rowWidths[r]) / 2;
        for (const int i : rows[r]) {
            m_places[i].moveTopLeft(QPointF(x, top + r * rowHeight));
            x += m_places[i].width() + kSpacing;
        }
    }
    m_area = QRectF(0, top, m_chart->size().width(), height);
    QMargins margins = m_chart->margins();
    if (margins.bottom() != m_baseBottomMargin + int(std::ceil(height))) {
        margins.setBottom(m_baseBottomMargin + int(std::ceil(height)));
        m_chart->setMargins(margins);
    }
    update();
}

QRectF ChartLegend::boundingRect() const
{
    return m_area;
}

void ChartLegend::paint(QPainter *painter, const QStyleOptionGraphicsItem *, QWidget *)
{
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setFont(m_chart->legend()->font());
    const QFontMetricsF metrics(painter->font());
    for (int i = 0; i < m_entries.size(); ++i) {
        const Entry &entry = m_entries[i];
        const QRectF place = m_places[i];
        const QRectF swatch(place.left(), place.center().y() - kSwatch / 2, kSwatch, kSwatch);
        switch (entry.swatch) {
        case Entry::Swatch::Box:
            painter->setPen(entry.pen);
            painter->setBrush(entry.brush);
            painter->drawRect(swatch.adjusted(0.5, 0.5, -0.5, -0.5));
            break;
        case Entry::Swatch::Circle:
            painter->setPen(entry.pen);
            painter->setBrush(entry.brush);
            painter->drawEllipse(swatch.adjusted(1, 1, -1, -1));
            break;
        case Entry::Swatch::Line:
            painter->setPen(entry.pen);
            painter->drawLine(QPointF(swatch.left(), swatch.center().y()),
                              QPointF(swatch.right(), swatch.center().y()));
            painter->setBrush(entry.pen.color());
            painter->setPen(Qt::NoPen);
            painter->drawEllipse(swatch.center(), 3, 3);
            break;
        }
        painter->setPen(textColour());
        painter->drawText(QPointF(swatch.right() + kGap, place.center().y() + metrics.ascent() / 2 - 1.5),
                          m_shown.value(i));
    }
}

ChartLegend *legendOf(QChart *chart)
{
    for (QGraphicsItem *item : chart->childItems()) {
        if (auto *legend = dynamic_cast<ChartLegend *>(item))
            return legend;
    }
    return nullptr;
}

} // namespace sf::charts
