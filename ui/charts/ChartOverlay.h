#pragma once

#include <QColor>
#include <QGraphicsObject>
#include <QList>
#include <QPointF>
#include <QRectF>
#include <optional>

class QAbstractSeries;
class QChart;

namespace sf::charts {

/// Marks QtCharts has no series for, drawn over a chart's plot area in value coordinates: interval whiskers,
/// arrows from one point to another, and short text labels. Positions go through QChart::mapToPosition at paint
/// time, so the marks follow resizes, and grabs, prints and SVG exports include them (they are scene items).
class ChartOverlay final : public QGraphicsObject
{
    Q_OBJECT

public:
    /// A vertical interval with caps at both ends.
    struct Whisker
    {
        double x = 0;
        double low = 0;
        double high = 0;
        QColor colour;
    };
    struct Arrow
    {
        QPointF from;
        QPointF to;
        QColor colour;
    };
    /// Text at @p at (value coordinates): centred above it, or to its right (beside a point).
    struct Label
    {
        QPointF at;
        QString text;
        bool beside = false;
    };

    /// Draws over @p chart, mapping values through @p series (its axes define the coordinates).
    ChartOverlay(QChart *chart, QAbstractSeries *series);

    void addWhisker(const Whisker &whisker) { m_whiskers.append(whisker); }
    void addArrow(const Arrow &arrow) { m_arrows.append(arrow); }
    void addLabel(const Label &label) { m_labels.append(label); }
    const QList<Whisker> &whiskers() const { return m_whiskers; }
    const QList<Arrow> &arrows() const { return m_arrows; }
    const QList<Label> &labels() const { return m_labels; }

    /// Where the labels were drawn last (scene pixels): those that found a place free of the others; a label
    /// with none is left out rather than printed over another.
    const QList<QRectF> &drawnLabels() const { return m_drawn; }

    /// For each label, the first of its @p candidates (places in order of preference) that overlaps no label
    /// placed before it; nullopt where every candidate does.
    static QList<std::optional<QRectF>> placeLabels(const QList<QList<QRectF>> &candidates);

    QRectF boundingRect() const override;
    void paint(QPainter *painter, const QStyleOptionGraphicsItem *option, QWidget *widget) override;

private:
    QChart *m_chart;
    QAbstractSeries *m_series;
    QList<Whisker> m_whiskers;
    QList<Arrow> m_arrows;
    QList<Label> m_labels;
    QList<QRectF> m_drawn;
};

} // namespace sf::charts
