#include "PdfPages_p.h"
#include "SvgWriter_p.h"

#include <QAbstractTextDocumentLayout>
#include <QFontMetricsF>
#include <QPainter>
#include <QPdfWriter>
#include <QRegularExpression>
#include <QTextBlock>
#include <QTextBoundaryFinder>
#include <QTextCursor>
#include <QTextFrame>
#include <QTextObjectInterface>
#include <QTextTable>
#include <algorithm>
#include <numeric>

namespace sf::report {

namespace {

/// How a chart is named in the HTML: <img src="chart:3">, which ChartObject, the document's only image handler, draws.
const QString kChartName = QStringLiteral("chart:%1");
/// Cell padding in the HTML's pixels, which the layout scales from the screen's dots per inch to the writer's.
constexpr int kCellPadding = 3;

} // namespace

/// Draws each chart with the painter that prints the page: vector shapes and real text, at the width the text has
/// and the height its aspect ratio asks for (never taller than most of a page). It stands in for the image handler,
/// so the HTML places charts as images and the layout never sees a bitmap.
class PdfPages::ChartObject final : public QObject, public QTextObjectInterface
{
    Q_OBJECT
    Q_INTERFACES(QTextObjectInterface)

public:
    QStringList svgs;
    QSizeF area;          ///< the text width and the page height
    int unreadCharts = 0; ///< charts drawn while printing whose SVG did not read whole

    QString svgOf(const QTextFormat &format) const
    {
        const QString name = format.toImageFormat().name();
        return name.startsWith(kChartName.arg(QString())) ? svgs.value(name.section(u':', 1).toInt()) : QString();
    }

    QSizeF intrinsicSize(QTextDocument *, int, const QTextFormat &format) override
    {
        const QSizeF svg = svgSize(svgOf(format));
        if (svg.isEmpty())
            return {};
        return svg.scaled(QSizeF(area.width(), area.height() * 0.9), Qt::KeepAspectRatio);
    }

    void drawObject(QPainter *painter, const QRectF &rect, QTextDocument *, int, const QTextFormat &format) override
    {
        // A chart is never split, so it lies on one page: the page above it, which the layout also asks to draw it
        // for, would otherwise hold its text, clipped out of sight but still there for a reader to find.
        if (painter->hasClipping() && !painter->clipBoundingRect().contains(rect.center()))
            return;
        if (!paintSvg(svgOf(format), *painter, rect))
            ++unreadCharts;
    }
};

PdfPages::PdfPages(QPdfWriter &writer, const QFont &font)
    : m_writer(writer)
    , m_font(font)
    , m_charts(std::make_unique<ChartObject>())
{
    // Laid out in the writer's own units: a point is a point whatever screen the report is made on.
    const QRectF paintRect = writer.pageLayout().paintRectPixels(writer.resolution());
    m_footerHeight = QFontMetricsF(font, &writer).height() * 2;
    m_document.documentLayout()->setPaintDevice(&writer);
    m_document.setDefaultFont(font);
    m_document.setDocumentMargin(0);
    m_document.setPageSize(QSizeF(paintRect.width(), paintRect.height() - m_footerHeight));
    m_charts->area = m_document.pageSize();
    m_document.documentLayout()->registerHandler(QTextFormat::ImageObject, m_charts.get());
}

PdfPages::~PdfPages() = default;

namespace {

/// The widest piece of @p text that the line breaker cannot split (a word, "local:qwen2.5-", a hash), and the
/// width of the whole text on one line.
std::pair<qreal, qreal> textWidths(const QString &text, const QFontMetricsF &metrics)
{
    qreal widest = 0;
    QTextBoundaryFinder lines(QTextBoundaryFinder::Line, text);
    qsizetype start = 0;
    for (qsizetype end = lines.toNextBoundary(); end > 0; end = lines.toNextBoundary()) {
        widest = std::max(widest, metrics.horizontalAdvance(text.mid(start, end - start).trimmed()));
        start = end;
    }
    return {widest, metrics.horizontalAdvance(text)};
}

/// What a table's columns need: the widest unbreakable word and the whole line of each, and the room the page gives
/// their text once each column's padding and border (the overhead) are taken off.
struct ColumnNeeds
{
    QList<qreal> least, natural;
    qreal overhead = 0, room = 0;

