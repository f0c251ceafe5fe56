// The Markdown report: the summary and tables, the charts as PNG files beside it.
#include "ReportTables_p.h"
#include "ReportWriters_p.h"

namespace sf::report {

namespace {

/// A table cell: pipes escaped, line breaks flattened.
QString mdCell(QString text)
{
    text.replace(u'\\', QStringLiteral("\\\\")).replace(u'|', QStringLiteral("\\|"));
    text.replace(u'\n', u' ').replace(u'\r', u' ');
    return text;
}

void appendTable(QString &md, const Table &table)
{
    md += QStringLiteral("### %1\n\n|").arg(table.title);
    for (const QString &h : table.header)
        md += u' ' + mdCell(h) + QStringLiteral(" |");
    md += QStringLiteral("\n|");
    for (qsizetype i = 0; i < table.header.size(); ++i)
        md += QStringLiteral(" --- |");
    md += u'\n';
    for (const QStringList &row : table.rows) {
        md += u'|';
        for (const QString &cell : row)
            md += u' ' + mdCell(cell) + QStringLiteral(" |");
        md += u'\n';
    }
    if (!table.note.isEmpty())
        md += QStringLiteral("\n%1\n").arg(table.note);
    md += u'\n';
}

} // namespace

QString markdownReport(const ReportSource &source, const QString &chartPrefix)
{
    const RunAnalysis &run = *source.run;
    const QList<const RunAnalysis *> runs = source.runs();
    QString md;
    md += QStringLiteral("# Skill report: %1\n\n%2\n\n")
              .arg(run.manifest.skillName,
                   source.compare ? QStringLiteral("%1 compared with %2").arg(run.label(), source.compare->label())
                                  : run.label());
    md += QStringLiteral("## What was measured\n\n");
    for (const RunAnalysis *r : runs) {
        Table facts;
        facts.title = r->label();
        facts.header = {QStringLiteral("Field"), QStringLiteral("Value")};
        for (const auto &[label, value] : measuredFacts(*r))
            facts.rows.append({label, value});
        appendTable(md, facts);
    }
    for (const RunAnalysis *r : runs)
        appendTable(md, contaminationTable(checkContamination(*r)));
    md += QStringLiteral("## Charts\n\n");
    for (const ReportChart &chart : reportCharts(source, ChartTarget::Standalone))
        md += QStringLiteral("![%1](%2%3.png)\n\n").arg(chart.caption, chartPrefix, chart.id);
    md += QStringLiteral("## Statistics\n\n");
    const QString unknownPrices = unknownPricesNote(runs);
    if (!unknownPrices.isEmpty())
        md += unknownPrices + QStringLiteral("\n\n");
    for (const RunAnalysis *r : runs) {
        if (runs.size() > 1)
            md += QStringLiteral("### %1\n\n").arg(r->label());
        for (const Table &table : statisticsTables(*r, source.options.verdicts, unknownPrices.isEmpty()))
            appendTable(md, table);
    }
    md += QStringLiteral("## Suite health\n\n");
    appendTable(md, suiteHealthTable(run));
    md += QStringLiteral("## Cases\n\n");
    appendTable(md, matrixTable(run));
    if (source.compare) {
        const bool mainFirst = run.manifest.startedAt <= source.compare->manifest.startedAt;
        md += QStringLiteral("## Changes between the runs\n\n");
        appendTable(md, changesTable(mainFirst ? run : *source.compare, mainFirst ? *source.compare : run));
    }
    md += QStringLiteral("---\n\n%1. Item details and transcripts: the HTML or JSON report.\n").arg(generatedBy());
    return md;
}

} // namespace sf::report
