// The PDF report: the HTML subset QTextDocument lays out, printed page by page through QPdfWriter (PdfPages), so its
// text is real text (searchable, readable by pdftotext) and its charts are the same drawings as vectors.
#include "PdfPages_p.h"
#include "ReportTables_p.h"
#include "ReportWriters_p.h"
#include "common/Secrets.h"

#include <QBuffer>
#include <QPageLayout>
#include <QPdfWriter>
#include <algorithm>

namespace sf::report {

namespace {

QString esc(const QString &text)
{
    return text.toHtmlEscaped();
}

void appendTable(QString &html, const PdfPages &pages, const Table &table, const QStringList &cellColours = {})
{
    if (!table.title.isEmpty())
        html += QStringLiteral("<h3>%1</h3>").arg(esc(table.title));
    html += pages.table(table.header, table.rows, cellColours);
    if (!table.note.isEmpty())
        html += QStringLiteral("<p><small>%1</small></p>").arg(esc(table.note));
}

QString cellColour(const CaseCell &cell)
{
    const auto rate = cell.passRate();
    if (!rate)
        return cell.errors ? QStringLiteral("#d0d0d0") : QString();
    const int r = qRound(0xE6 + (0x56 - 0xE6) * *rate), g = qRound(0x9F + (0xB4 - 0x9F) * *rate),
              b = qRound(0x00 + (0xE9 - 0x00) * *rate);
    return QStringLiteral("#%1%2%3")
        .arg(r, 2, 16, QLatin1Char('0'))
        .arg(g, 2, 16, QLatin1Char('0'))
        .arg(b, 2, 16, QLatin1Char('0'));
}

/// The case matrix's three case columns and @p count of its model and arm columns from @p first.
Table matrixPart(const Table &matrix, qsizetype first, qsizetype count)
{
    Table part = matrix;
    part.header = matrix.header.mid(0, 3) + matrix.header.mid(3 + first, count);
    for (QStringList &row : part.rows)
        row = row.mid(0, 3) + row.mid(3 + first, count);
    return part;
}

Table problemsTable(const RunAnalysis &run, int limit)
{
    Table table;
    table.title = QStringLiteral("Failures and errors");
    table.header = {QStringLiteral("Case"),   QStringLiteral("Model"),   QStringLiteral("Arm"),
                    QStringLiteral("Repeat"), QStringLiteral("Outcome"), QStringLiteral("Evidence")};
    int total = 0;
    for (int index : detailItems(run, int(run.results.size()))) {
        const ItemResult &r = run.results[index];
        if (r.passed && !r.isError())
            continue;
        ++total;
        if (table.rows.size() >= limit)
            continue;
        QStringList evidence;
        if (r.isError())
            evidence.append(r.error);
        for (const VerifierOutcome &v : r.verifiers) {
            if (!v.passed)
                evidence.append(QStringLiteral("%1: %2").arg(verifierLabel(v), v.evidence));
        }
        table.rows.append({r.key.caseId, r.key.model, armLabel(r.key.arm), QString::number(r.key.repeat),
                           isSilentBypass(r) ? outcomeOf(r) + QStringLiteral(" (silent bypass)") : outcomeOf(r),
                           evidence.join(QStringLiteral("; ")).left(400)});
    }
    table.note = QStringLiteral("%1 items failed or ended in an error; items of flipped cases first.").arg(total);
    if (total > limit)
        table.note +=
            QStringLiteral(" The first %1 are listed; the HTML, JSON and CSV reports have them all.").arg(limit);
    return table;
}

} // namespace

QByteArray pdfReport(const ReportSource &source, QString *error)
{
    const RunAnalysis &run = *source.run;
    const QList<const RunAnalysis *> runs = source.runs();
    QByteArray pdf;
    QBuffer buffer(&pdf);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter writer(&buffer);
    writer.setPageSize(QPageSize(QPageSize::A4));
    writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
    writer.setTitle(QStringLiteral("Skill report: %1").arg(run.manifest.skillName));
    writer.setCreator(generatedBy());
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(8.5);
    PdfPages pages(writer, font);

    QString html =
        QStringLiteral("<html><body><h1>Skill report: %1</h1><p>%2</p><h2>What was measured</h2>")
            .arg(esc(run.manifest.skillName),
                 esc(source.compare ? QStringLiteral("%1 compared with %2").arg(run.label(), source.compare->label())
                                    : run.label()));
    for (const RunAnalysis *r : runs) {
        Table facts;
        facts.title = runs.size() > 1 ? r->label() : QString();
        facts.header = {QStringLiteral("Field"), QStringLiteral("Value")};
        for (const auto &[label, value] : measuredFacts(*r))
            facts.rows.append({label, value});
        appendTable(html, pages, facts);
    }
    for (const RunAnalysis *r : runs)
        appendTable(html, pages, contaminationTable(checkContamination(*r)));
    // Each chart carries its title: drawn as one piece, the two never part.
    html += QStringLiteral("<h2 style=\"page-break-before: always\">Charts</h2>");
    for (const ReportChart &chart : reportCharts(source, ChartTarget::Standalone)) {
        const QString placed = pages.chart(chart.svg);
        if (placed.isEmpty()) {
            *error = QStringLiteral("the chart \"%1\" could not be drawn").arg(chart.caption);
            return {};
        }
        html += placed;
    }
    html += QStringLiteral("<h2 style=\"page-break-before: always\">Statistics</h2>");
    const QString unknownPrices = unknownPricesNote(runs);
    if (!unknownPrices.isEmpty())
        html += QStringLiteral("<p>%1</p>").arg(esc(unknownPrices));
    for (const RunAnalysis *r : runs) {
        if (runs.size() > 1)
            html += QStringLiteral("<h2>%1</h2>").arg(esc(r->label()));
        for (const Table &table : statisticsTables(*r, source.options.verdicts, unknownPrices.isEmpty()))
            appendTable(html, pages, table);
    }
    html += QStringLiteral("<h2>Suite health</h2>");
    appendTable(html, pages, suiteHealthTable(run));
    html += QStringLiteral("<h2 style=\"page-break-before: always\">Cases</h2>");
    // As many model and arm columns to a table as the page's width holds without breaking a word: a wider matrix is
    // printed as several tables of the same cases.
    const Table matrix = matrixTable(run);
    const QList<int> order = matrixOrder(run.matrix);
    const qsizetype columns = run.matrix.columns.size();
    qsizetype first = 0;
    do {
        qsizetype count = std::min<qsizetype>(1, columns - first);
        for (; first + count < columns; ++count) {
            const Table wider = matrixPart(matrix, first, count + 1);
            if (!pages.fitsWidth(wider.header, wider.rows))
                break;
        }
        Table part = matrixPart(matrix, first, count);
        if (count < columns)
            part.title =
                QStringLiteral("Case matrix, columns %1–%2 of %3").arg(first + 1).arg(first + count).arg(columns);
        QStringList colours;
        for (qsizetype r = 0; r < matrix.rows.size(); ++r) {
            colours << QString() << QString() << QString();
            const CaseRow &row = run.matrix.rows[order[r]];
            for (qsizetype c = first; c < first + count; ++c)
                colours.append(cellColour(row.cells[c]));
        }
        appendTable(html, pages, part, colours);
        first += count;
    } while (first < columns);
    if (source.compare) {
        const bool mainFirst = run.manifest.startedAt <= source.compare->manifest.startedAt;
        appendTable(html, pages, changesTable(mainFirst ? run : *source.compare, mainFirst ? *source.compare : run));
    }
    appendTable(html, pages, problemsTable(run, 300));
    html += QStringLiteral("<p><small>%1</small></p></body></html>").arg(esc(generatedBy()));

    pages.setHtml(scrubSecrets(html));
    if (!pages.print()) {
        *error = QStringLiteral("a chart could not be drawn as written (a number in its SVG did not read)");
        return {};
    }
    if (pdf.isEmpty())
        *error = QStringLiteral("the PDF could not be written");
    return pdf;
}

} // namespace sf::report
