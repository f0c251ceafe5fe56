#pragma once

#include <QBrush>
#include <QGraphicsObject>
#include <QList>
#include <QPen>
#include <QString>

class QChart;

namespace sf::charts {

/// A chart's legend that wraps instead of truncating. Qt's legend cuts every label to fit one row, so four entries
/// such as "v1 — without skill" read "v1 (…" alike in a third of a window; this one puts as many entries in a row as
/// fit, starts another row below, and elides only an entry wider than the whole chart. It replaces the chart's own
/// legend (hidden), lists what that legend would (each bar set, scatter and line series: name, brush, pen), reserves
/// its rows in the chart's bottom margin, and is a scene item, so PNG and SVG exports include it.
class ChartLegend final : public QGraphicsObject
{
    Q_OBJECT

public:
    struct Entry
    {
        QString text;
        QBrush brush;
        QPen pen;
        enum class Swatch
        {
            Box,
            Circle,
            Line
        } swatch = Swatch::Box;
    };

    /// Attaches a legend to @p chart, once its series are added; returns it (the chart owns it).
    static ChartLegend *attach(QChart *chart);

    const QList<Entry> &entries() const { return m_entries; }
    /// The entries' texts as drawn at the chart's present width (elided only where an entry is wider than a row).
    const QStringList &shownTexts() const { return m_shown; }
    /// How many rows the entries take at the chart's present width.
    int rowCount() const { return m_rows; }

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    ChartLegend(QChart *chart, QList<Entry> entries);
    void relayout();

    QChart *m_chart;
    QList<Entry> m_entries;
    QStringList m_shown;
    QList<QRectF> m_places; ///< per entry: swatch and text, in chart coordinates
    QRectF m_area;
    int m_rows = 0;
    int m_baseBottomMargin = 0;
};

/// The wrapping legend attached to @p chart, or nullptr.
ChartLegend *legendOf(QChart *chart);

} // namespace sf::charts
