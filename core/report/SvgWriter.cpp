#include "SvgWriter_p.h"

#include <QList>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>

namespace sf::report {

namespace {

QString num(double v)
{
    static const QRegularExpression trailingZeros(QStringLiteral("\\.?0+$"));
    return QString::number(std::round(v * 100) / 100, 'f', 2).remove(trailingZeros);
}

QString attr(const QString &name, const QString &value)
{
    return QStringLiteral(" %1=\"%2\"").arg(name, value.toHtmlEscaped());
}

QString paint(const QString &fill, const QString &stroke, double strokeWidth)
{
    QString s = attr(QStringLiteral("fill"), fill.isEmpty() ? QStringLiteral("none") : fill);
    if (!stroke.isEmpty())
        s += attr(QStringLiteral("stroke"), stroke) + attr(QStringLiteral("stroke-width"), num(strokeWidth));
    return s;
}

} // namespace

SvgWriter::SvgWriter(double width, double height, const QString &title)
{
    m_svg = QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.2\" baseProfile=\"tiny\" "
                           "width=\"%1\" height=\"%2\" viewBox=\"0 0 %1 %2\" role=\"img\" "
                           "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\"><title>%3</title>\n")
                .arg(num(width), num(height), title.toHtmlEscaped());
}

void SvgWriter::rect(const QRectF &r, const QString &fill, const QString &stroke, double strokeWidth)
{
    m_svg += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\"%5/>\n")
                 .arg(num(r.x()), num(r.y()), num(std::max(0.0, r.width())), num(std::max(0.0, r.height())),
                      paint(fill, stroke, strokeWidth));
}

void SvgWriter::line(QPointF a, QPointF b, const QString &stroke, double width, bool dashed)
{
    m_svg += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%4\"%5%6/>\n")
                 .arg(num(a.x()), num(a.y()), num(b.x()), num(b.y()), paint({}, stroke, width),
                      dashed ? QStringLiteral(" stroke-dasharray=\"4 3\"") : QString());
}

void SvgWriter::polygon(const QList<QPointF> &points, const QString &fill, const QString &stroke)
{
    QStringList coordinates;
    for (const QPointF &p : points)
        coordinates.append(num(p.x()) + u',' + num(p.y()));
    m_svg += QStringLiteral("<polygon points=\"%1\"%2/>\n").arg(coordinates.join(u' '), paint(fill, stroke, 1));
}

void SvgWriter::circle(QPointF centre, double radius, const QString &fill, const QString &stroke)
{
    m_svg += QStringLiteral("<circle cx=\"%1\" cy=\"%2\" r=\"%3\"%4/>\n")
                 .arg(num(centre.x()), num(centre.y()), num(radius), paint(fill, stroke, 1));
}

void SvgWriter::text(QPointF at, const QString &text, double size, Anchor anchor, bool bold, double rotate)
{
    static const QString anchors[] = {QStringLiteral("start"), QStringLiteral("middle"), QStringLiteral("end")};
    QString extra;
    if (bold)
        extra += QStringLiteral(" font-weight=\"bold\"");
    if (rotate != 0)
        extra += QStringLiteral(" transform=\"rotate(%1 %2 %3)\"").arg(num(rotate), num(at.x()), num(at.y()));
    m_svg +=
        QStringLiteral("<text x=\"%1\" y=\"%2\" font-size=\"%3\" text-anchor=\"%4\" fill=\"%5\"%6>%7</text>\n")
            .arg(num(at.x()), num(at.y()), num(size), anchors[int(anchor)], m_textColour, extra, text.toHtmlEscaped());
}

void SvgWriter::hatch(const QRectF &r, const QString &stroke, double spacing, bool crossed)
{
    if (r.width() <= 0 || r.height() <= 0)
        return;
    // Lines x - y = c (rising to the right in screen terms, y down) for c across the rectangle, each cut to it.
    const auto cut = [&](bool rising) {
        for (double c = -r.height(); c < r.width(); c += spacing) {
            // Parametrize along x from the left edge: points (r.left() + t, bottomOrTop -/+ (t - c)).
            QList<QPointF> ends;
            for (double t : {c, c + r.height()}) {
                const double x = std::clamp(t, 0.0, r.width());
                const double d = x - c; // distance travelled up from the bottom edge
                if (d < 0 || d > r.height())
                    continue;
                ends.append(QPointF(r.left() + x, rising ? r.bottom() - d : r.top() + d));
            }
            if (ends.size() == 2 && ends[0] != ends[1])
                line(ends[0], ends[1], stroke, 1);
        }
    };
    cut(true);
    if (crossed)
        cut(false);
}

void SvgWriter::arrow(QPointF from, QPointF to, const QString &stroke, double width)
{
    const QPointF d = to - from;
    const double length = std::hypot(d.x(), d.y());
    if (length < 1)
        return;
    const QPointF unit = d / length;
    const QPointF normal(-unit.y(), unit.x());
    const double head = std::min(9.0, length * 0.6);
    const QPointF base = to - unit * head;
    line(from, base, stroke, width);
    polygon({to, base + normal * (head * 0.45), base - normal * (head * 0.45)}, stroke);
}

void SvgWriter::beginGroup(const QString &tooltip)
{
    m_svg += QStringLiteral("<g><title>%1</title>\n").arg(tooltip.toHtmlEscaped());
}

void SvgWriter::endGroup()
{
    m_svg += QStringLiteral("</g>\n");
}

QString SvgWriter::finish()
{
    return m_svg + QStringLiteral("</svg>\n");
}

} // namespace sf::report
