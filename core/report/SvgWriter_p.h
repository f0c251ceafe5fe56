#pragma once

#include <QPointF>
#include <QRectF>
#include <QString>

class QPainter;

namespace sf::report {

/// Builds one SVG document from the few shapes the report charts draw. Only what both browsers and Qt SVG
/// (SVG Tiny 1.2: no <pattern>, no <clipPath>, no <marker>) render alike, so the inline SVG in HTML and the
/// PNG made from it look the same; hatching and arrow heads are therefore drawn as plain lines and polygons.
class SvgWriter final
{
public:
    SvgWriter(double width, double height, const QString &title);

    /// The fill of every text() from now on.
    void setTextColour(const QString &colour) { m_textColour = colour; }
    void rect(const QRectF &r, const QString &fill, const QString &stroke = {}, double strokeWidth = 1);
    void line(QPointF a, QPointF b, const QString &stroke, double width = 1, bool dashed = false);
    void polygon(const QList<QPointF> &points, const QString &fill, const QString &stroke = {});
    void circle(QPointF centre, double radius, const QString &fill, const QString &stroke = {});
    enum class Anchor
    {
        Start,
        Middle,
        End
    };
    void text(QPointF at, const QString &text, double size = 12, Anchor anchor = Anchor::Start, bool bold = false,
              double rotate = 0);
    /// Diagonal lines across @p r, cut to its edges: the hatching that tells arms apart in grey-scale.
    void hatch(const QRectF &r, const QString &stroke, double spacing = 6, bool crossed = false);
    /// A line from @p from to @p to with a filled head at @p to.
    void arrow(QPointF from, QPointF to, const QString &stroke, double width = 1.5);
    /// Opens a group with a <title> (the tooltip browsers show on hover).
    void beginGroup(const QString &tooltip);
    void endGroup();

    QString finish();

private:
    QString m_svg;
    QString m_textColour = QStringLiteral("#222222");
};

/// The width and height an SVG from SvgWriter declares; empty when it is not one.
QSizeF svgSize(const QString &svg);
/// Paints an SVG from SvgWriter into @p target at its own aspect ratio, centred, its text as text (SvgPainter.cpp
/// says why not Qt SVG). False when it cannot be read.
bool paintSvg(const QString &svg, QPainter &painter, const QRectF &target);

/// The colour text, axes and grid lines take: "currentColor" in HTML (follows the page's light or dark
/// scheme), a fixed dark grey where the SVG is rendered on its own (PNG, PDF).
struct ChartInk
{
    QString text = QStringLiteral("#222222");
    QString grid = QStringLiteral("#bbbbbb");
    QString background = QStringLiteral("#ffffff"); ///< "" for none
};

} // namespace sf::report
