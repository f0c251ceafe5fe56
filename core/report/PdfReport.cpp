// The PDF report: the HTML subset QTextDocument lays out, printed page by page through QPdfWriter, so its text
// is real text (searchable, readable by pdftotext) and its charts are the same drawings as PNG.
#include "ReportTables_p.h"
#include "ReportWriters_p.h"
#include "common/Secrets.h"

#include <QBuffer>
#include <QImage>
#include <QPageLayout>
#include <QPdfWriter>
#include <QTextDocument>
#include <QUrl>
#include <algorithm>

namespace sf::report {

namespace {

QString esc(const QString &text)
{
    return text.toHtmlEscaped();
}

void appendTable(QString &html, const Table &table, const QStringList &cellColours = {})
{
    html += QStringLiteral("<h3>%1</h3><table border=\"1\" cellspacing=\"0\" cellpadding=\"3\" width=\"100%\">"
                           "<thead><tr>")
                .arg(esc(table.title));
    for (const QString &h : table.header)
        html += QStringLiteral("<th bgcolor=\"#eeeeee\" align=\"left\">%1</th>").arg(esc(h));
    html += QStringLiteral("</tr></thead>");
    for (qsizetype r = 0; r < table.rows.size(); ++r) {
        html += QStringLiteral("<tr>");
        for (qsizetype c = 0; c < table.rows[r].size(); ++c) {
            const QString colour = cellColours.value(r * table.header.size() + c);
            html += QStringLiteral("<td%1>%2</td>")
                        .arg(colour.isEmpty() ? QString() : QStringLiteral(" bgcolor=\"%1\"").arg(colour),
                             esc(table.rows[r][c]));
        }
        html += QStringLiteral("</tr>");
    }
    html += QStringLiteral("</table>");
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
                evidence.append(QStringLiteral("%1: %2").arg(v.name.isEmpty() ? v.type : v.name, v.evidence));
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
    QTextDocument document;
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
        appendTable(html, facts);
    }
    for (const RunAnalysis *r : runs)
        appendTable(html, contaminationTable(checkContamination(*r)));
    html += QStringLiteral("<h2 style=\"page-break-before: always\">Charts</h2>");
    for (const ReportChart &chart : reportCharts(source, ChartTarget::Standalone)) {
        const QImage image = QImage::fromData(charts::svgToPng(chart.svg), "PNG");
        if (image.isNull()) {
            *error = QStringLiteral("the chart \"%1\" could not be drawn").arg(chart.caption);
            return {};
        }
        const QUrl url(QStringLiteral("chart-%1.png").arg(chart.id));
        document.addResource(QTextDocument::ImageResource, url, image);
        html += QStringLiteral("<p><img src=\"%1\" width=\"%2\"><br><small>%3</small></p>")
                    .arg(url.toString())
                    .arg(qRound(std::min(520.0, image.width() / 2.0)))
                    .arg(esc(chart.caption));
    }
    html += QStringLiteral("<h2 style=\"page-break-before: always\">Statistics</h2>");
    for (const RunAnalysis *r : runs) {
        if (runs.size() > 1)
            html += QStringLiteral("<h2>%1</h2>").arg(esc(r->label()));
        appendTable(html, verdictTable(*r, source.options.verdicts));
        for (const QString &split : splitsOf(*r)) {
            appendTable(html, passRateTable(*r, split));
            if (const Table statements = statementPassRateTable(*r, split); !statements.rows.isEmpty())
                appendTable(html, statements);
            appendTable(html, liftTable(*r, split));
            if (hasActivation(*r, split))
                appendTable(html, activationTable(*r, split));
            appendTable(html, costTable(*r, split));
            appendTable(html, costEffectivenessTable(*r, split));
        }
        if (std::any_of(r->results.begin(), r->results.end(), isSilentBypass))
            appendTable(html, silentBypassTable(*r));
    }
    html += QStringLiteral("<h2>Suite health</h2>");
    appendTable(html, suiteHealthTable(run));
    html += QStringLiteral("<h2 style=\"page-break-before: always\">Cases</h2>");
    // A page holds about eight model and arm columns: wider matrices are printed as several tables of the same
    // cases, eight columns each.
    constexpr qsizetype kColumnsPerTable = 8;
    const Table matrix = matrixTable(run);
    const QList<int> order = matrixOrder(run.matrix);
    const qsizetype columns = run.matrix.columns.size();
    for (qsizetype first = 0; first < columns || first == 0; first += kColumnsPerTable) {
        const qsizetype count = std::min(kColumnsPerTable, columns - first);
        Table part = matrix;
        if (columns > kColumnsPerTable)
            part.title =
                QStringLiteral("Case matrix, columns %1–%2 of %3").arg(first + 1).arg(first + count).arg(columns);
        part.header = matrix.header.mid(0, 3) + matrix.header.mid(3 + first, count);
        QStringList colours;
        for (qsizetype r = 0; r < matrix.rows.size(); ++r) {
            part.rows[r] = matrix.rows[r].mid(0, 3) + matrix.rows[r].mid(3 + first, count);
            colours << QString() << QString() << QString();
            const CaseRow &row = run.matrix.rows[order[r]];
            for (qsizetype c = first; c < first + count; ++c)
                colours.append(cellColour(row.cells[c]));
        }
        appendTable(html, part, colours);
        if (columns == 0)
            break;
    }
    if (source.compare) {
        const bool mainFirst = run.manifest.startedAt <= source.compare->manifest.startedAt;
        appendTable(html, changesTable(mainFirst ? run : *source.compare, mainFirst ? *source.compare : run));
    }
    appendTable(html, problemsTable(run, 300));
    html += QStringLiteral("<p><small>%1</small></p></body></html>").arg(esc(generatedBy()));

    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(8.5);
    document.setDefaultFont(font);
    document.setHtml(scrubSecrets(html));

    QByteArray pdf;
    QBuffer buffer(&pdf);
    buffer.open(QIODevice::WriteOnly);
    {
        QPdfWriter writer(&buffer);
        writer.setPageSize(QPageSize(QPageSize::A4));
        writer.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
        writer.setTitle(QStringLiteral("Skill report: %1").arg(run.manifest.skillName));
        writer.setCreator(generatedBy());
        document.print(&writer);
    }
    if (pdf.isEmpty())
        *error = QStringLiteral("the PDF could not be written");
    return pdf;
}

} // namespace sf::report
