// Paints the SVG subset SvgWriter writes with QPainter, for the PDF: Qt SVG draws every glyph of a <text> as a
// path (its pens always have a style, so text takes the outline route), and a PDF's reader can then neither find nor
// copy a chart's words.
#include "SvgWriter_p.h"

#include <QPainter>
#include <QXmlStreamReader>

namespace sf::report {

namespace {

QStringView get(const QXmlStreamAttributes &attributes, const char *name)
{
    return attributes.value(QLatin1StringView(name));
}

bool has(const QXmlStreamAttributes &attributes, const char *name)
{
    return attributes.hasAttribute(QLatin1StringView(name));
}

// Every number the painter reads goes through here. The SVG is SvgWriter's own, so a number that does not read is a
// writer bug: it is drawn as 0 but counted, and paintSvg() then says the chart was not drawn as written.
double toNumber(QStringView text, bool &allRead)
{
    bool ok = false;
    const double value = text.trimmed().toDouble(&ok);
    allRead = allRead && ok;
    return ok ? value : 0;
}

double number(const QXmlStreamAttributes &attributes, const char *name, bool &allRead)
{
    return toNumber(get(attributes, name), allRead);
}

QColor colourOf(const QStringView value)
{
    if (value.isEmpty() || value == u"none")
        return {};
    if (value == u"currentColor")
        return Qt::black;
    return QColor::fromString(value);
}

QPen penOf(const QXmlStreamAttributes &attributes, bool &allRead)
{
    const QColor colour = colourOf(get(attributes, "stroke"));
    if (!colour.isValid())
        return Qt::NoPen;
    const double width = has(attributes, "stroke-width") ? number(attributes, "stroke-width", allRead) : 1;
    QPen pen(colour, width, Qt::SolidLine, Qt::FlatCap, Qt::MiterJoin);
    const QStringView dashes = get(attributes, "stroke-dasharray");
    if (!dashes.isEmpty() && width > 0) {
        QList<qreal> pattern;
        for (const QStringView dash : dashes.split(u' ', Qt::SkipEmptyParts))
            pattern.append(toNumber(dash, allRead) / width);
        pen.setDashPattern(pattern);
    }
    return pen;
}

QBrush brushOf(const QXmlStreamAttributes &attributes)
{
    // SVG fills with black where no fill is named.
    if (!has(attributes, "fill"))
        return Qt::black;
    const QColor colour = colourOf(get(attributes, "fill"));
    return colour.isValid() ? QBrush(colour) : QBrush(Qt::NoBrush);
}

void paintText(QPainter &painter, const QXmlStreamAttributes &attributes, const QString &family, const QString &text,
               bool &allRead)
{
    // Laid out at ten times its size and scaled back, as Qt SVG does: glyph advances rounded at a small pixel size
    // would space the letters out ("P a s s  r a t e") once scaled up to the page.
    constexpr double kLayoutScale = 10;
    const double size = has(attributes, "font-size") ? number(attributes, "font-size", allRead) : 12;
    QFont font(family);
    font.setPixelSize(std::max(1, qRound(size * kLayoutScale)));
    font.setBold(get(attributes, "font-weight") == u"bold");
    font.setHintingPreference(QFont::PreferNoHinting);
    const QPointF at(number(attributes, "x", allRead), number(attributes, "y", allRead));
    painter.save();
    if (const QStringView transform = get(attributes, "transform"); transform.startsWith(u"rotate(")) {
        const QList<QStringView> parts = transform.mid(7).chopped(1).split(u' ', Qt::SkipEmptyParts);
        const QPointF centre =
            parts.size() == 3 ? QPointF(toNumber(parts[1], allRead), toNumber(parts[2], allRead)) : QPointF();
        painter.translate(centre);
        painter.rotate(toNumber(parts.value(0), allRead));
        painter.translate(-centre);
    }
    painter.translate(at);
    painter.scale(1 / kLayoutScale, 1 / kLayoutScale);
    painter.setFont(font);
    painter.setPen(brushOf(attributes).color());
    const double width = painter.fontMetrics().horizontalAdvance(text);
    const QStringView anchor = get(attributes, "text-anchor");
    const double x = anchor == u"middle" ? -width / 2 : anchor == u"end" ? -width : 0;
    painter.drawText(QPointF(x, 0), text);
    painter.restore();
}

} // namespace

QSizeF svgSize(const QString &svg)
{
    QXmlStreamReader reader(svg);
    while (reader.readNextStartElement()) {
        if (reader.name() == u"svg") {
            bool allRead = true;
            const QSizeF size(number(reader.attributes(), "width", allRead),
                              number(reader.attributes(), "height", allRead));
            return allRead ? size : QSizeF();
        }
    }
    return {};
}

bool paintSvg(const QString &svg, QPainter &painter, const QRectF &target)
{
    const QSizeF size = svgSize(svg);
    if (size.isEmpty())
        return false;
    const QSizeF placed = size.scaled(target.size(), Qt::KeepAspectRatio);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.translate(target.center() - QPointF(placed.width(), placed.height()) / 2);
    painter.scale(placed.width() / size.width(), placed.height() / size.height());
    QString family;
    bool allRead = true;
    QXmlStreamReader reader(svg);
    while (!reader.atEnd()) {
        if (reader.readNext() != QXmlStreamReader::StartElement)
            continue;
        const QXmlStreamAttributes a = reader.attributes();
        const QStringView name = reader.name();
        if (name == u"svg") {
            family = get(a, "font-family").toString().section(u',', 0, 0).trimmed();
        } else if (name == u"title") {
            reader.skipCurrentElement(); // a tooltip in a browser, nothing on paper
        } else if (name == u"text") {
            paintText(painter, a, family, reader.readElementText(), allRead);
        } else {
            painter.setPen(penOf(a, allRead));
            painter.setBrush(brushOf(a));
            if (name == u"rect") {
                painter.drawRect(QRectF(number(a, "x", allRead), number(a, "y", allRead), number(a, "width", allRead),
                                        number(a, "height", allRead)));
            } else if (name == u"line") {
                painter.drawLine(QPointF(number(a, "x1", allRead), number(a, "y1", allRead)),
                                 QPointF(number(a, "x2", allRead), number(a, "y2", allRead)));
            } else if (name == u"circle") {
                const double r = number(a, "r", allRead);
                painter.drawEllipse(QPointF(number(a, "cx", allRead), number(a, "cy", allRead)), r, r);
            } else if (name == u"polygon") {
                QPolygonF polygon;
                for (const QStringView point : get(a, "points").split(u' ', Qt::SkipEmptyParts)) {
                    const qsizetype comma = point.indexOf(u',');
                    polygon.append(
                        QPointF(toNumber(point.left(comma), allRead), toNumber(point.mid(comma + 1), allRead)));
                }
                painter.drawPolygon(polygon);
            }
        }
    }
    painter.restore();
    return !reader.hasError() && allRead;
}

} // namespace sf::report
