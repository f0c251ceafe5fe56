// The HTML report: one self-contained file (inline SVG, inline CSS, no script, no external resource) that reads
// in light and dark schemes and prints.
#include "ReportTables_p.h"
#include "ReportWriters_p.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace sf::report {

namespace {

const QString kStyle = QStringLiteral(R"(
:root{color-scheme:light dark;--fg:#1d1f23;--bg:#ffffff;--muted:#5f6670;--line:#d5d8dc;--head:#f2f3f5;
--pass:#0072B2;--fail:#D55E00;--err:#6b6b6b;--code:#f6f7f9}
@media (prefers-color-scheme:dark){:root{--fg:#e6e6e6;--bg:#1f2124;--muted:#a3a9b2;--line:#3b3f45;--head:#2b2d31;
--pass:#56B4E9;--fail:#E69F00;--err:#9a9a9a;--code:#2a2c30}}
body{font:15px/1.45 "DejaVu Sans",Helvetica,Arial,sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;
max-width:1200px;padding:24px}
h1{font-size:26px;margin:0 0 4px}h2{font-size:20px;margin:32px 0 10px;border-bottom:1px solid var(--line)}
h3{font-size:16px;margin:20px 0 6px}.sub,.note,footer{color:var(--muted)}.note{font-size:13px;margin:4px 0 14px}
table{border-collapse:collapse;margin:6px 0;font-size:13.5px}th,td{border:1px solid var(--line);padding:4px 8px;
text-align:left;vertical-align:top}th{background:var(--head)}td.num{text-align:right;font-variant-numeric:tabular-nums}
.scroll{overflow-x:auto}.facts th{width:190px}
figure{margin:12px 0}figure svg{max-width:100%;height:auto}figcaption{font-size:13px;color:var(--muted)}
.switch input{position:absolute;opacity:0;pointer-events:none}
.switch label{display:inline-block;padding:4px 12px;border:1px solid var(--line);border-radius:14px;margin:0 6px 8px 0;
cursor:pointer}.switch .chart{display:none}
#metric-pass-rate:checked~.tabs label[for=metric-pass-rate],#metric-tokens:checked~.tabs label[for=metric-tokens],
#metric-cost:checked~.tabs label[for=metric-cost],#metric-latency:checked~.tabs label[for=metric-latency]
{background:var(--fg);color:var(--bg)}
#metric-pass-rate:checked~.chart-pass-rate,#metric-tokens:checked~.chart-tokens,#metric-cost:checked~.chart-cost,
#metric-latency:checked~.chart-latency{display:block}
.matrix td.cell{text-align:center;color:#111;min-width:70px}.matrix td.error{background:repeating-linear-gradient(45deg,
#cfcfcf,#cfcfcf 4px,#ededed 4px,#ededed 8px)}.flip{font-weight:bold}
.badge{display:inline-block;min-width:44px;text-align:center;border-radius:4px;padding:0 6px;font-size:12px;
font-weight:bold;color:#fff}.badge.pass{background:var(--pass)}.badge.fail{background:var(--fail)}
.badge.error{background:var(--err)}.badge.bypass{background:transparent;color:var(--fail);border:1px dashed var(--fail)}
.bypass-mark{font-weight:bold;margin-left:4px}
details{border:1px solid var(--line);border-radius:4px;margin:4px 0;padding:2px 8px}summary{cursor:pointer;padding:3px 0}
details[open]{padding-bottom:8px}pre{background:var(--code);padding:8px;white-space:pre-wrap;word-break:break-word;
margin:4px 0;font-size:12.5px}.msg{border-left:3px solid var(--line);padding-left:8px;margin:6px 0}
.role{font-size:12px;font-weight:bold;color:var(--muted);text-transform:uppercase}.ok{color:var(--pass)}
.bad{color:var(--fail)}dl{display:grid;grid-template-columns:max-content auto;gap:2px 12px;font-size:13px}
dd{margin:0}
@media print{.switch .chart{display:block}.tabs{display:none}details{break-inside:avoid}}
)");

QString esc(const QString &text)
{
    return text.toHtmlEscaped();
}

bool numeric(const QString &cell)
{
    return !cell.isEmpty() &&
           (cell[0].isDigit() || cell[0] == u'$' || cell[0] == u'+' || cell[0] == u'-' || cell.startsWith(u'<'));
}

void appendTable(QString &html, const Table &table, const QString &cssClass = {})
{
    html += QStringLiteral("<h3>%1</h3>\n<div class=\"scroll\"><table%2><thead><tr>")
                .arg(esc(table.title), cssClass.isEmpty() ? QString() : QStringLiteral(" class=\"%1\"").arg(cssClass));
    for (const QString &h : table.header)
        html += QStringLiteral("<th>%1</th>").arg(esc(h));
    html += QStringLiteral("</tr></thead><tbody>\n");
    for (const QStringList &row : table.rows) {
        html += QStringLiteral("<tr>");
        for (const QString &cell : row)
            html += (numeric(cell) ? QStringLiteral("<td class=\"num\">") : QStringLiteral("<td>")) + esc(cell) +
                    QStringLiteral("</td>");
        html += QStringLiteral("</tr>\n");
    }
    html += QStringLiteral("</tbody></table></div>\n");
    if (!table.note.isEmpty())
        html += QStringLiteral("<p class=\"note\">%1</p>\n").arg(esc(table.note));
}

void appendFacts(QString &html, const QList<const RunAnalysis *> &runs)
{
    QList<QList<QPair<QString, QString>>> facts;
    for (const RunAnalysis *run : runs)
        facts.append(measuredFacts(*run));
    html += QStringLiteral("<div class=\"scroll\"><table class=\"facts\">");
    if (runs.size() > 1) {
        html += QStringLiteral("<thead><tr><th></th>");
        for (const RunAnalysis *run : runs)
            html += QStringLiteral("<th>%1</th>").arg(esc(run->label()));
        html += QStringLiteral("</tr></thead>");
    }
    html += QStringLiteral("<tbody>\n");
    for (qsizetype i = 0; i < facts.first().size(); ++i) {
        html += QStringLiteral("<tr><th>%1</th>").arg(esc(facts.first()[i].first));
        for (const auto &runFacts : facts)
            html += QStringLiteral("<td>%1</td>").arg(esc(runFacts.value(i).second));
        html += QStringLiteral("</tr>\n");
    }
    html += QStringLiteral("</tbody></table></div>\n");
}

void appendCharts(QString &html, const ReportSource &source)
{
    const QList<ReportChart> charts = reportCharts(source, ChartTarget::InlineHtml);
    QList<const ReportChart *> perMetric, others;
    for (const ReportChart &chart : charts)
        (chart.perMetric ? perMetric : others).append(&chart);
    html += QStringLiteral("<h2 id=\"charts\">Charts</h2>\n<div class=\"switch\">\n");
    // Radio buttons and CSS switch the metric without a script; printing shows them all.
    for (qsizetype i = 0; i < perMetric.size(); ++i)
        html += QStringLiteral("<input type=\"radio\" name=\"metric\" id=\"metric-%1\"%2>\n")
                    .arg(perMetric[i]->id, i == 0 ? QStringLiteral(" checked") : QString());
    html += QStringLiteral("<div class=\"tabs\">Metric: ");
    for (const ReportChart *chart : perMetric)
        html += QStringLiteral("<label for=\"metric-%1\">%2</label>")
                    .arg(chart->id, esc(chart->caption.section(QStringLiteral(" by "), 0, 0)));
    html += QStringLiteral("</div>\n");
    for (const ReportChart *chart : perMetric)
        html += QStringLiteral("<figure class=\"chart chart-%1\">%2<figcaption>%3</figcaption></figure>\n")
                    .arg(chart->id, chart->svg, esc(chart->caption));
    html += QStringLiteral("</div>\n");
    for (const ReportChart *chart : others)
        html += QStringLiteral("<figure>%1<figcaption>%2</figcaption></figure>\n").arg(chart->svg, esc(chart->caption));
}

/// Orange at 0% to sky blue at 100% (Okabe-Ito), light enough for dark text in both schemes.
QString cellColour(double rate)
{
    const int r = qRound(0xE6 + (0x56 - 0xE6) * rate), g = qRound(0x9F + (0xB4 - 0x9F) * rate),
              b = qRound(0x00 + (0xE9 - 0x00) * rate);
    return QStringLiteral("rgb(%1,%2,%3)").arg(r).arg(g).arg(b);
}

void appendMatrix(QString &html, const RunAnalysis &run)
{
    const CaseMatrix &matrix = run.matrix;
    html += QStringLiteral("<h2 id=\"matrix\">Case matrix</h2>\n<p class=\"note\">Passed of judged repeats per case, "
                           "model and arm; the colour runs from orange (none passed) to blue (all passed), hatched "
                           "grey where every repeat ended in an error. Flipped cases come first: +n failed without "
                           "the skill and passed with it, −n the reverse.");
    if (std::any_of(run.results.begin(), run.results.end(), isSilentBypass))
        html += QStringLiteral(" ○ marks a with-skill cell where no repeat loaded the skill (a silent bypass: the "
                               "outcome says nothing about its content), ◐ one where some repeats did not.");
    html += QStringLiteral("</p>\n<div class=\"scroll\"><table class=\"matrix\"><thead><tr><th>Case</th><th>Split</th>"
                           "<th>Flips</th>");
    for (const CaseColumn &column : matrix.columns)
        html += QStringLiteral("<th>%1<br>%2</th>").arg(esc(column.model), esc(armLabel(column.arm)));
    html += QStringLiteral("</tr></thead><tbody>\n");
    for (int index : matrixOrder(matrix)) {
        const CaseRow &row = matrix.rows[index];
        html +=
            QStringLiteral("<tr><td>%1</td><td>%2</td><td class=\"flip\">%3</td>")
                .arg(esc(row.caseId), esc(row.split),
                     row.flipped() ? QStringLiteral("+%1 / −%2").arg(row.flipsToPass).arg(row.flipsToFail) : QString());
        for (const CaseCell &cell : row.cells) {
            const auto rate = cell.passRate();
            const int bypasses = silentBypasses(run, cell);
            QString mark;
            if (bypasses > 0)
                mark = QStringLiteral("<span class=\"bypass-mark\" title=\"%1\">%2</span>")
                           .arg(esc(bypasses == cell.judged
                                        ? QStringLiteral("the skill was never loaded: this outcome says nothing about "
                                                         "its content")
                                        : QStringLiteral("the skill was not loaded in %1 of %2 repeats")
                                              .arg(bypasses)
                                              .arg(cell.judged)),
                                bypasses == cell.judged ? QStringLiteral("○") : QStringLiteral("◐"));
            if (rate)
                html += QStringLiteral("<td class=\"cell\" style=\"background:%1\">%2%3</td>")
                            .arg(cellColour(*rate), esc(cellText(cell)), mark);
            else if (cell.errors)
                html += QStringLiteral("<td class=\"cell error\">%1</td>").arg(esc(cellText(cell)));
            else
                html += QStringLiteral("<td class=\"cell\">—</td>");
        }
        html += QStringLiteral("</tr>\n");
    }
    html += QStringLiteral("</tbody></table></div>\n");
}

constexpr qsizetype kMaxMessageChars = 20000;

QString clipped(const QString &text)
{
    if (text.size() <= kMaxMessageChars)
        return esc(text);
    return esc(text.left(kMaxMessageChars)) +
           QStringLiteral("\n<em>[%1 more characters not shown]</em>").arg(text.size() - kMaxMessageChars);
}

void appendTranscript(QString &html, const QJsonObject &transcript)
{
    const QJsonArray messages = transcript.value(QStringLiteral("messages")).toArray();
    if (messages.isEmpty() && transcript.contains(QStringLiteral("harness"))) {
        // An agent CLI's steps are in its own session file, which the Trace view (and `skillforge trace`) reads.
        html += QStringLiteral("<h4>Prompt</h4><pre>%1</pre>\n<p class=\"note\">The CLI's own session file holds its "
                               "steps; open it in Skillforge's Trace view.</p>\n")
                    .arg(clipped(transcript.value(QStringLiteral("prompt")).toString()));
        return;
    }
    if (messages.isEmpty()) {
        html += QStringLiteral("<p class=\"note\">No transcript was stored for this item.</p>\n");
        return;
    }
    html += QStringLiteral("<h4>Transcript (%1 messages)</h4>\n").arg(messages.size());
    for (const QJsonValue &value : messages) {
        const QJsonObject m = value.toObject();
        QString role = m.value(QStringLiteral("role")).toString();
        if (const QString name = m.value(QStringLiteral("name")).toString(); !name.isEmpty())
            role += QStringLiteral(" · ") + name;
        if (m.value(QStringLiteral("is_error")).toBool())
            role += QStringLiteral(" · error");
        html += QStringLiteral("<div class=\"msg\"><div class=\"role\">%1</div>").arg(esc(role));
        if (const QString thinking = m.value(QStringLiteral("thinking")).toString(); !thinking.isEmpty())
            html +=
                QStringLiteral("<details><summary>Thinking</summary><pre>%1</pre></details>").arg(clipped(thinking));
        if (const QString content = m.value(QStringLiteral("content")).toString(); !content.isEmpty())
            html += QStringLiteral("<pre>%1</pre>").arg(clipped(content));
        for (const QJsonValue &call : m.value(QStringLiteral("tool_calls")).toArray()) {
            const QJsonObject c = call.toObject();
            const QJsonValue arguments = c.value(QStringLiteral("arguments"));
            const QString args =
                arguments.isString()
                    ? arguments.toString()
                    : QString::fromUtf8(QJsonDocument(arguments.toObject()).toJson(QJsonDocument::Compact));
            html += QStringLiteral("<pre>→ %1(%2)</pre>")
                        .arg(esc(c.value(QStringLiteral("name")).toString()), clipped(args));
        }
        html += QStringLiteral("</div>\n");
    }
}

void appendItem(QString &html, const RunAnalysis &run, const ItemResult &r, bool priced)
{
    const QString outcome = outcomeOf(r);
    const bool bypass = isSilentBypass(r);
    html +=
        QStringLiteral("<details><summary><span class=\"badge %1\">%2</span>%3 %4 · %5 · %6 · repeat %7</summary>\n")
            .arg(outcome, outcome.toUpper(),
                 bypass ? QStringLiteral(" <span class=\"badge bypass\">SILENT BYPASS</span>") : QString(),
                 esc(r.key.caseId), esc(r.key.model), esc(armLabel(r.key.arm)))
            .arg(r.key.repeat);
    // A run without any price says so once, above its statistics, not once per item.
    const QString cost = !priced     ? QString()
                         : r.costUsd ? QStringLiteral("<dt>Cost</dt><dd>%1</dd>").arg(costText(*r.costUsd))
                                     : QStringLiteral("<dt>Cost</dt><dd>unknown</dd>");
    html += QStringLiteral("<dl><dt>Split</dt><dd>%1</dd><dt>Tokens</dt><dd>%2 in, %3 out</dd>%4"
                           "<dt>Latency</dt><dd>%5 (model %6)</dd><dt>Turns</dt><dd>%7, %8 tool calls (%9 failed)</dd>"
                           "<dt>Stopped</dt><dd>%10</dd>")
                .arg(esc(r.split))
                .arg(r.usage.totalInput())
                .arg(r.usage.output)
                .arg(cost, secondsText(double(r.latencyMs)), secondsText(double(r.llmMs)))
                .arg(r.turns)
                .arg(r.toolCalls)
                .arg(r.toolErrors)
                .arg(esc(r.stopReason));
    if (r.skillLoaded) {
        html += QStringLiteral("<dt>Skill loaded</dt><dd>%1</dd>")
                    .arg(*r.skillLoaded ? QStringLiteral("yes, after model call %1").arg(r.skillLoadedAtTurn)
                         : bypass       ? QStringLiteral("no — a silent bypass: the skill was never loaded, so this "
                                                               "outcome says nothing about its content")
                                        : QStringLiteral("no"));
        if (!r.skillFilesRead.isEmpty())
            html += QStringLiteral("<dt>Skill files read</dt><dd>%1</dd>")
                        .arg(esc(r.skillFilesRead.join(QStringLiteral(", "))));
    }
    if (r.cliStartupMs >= 0)
        html += QStringLiteral("<dt>CLI start-up</dt><dd>%1 to the first model request</dd>")
                    .arg(secondsText(double(r.cliStartupMs)));
    if (!r.harnessSession.isEmpty())
        html +=
            QStringLiteral("<dt>CLI session</dt><dd><code>%1</code> in the run folder</dd>").arg(esc(r.harnessSession));
    if (r.isError())
        html += QStringLiteral("<dt>Error</dt><dd>%1</dd>").arg(esc(r.error));
    html += QStringLiteral("</dl>\n");
    if (!r.verifiers.isEmpty()) {
        html += QStringLiteral("<h4>Verifiers</h4><ul>\n");
        for (const VerifierOutcome &v : r.verifiers) {
            const QString mark = !v.available ? QStringLiteral("<span class=\"bad\">not run</span>")
                                 : v.passed   ? QStringLiteral("<span class=\"ok\">✔ passed</span>")
                                              : QStringLiteral("<span class=\"bad\">✘ failed</span>");
            QString line = QStringLiteral("<li>%1 <b>%2</b>").arg(mark, esc(verifierLabel(v)));
            if (!v.name.isEmpty())
                line += QStringLiteral(" (%1)").arg(esc(v.type));
            if (v.score)
                line += QStringLiteral(", score %1").arg(*v.score);
            line += QStringLiteral(": %1").arg(esc(v.evidence));
            if (!v.reasoning.isEmpty())
                line += QStringLiteral("<pre>%1</pre>").arg(clipped(v.reasoning));
            html += line + QStringLiteral("</li>\n");
        }
        html += QStringLiteral("</ul>\n");
    }
    if (!r.answer.isEmpty())
        html += QStringLiteral("<h4>Final answer</h4><pre>%1</pre>\n").arg(clipped(r.answer));
    appendTranscript(html, run.transcript(r));
    html += QStringLiteral("</details>\n");
}

void appendItems(QString &html, const RunAnalysis &run, int cap, bool priced)
{
    const QList<int> items = detailItems(run, cap);
    html += QStringLiteral("<h2 id=\"items\">Items</h2>\n");
    if (items.size() < run.results.size())
        html += QStringLiteral("<p class=\"note\">Details of %1 of %2 items: those of flipped cases first, then "
                               "errors, failures and passes, up to %3. The JSON and CSV reports list every item.</p>\n")
                    .arg(items.size())
                    .arg(run.results.size())
                    .arg(cap);
    else
        html += QStringLiteral("<p class=\"note\">Every item, flipped cases first, then errors, failures and "
                               "passes. Open one for its verifiers' evidence and transcript.</p>\n");
    for (int index : items)
        appendItem(html, run, run.results[index], priced);
}

} // namespace

QString htmlReport(const ReportSource &source)
{
    const RunAnalysis &run = *source.run;
    const QList<const RunAnalysis *> runs = source.runs();
    QString html;
    html.reserve(1 << 20);
    QString title = QStringLiteral("Skill report: %1").arg(run.manifest.skillName);
    html +=
        QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                       "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                       "<meta name=\"color-scheme\" content=\"light dark\">"
                       "<meta name=\"generator\" content=\"%1\"><title>%2</title><style>%3</style></head>\n<body>\n")
            .arg(esc(generatedBy()), esc(title), kStyle);
    html +=
        QStringLiteral("<header><h1>%1</h1><p class=\"sub\">%2</p></header>\n")
            .arg(esc(title),
                 esc(source.compare ? QStringLiteral("%1 compared with %2").arg(run.label(), source.compare->label())
                                    : run.label()));
    const QString harness = run.manifest.harness.value(QStringLiteral("name")).toString();
    html += QStringLiteral("<h2 id=\"measured\">What was measured</h2>\n<p class=\"note\">%1</p>\n")
                .arg(harness.isEmpty()
                         ? QStringLiteral("Every model ran every case with and without the skill, under the same "
                                          "system prompt apart from the skill.")
                         : QStringLiteral("Every model ran every case with and without the skill in %1, once per item, "
                                          "with the same settings in both arms; only the with-skill arm had the skill "
                                          "installed, and %1 decided whether to load it.")
                               .arg(esc(harnessText(run.manifest).section(QStringLiteral(" ("), 0, 0))));
    appendFacts(html, runs);
    for (const RunAnalysis *r : runs)
        appendTable(html, contaminationTable(checkContamination(*r)));
    appendCharts(html, source);
    html += QStringLiteral("<h2 id=\"statistics\">Statistics</h2>\n");
    const QString unknownPrices = unknownPricesNote(runs);
    if (!unknownPrices.isEmpty())
        html += QStringLiteral("<p class=\"note\">%1</p>\n").arg(esc(unknownPrices));
    for (const RunAnalysis *r : runs) {
        if (runs.size() > 1)
            html += QStringLiteral("<h3>%1</h3>\n").arg(esc(r->label()));
        for (const Table &table : statisticsTables(*r, source.options.verdicts, unknownPrices.isEmpty()))
            appendTable(html, table);
    }
    html += QStringLiteral("<h2 id=\"suite-health\">Suite health</h2>\n");
    appendTable(html, suiteHealthTable(run));
    appendMatrix(html, run);
    if (source.compare) {
        const bool mainFirst = run.manifest.startedAt <= source.compare->manifest.startedAt;
        const RunAnalysis &before = mainFirst ? run : *source.compare;
        const RunAnalysis &after = mainFirst ? *source.compare : run;
        html += QStringLiteral("<h2 id=\"changes\">Changes between the runs</h2>\n");
        appendTable(html, changesTable(before, after));
    }
    appendItems(html, run, source.options.maxItemDetails, unknownPrices.isEmpty());
    html += QStringLiteral("<footer><p>%1. Statistics: Wilson intervals for pass rates, exact McNemar for lift, "
                           "percentile bootstrap for means and medians.</p></footer>\n</body></html>\n")
                .arg(esc(generatedBy()));
    return html;
}

} // namespace sf::report