    bool fits() const { return std::accumulate(least.begin(), least.end(), 0.0) <= room; }
};

ColumnNeeds columnNeeds(const QStringList &header, const QList<QStringList> &rows, const QFont &font,
                        QPaintDevice *device, qreal tableWidth)
{
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF plain(font, device), heading(bold, device);
    const qsizetype columns = header.size();
    ColumnNeeds needs{QList<qreal>(columns, 0), QList<qreal>(columns, 0)};
    const auto measure = [&](qsizetype column, const QString &text, const QFontMetricsF &metrics) {
        const auto [word, line] = textWidths(text, metrics);
        needs.least[column] = std::max(needs.least[column], word);
        needs.natural[column] = std::max(needs.natural[column], line);
    };
    for (qsizetype c = 0; c < columns; ++c)
        measure(c, header[c], heading);
    for (const QStringList &row : rows) {
        for (qsizetype c = 0; c < std::min(columns, row.size()); ++c)
            measure(c, row[c], plain);
    }
    // Padding on both sides and a border, as the layout will scale them (from at least 72 dpi, so never less).
    needs.overhead = 2 * kCellPadding * device->logicalDpiX() / 72.0 + device->logicalDpiX() / 72.0;
    needs.room = std::max(tableWidth - needs.overhead * qreal(columns), tableWidth / 2);
    return needs;
}

/// Column widths as percentages of the table's width: each column gets at least its widest unbreakable word, the
/// rest shared by how much longer its text is; only when the words alone are wider than the page do they shrink.
QList<qreal> columnPercentages(ColumnNeeds needs)
{
    const qsizetype columns = needs.least.size();
    const qreal room = needs.room;
    for (qsizetype c = 0; c < columns; ++c) {
        needs.least[c] = std::min(needs.least[c], room / 2); // one unbreakable giant does not starve the others
        needs.natural[c] = std::max(needs.natural[c], needs.least[c]);
    }
    const qreal sumLeast = std::accumulate(needs.least.begin(), needs.least.end(), 0.0);
    const qreal sumNatural = std::accumulate(needs.natural.begin(), needs.natural.end(), 0.0);
    QList<qreal> percentages;
    for (qsizetype c = 0; c < columns; ++c) {
        const qreal least = needs.least[c], natural = needs.natural[c];
        const qreal width = sumNatural <= room ? natural * room / std::max(sumNatural, 1.0)
                            : sumLeast <= room
                                ? least + (natural - least) * (room - sumLeast) / std::max(sumNatural - sumLeast, 1.0)
                                : least * room / sumLeast;
        percentages.append((width + needs.overhead) * 100 / (room + needs.overhead * qreal(columns)));
    }
    return percentages;
}

} // namespace

QString PdfPages::table(const QStringList &header, const QList<QStringList> &rows, const QStringList &cellColours) const
{
    const QList<qreal> percentages =
        columnPercentages(columnNeeds(header, rows, m_font, &m_writer, m_document.pageSize().width()));
    QString html = QStringLiteral("<table border=\"1\" cellspacing=\"0\" cellpadding=\"%1\" width=\"100%\"><thead><tr>")
                       .arg(kCellPadding);
    for (qsizetype c = 0; c < header.size(); ++c)
        html += QStringLiteral("<th bgcolor=\"#eeeeee\" align=\"left\" width=\"%1%\">%2</th>")
                    .arg(QString::number(percentages[c], 'f', 2), header[c].toHtmlEscaped());
    html += QStringLiteral("</tr></thead>");
    for (qsizetype r = 0; r < rows.size(); ++r) {
        html += QStringLiteral("<tr>");
        for (qsizetype c = 0; c < rows[r].size(); ++c) {
            const QString colour = cellColours.value(r * header.size() + c);
            html += QStringLiteral("<td%1>%2</td>")
                        .arg(colour.isEmpty() ? QString() : QStringLiteral(" bgcolor=\"%1\"").arg(colour),
                             rows[r][c].toHtmlEscaped());
        }
        html += QStringLiteral("</tr>");
    }
    return html + QStringLiteral("</table>");
}

bool PdfPages::fitsWidth(const QStringList &header, const QList<QStringList> &rows) const
{
    return columnNeeds(header, rows, m_font, &m_writer, m_document.pageSize().width()).fits();
}

QString PdfPages::chart(const QString &svg)
{
    if (svgSize(svg).isEmpty())
        return {};
    m_charts->svgs.append(svg);
    return QStringLiteral("<p align=\"center\"><img src=\"%1\"></p>").arg(kChartName.arg(m_charts->svgs.size() - 1));
}

namespace {

/// The bottom of what must share a page with the heading @p heading: the first block after it that is not a
/// heading, or, for a table, its header and first two rows.
qreal followingBottom(const QTextBlock &heading, QAbstractTextDocumentLayout *layout)
{
    QTextBlock next = heading.next();
    while (next.isValid() && next.blockFormat().headingLevel() > 0)
        next = next.next();
    if (!next.isValid())
        return layout->blockBoundingRect(heading).bottom();
    QTextTable *table = QTextCursor(next).currentTable();
    if (!table)
        return layout->blockBoundingRect(next).bottom();
    const int lastRow = std::min(table->rows() - 1, 2);
    qreal bottom = 0;
    for (int column = 0; column < table->columns(); ++column) {
        const QTextTableCell cell = table->cellAt(lastRow, column);
        bottom = std::max(bottom, layout->blockBoundingRect(cell.lastCursorPosition().block()).bottom());
    }
    return bottom;
}

/// @p html with a page break before each heading (<h1> to <h6>, counted from 0 in their order) in @p breaks.
QString withPageBreaks(const QString &html, const QList<int> &breaks)
{
    static const QRegularExpression heading(QStringLiteral("<h([1-6])([ >])"));
    QString result;
    qsizetype copied = 0;
    int index = 0;
    for (const QRegularExpressionMatch &match : heading.globalMatch(html)) {
        if (breaks.contains(index++)) {
            result += QStringView(html).mid(copied, match.capturedStart() - copied) + QStringLiteral("<h") +
                      match.captured(1) + QStringLiteral(" style=\"page-break-before: always\"") + match.captured(2);
            copied = match.capturedEnd();
        }
    }
    return result + QStringView(html).mid(copied);
}

} // namespace

void PdfPages::setHtml(const QString &html)
{
    // Qt's layout of a paginated document is not reliable after the document changes (blocks below a changed one
    // can stay unlaid and unprinted), so the page breaks go into the HTML and the whole is laid out again.
    QList<int> breaks;
    for (;;) {
        m_document.setHtml(withPageBreaks(html, breaks));
        const QList<int> more = headingsApartFromTheirContent();
        if (more.isEmpty())
            return;
        breaks += more;
    }
}

QList<int> PdfPages::headingsApartFromTheirContent() const
{
    // A heading moved down moves all below it up to the next page break, where the layout starts afresh: one heading
    // per stretch between page breaks each time round.
    QAbstractTextDocumentLayout *layout = m_document.documentLayout();
    const qreal pageHeight = m_document.pageSize().height();
    QList<int> apart;
    bool stretchMoved = false;
    int index = -1;
    for (QTextBlock block = m_document.begin(); block.isValid(); block = block.next()) {
        if (block.blockFormat().headingLevel() == 0)
            continue;
        ++index;
        if (block.blockFormat().pageBreakPolicy().testFlag(QTextFormat::PageBreak_AlwaysBefore)) {
            stretchMoved = false;
            continue;
        }
        if (stretchMoved)
            continue;
        const qreal top = layout->blockBoundingRect(block).top();
        const qreal bottom = followingBottom(block, layout);
        if (int(top / pageHeight) == int(bottom / pageHeight) || bottom - top >= pageHeight)
            continue; // together, or too tall to be together on any page
        apart.append(index);
        stretchMoved = true;
    }
    return apart;
}

bool PdfPages::print()
{
    m_charts->unreadCharts = 0;
    QPainter painter(&m_writer);
    painter.setFont(m_font);
    const QSizeF page = m_document.pageSize();
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette.setColor(QPalette::Text, Qt::black);
    for (int index = 0; index < m_document.pageCount(); ++index) {
        if (index > 0)
            m_writer.newPage();
        const QRectF view(QPointF(0, index * page.height()), page);
        painter.save();
        painter.translate(0, -view.top());
        painter.setClipRect(view);
        context.clip = view;
        m_document.documentLayout()->draw(&painter, context);
        painter.restore();
        painter.drawText(QRectF(0, page.height(), page.width(), m_footerHeight), Qt::AlignRight | Qt::AlignBottom,
                         QString::number(index + 1));
    }
    return m_charts->unreadCharts == 0;
}

} // namespace sf::report

#include "PdfPages.moc"
