#pragma once

#include <QFont>
#include <QList>
#include <QString>
#include <QStringList>
#include <QTextDocument>
#include <memory>

class QPdfWriter;

namespace sf::report {

/**
 * A QTextDocument laid out in the points of a QPdfWriter's pages and printed on them, so nothing depends on the
 * screen the report was made on: tables span the text width with each column as wide as its longest word needs
 * (words break mid-way only where a word is wider than a whole column could be), charts are drawn as vectors at
 * their own aspect ratio and never split, and a heading never stays at the foot of a page without what it heads.
 */
class PdfPages final
{
public:
    /// Lays out on @p writer's page size and margins (set them first), in @p font.
    PdfPages(QPdfWriter &writer, const QFont &font);
    ~PdfPages();
    PdfPages(const PdfPages &) = delete;
    PdfPages &operator=(const PdfPages &) = delete;

    /// A <table> of @p header and @p rows, its column widths measured from their text; @p cellColours, when given,
    /// holds a background colour (or "") for each cell, row by row. The text is escaped here.
    QString table(const QStringList &header, const QList<QStringList> &rows, const QStringList &cellColours = {}) const;
    /// Whether every column of such a table is as wide as its longest word.
    bool fitsWidth(const QStringList &header, const QList<QStringList> &rows) const;
    /// A paragraph that holds @p svg, drawn across the text width; "" when the SVG cannot be read.
    QString chart(const QString &svg);

    /// Lays the document out, headings moved to the next page where what follows them would not start on theirs.
    void setHtml(const QString &html);
    /// Prints every page, numbered at its foot. False when a chart's SVG did not read whole (drawn, but not as
    /// written).
    bool print();

    int pageCount() const { return m_document.pageCount(); }

private:
    class ChartObject;

    /// The headings (counted from 0) that stand at the foot of a page while what they head starts on the next.
    QList<int> headingsApartFromTheirContent() const;

    QPdfWriter &m_writer;
    QFont m_font;
    QTextDocument m_document;
    std::unique_ptr<ChartObject> m_charts;
    qreal m_footerHeight = 0;
};

} // namespace sf::report
