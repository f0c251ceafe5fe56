// The machine-readable reports: CSV (one row per item), JSON (everything) and JUnit XML (for CI systems).
#include "ReportTables_p.h"
#include "ReportWriters_p.h"
#include "common/Secrets.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QXmlStreamWriter>
#include <array>

namespace sf::report {

namespace {

/// RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled.
QString csvField(const QString &field)
{
    if (!field.contains(u',') && !field.contains(u'"') && !field.contains(u'\n') && !field.contains(u'\r'))
        return field;
    QString quoted = field;
    quoted.replace(u'"', QStringLiteral("\"\""));
    return u'"' + quoted + u'"';
}

QString csvLine(const QStringList &fields)
{
    QString line;
    for (qsizetype i = 0; i < fields.size(); ++i) {
        if (i)
            line += u',';
        line += csvField(fields[i]);
    }
    return line + QStringLiteral("\r\n");
}

/// XML 1.0 allows no control characters but tab and line breaks; a command's output (colour codes) may hold some.
QString xmlSafe(QString text)
{
    text.removeIf([](QChar c) { return c.unicode() < 0x20 && c != u'\t' && c != u'\n' && c != u'\r'; });
    return text;
}

QString failedEvidence(const ItemResult &r)
{
    QStringList parts;
    for (const VerifierOutcome &v : r.verifiers) {
        if (!v.passed)
            parts.append(QStringLiteral("%1: %2").arg(v.name.isEmpty() ? v.type : v.name, v.evidence));
    }
    return parts.join(QStringLiteral("; "));
}

QJsonObject matrixJson(const CaseMatrix &matrix)
{
    QJsonArray columns;
    for (const CaseColumn &c : matrix.columns)
        columns.append(QJsonObject{{QStringLiteral("model"), c.model}, {QStringLiteral("arm"), c.arm}});
    QJsonArray rows;
    for (const CaseRow &row : matrix.rows) {
        QJsonArray cells;
        for (const CaseCell &cell : row.cells) {
            const auto rate = cell.passRate();
            cells.append(QJsonObject{{QStringLiteral("passed"), cell.passed},
                                     {QStringLiteral("judged"), cell.judged},
                                     {QStringLiteral("errors"), cell.errors},
                                     {QStringLiteral("pass_rate"), rate ? QJsonValue(*rate) : QJsonValue()}});
        }
        rows.append(QJsonObject{{QStringLiteral("case"), row.caseId},
                                {QStringLiteral("split"), row.split},
                                {QStringLiteral("flips_to_pass"), row.flipsToPass},
                                {QStringLiteral("flips_to_fail"), row.flipsToFail},
                                {QStringLiteral("cells"), cells}});
    }
    return {{QStringLiteral("columns"), columns}, {QStringLiteral("rows"), rows}};
}

QByteArray compactJson(const QJsonObject &object)
{
    return QJsonDocument(object).toJson(QJsonDocument::Compact);
}

/// Scrubbed here, piece by piece, rather than by the writer over the whole text: a large run's JSON is tens of
/// megabytes, and one pass over all of it as a QString would hold it in memory three times over.
QByteArray scrubbed(const QByteArray &json)
{
    return scrubSecrets(QString::fromUtf8(json)).toUtf8();
}

QJsonArray costEffectivenessJsonOfEverySplit(const RunAnalysis &run)
{
    QJsonArray list;
    for (const QString &split : splitsOf(run)) {
        for (const QJsonValue &entry : costEffectivenessJson(costEffectiveness(run.summary, split)))
            list.append(entry);
    }
    return list;
}

QString optionalNumber(const std::optional<double> &value)
{
    return value ? QString::number(*value, 'g', 10) : QString();
}

/// One run as a JSON object, its results one per line so that a large report stays readable with line tools.
QByteArray runJson(const RunAnalysis &run, const VerdictThresholds &thresholds)
{
    const QJsonObject head{
        {QStringLiteral("label"), run.label()},
        {QStringLiteral("manifest"), run.manifest.toJson()},
        {QStringLiteral("summary"), run.summary.toJson()},
        {QStringLiteral("verdicts"), verdictsJson(decideVerdicts(run.summary, thresholds), thresholds)},
        {QStringLiteral("cost_effectiveness"), costEffectivenessJsonOfEverySplit(run)},
        {QStringLiteral("suite_health"), diagnoseSuite(run).toJson()},
        {QStringLiteral("contamination"), checkContamination(run).toJson()},
        {QStringLiteral("matrix"), matrixJson(run.matrix)}};
    QByteArray out = scrubbed(compactJson(head)).chopped(1); // open: the results follow
    out += ",\n\"results\": [";
    for (qsizetype i = 0; i < run.results.size(); ++i)
        out += (i ? ",\n" : "\n") + scrubbed(compactJson(run.results[i].toJson()));
    return out + "\n]}";
}

} // namespace

QString csvReport(const ReportSource &source)
{
    QString csv;
    csv += csvLine({QStringLiteral("run_id"),
                    QStringLiteral("model"),
                    QStringLiteral("provider"),
                    QStringLiteral("resolved_model"),
                    QStringLiteral("arm"),
                    QStringLiteral("case"),
                    QStringLiteral("split"),
                    QStringLiteral("repeat"),
                    QStringLiteral("outcome"),
                    QStringLiteral("passed"),
                    QStringLiteral("error"),
                    QStringLiteral("stop_reason"),
                    QStringLiteral("input_tokens"),
                    QStringLiteral("output_tokens"),
                    QStringLiteral("total_tokens"),
                    QStringLiteral("cost_usd"),
                    QStringLiteral("latency_ms"),
                    QStringLiteral("llm_ms"),
                    QStringLiteral("turns"),
                    QStringLiteral("tool_calls"),
                    QStringLiteral("tool_errors"),
                    QStringLiteral("skill_loaded"),
                    QStringLiteral("skill_files_read"),
                    QStringLiteral("failed_verifiers"),
                    QStringLiteral("started_at"),
                    QStringLiteral("transcript"),
                    QStringLiteral("harness_session"),
                    QStringLiteral("cli_startup_ms"),
                    QStringLiteral("model_verdict"),
                    QStringLiteral("arm_cost_per_pass_usd"),
                    QStringLiteral("arm_passes_per_usd")});
    for (const RunAnalysis *run : source.runs()) {
        // The model's verdict on every one of its rows, so that a spreadsheet filtered to a model shows it.
        QHash<QString, QString> verdicts;
        for (const Verdict &v : decideVerdicts(run->summary, source.options.verdicts))
            verdicts.insert(v.model, v.code());
        // And its arm's cost-effectiveness over all cases.
        const QList<ArmCostEffectiveness> costs = costEffectiveness(run->summary);
        for (const ItemResult &r : run->results) {
            const ArmCostEffectiveness *cost = findCostEffectiveness(costs, r.key.model, r.key.arm);
            csv += csvLine(
                {run->manifest.runId,
                 r.key.model,
                 r.provider,
                 r.resolvedModel,
                 r.key.arm,
                 r.key.caseId,
                 r.split,
                 QString::number(r.key.repeat),
                 outcomeOf(r),
                 r.isError() ? QString() : (r.passed ? QStringLiteral("true") : QStringLiteral("false")),
                 r.error,
                 r.stopReason,
                 QString::number(r.usage.totalInput()),
                 QString::number(r.usage.output),
                 QString::number(r.totalTokens()),
                 r.costUsd ? QString::number(*r.costUsd, 'g', 10) : QString(),
                 QString::number(r.latencyMs),
                 QString::number(r.llmMs),
                 QString::number(r.turns),
                 QString::number(r.toolCalls),
                 QString::number(r.toolErrors),
                 r.skillLoaded ? (*r.skillLoaded ? QStringLiteral("true") : QStringLiteral("false")) : QString(),
                 r.skillFilesRead.join(u';'),
                 failedEvidence(r),
                 r.startedAt,
                 r.transcript,
                 r.harnessSession,
                 r.cliStartupMs >= 0 ? QString::number(r.cliStartupMs) : QString(),
                 verdicts.value(r.key.model),
                 cost ? optionalNumber(cost->costPerPass) : QString(),
                 cost ? optionalNumber(cost->passesPerDollar) : QString()});
        }
    }
    return csv;
}

QByteArray jsonReport(const ReportSource &source)
{
    const QJsonObject head{{QStringLiteral("format"), QStringLiteral("skillforge-report/1")},
                           {QStringLiteral("generated_by"), generatedBy()}};
    QByteArray out = compactJson(head).chopped(1); // the object stays open for the runs
    out += ",\n\"run\": " + runJson(*source.run, source.options.verdicts);
    if (source.compare) {
        out += ",\n\"compare\": " + runJson(*source.compare, source.options.verdicts);
        const bool mainFirst = source.run->manifest.startedAt <= source.compare->manifest.startedAt;
        const RunAnalysis &before = mainFirst ? *source.run : *source.compare;
        const RunAnalysis &after = mainFirst ? *source.compare : *source.run;
        QJsonArray changes;
        for (const CaseChange &c : diffCaseMatrices(before.matrix, after.matrix))
            changes.append(QJsonObject{{QStringLiteral("case"), c.caseId},
                                       {QStringLiteral("model"), c.model},
                                       {QStringLiteral("arm"), c.arm},
                                       {QStringLiteral("before"), c.before ? QJsonValue(*c.before) : QJsonValue()},
                                       {QStringLiteral("after"), c.after ? QJsonValue(*c.after) : QJsonValue()}});
        out += ",\n\"changes\": " + scrubbed(compactJson({{QStringLiteral("before_run"), before.manifest.runId},
                                                          {QStringLiteral("after_run"), after.manifest.runId},
                                                          {QStringLiteral("cells"), changes}}));
    }
    return out + "\n}\n";
}

QString junitReport(const ReportSource &source)
{
    const RunAnalysis &run = *source.run;
    const CaseMatrix &matrix = run.matrix;
    QString xml;
    QXmlStreamWriter w(&xml);
    w.setAutoFormatting(true);
    w.writeStartDocument();
    w.writeStartElement(QStringLiteral("testsuites"));
    w.writeAttribute(QStringLiteral("name"), QStringLiteral("%1 %2").arg(run.manifest.skillName, run.manifest.runId));

    // One testsuite per model and arm; one testcase per case in it. A case fails when any judged repeat failed;
    // it is an error when no repeat failed but some ended in an error (the provider, not the student).
    // A case a column never ran (an interrupted run) is skipped, not passed.
    QHash<QString, Verdict> verdicts;
    for (const Verdict &v : decideVerdicts(run.summary, source.options.verdicts))
        verdicts.insert(v.model, v);
    const QList<ArmCostEffectiveness> costs = costEffectiveness(run.summary);
    int totalTests = 0, totalFailures = 0, totalErrors = 0, totalSkipped = 0;
    QList<std::array<int, 3>> counts(matrix.columns.size(), {0, 0, 0});
    for (const CaseRow &row : matrix.rows) {
        for (qsizetype c = 0; c < row.cells.size(); ++c) {
            const CaseCell &cell = row.cells[c];
            if (cell.judged > cell.passed)
                ++counts[c][0];
            else if (cell.errors > 0)
                ++counts[c][1];
            else if (cell.items.isEmpty())
                ++counts[c][2];
        }
    }
    for (const auto &c : counts) {
        totalFailures += c[0];
        totalErrors += c[1];
        totalSkipped += c[2];
    }
    totalTests = int(matrix.rows.size() * matrix.columns.size());
    w.writeAttribute(QStringLiteral("tests"), QString::number(totalTests));
    w.writeAttribute(QStringLiteral("failures"), QString::number(totalFailures));
    w.writeAttribute(QStringLiteral("errors"), QString::number(totalErrors));
    w.writeAttribute(QStringLiteral("skipped"), QString::number(totalSkipped));

    for (qsizetype c = 0; c < matrix.columns.size(); ++c) {
        const CaseColumn &column = matrix.columns[c];
        double seconds = 0;
        for (const CaseRow &row : matrix.rows) {
            for (int item : row.cells[c].items)
                seconds += run.results[item].latencyMs / 1000.0;
        }
        w.writeStartElement(QStringLiteral("testsuite"));
        w.writeAttribute(QStringLiteral("name"), QStringLiteral("%1 %2").arg(column.model, column.arm));
        w.writeAttribute(QStringLiteral("tests"), QString::number(matrix.rows.size()));
        w.writeAttribute(QStringLiteral("failures"), QString::number(counts[c][0]));
        w.writeAttribute(QStringLiteral("errors"), QString::number(counts[c][1]));
        w.writeAttribute(QStringLiteral("skipped"), QString::number(counts[c][2]));
        w.writeAttribute(QStringLiteral("time"), QString::number(seconds, 'f', 3));
        w.writeAttribute(QStringLiteral("timestamp"), run.manifest.startedAt);
        w.writeAttribute(QStringLiteral("hostname"), run.manifest.host);
        w.writeStartElement(QStringLiteral("properties"));
        const auto property = [&](const QString &name, const QString &value) {
            w.writeEmptyElement(QStringLiteral("property"));
            w.writeAttribute(QStringLiteral("name"), name);
            w.writeAttribute(QStringLiteral("value"), value);
        };
        property(QStringLiteral("skill"), run.manifest.skillName);
        property(QStringLiteral("skill_version"), run.manifest.skillVersion);
        property(QStringLiteral("skill_hash"), run.manifest.skillHash);
        property(QStringLiteral("suite_hash"), run.manifest.suiteHash);
        property(QStringLiteral("run_id"), run.manifest.runId);
        property(QStringLiteral("harness"), harnessText(run.manifest));
        property(QStringLiteral("model"), column.model);
        property(QStringLiteral("arm"), column.arm);
        if (const auto v = verdicts.constFind(column.model); v != verdicts.cend()) {
            property(QStringLiteral("verdict"), v->code());
            property(QStringLiteral("verdict_reason"), v->reason());
            property(QStringLiteral("verdict_rule"), source.options.verdicts.describe());
        }
        if (const ArmCostEffectiveness *cost = findCostEffectiveness(costs, column.model, column.arm)) {
            property(QStringLiteral("cost_per_pass_usd"), optionalNumber(cost->costPerPass));
            property(QStringLiteral("passes_per_usd"), optionalNumber(cost->passesPerDollar));
        }
        w.writeEndElement();

        const QString className = QStringLiteral("%1.%2.%3").arg(run.manifest.skillName, column.model, column.arm);
        for (const CaseRow &row : matrix.rows) {
            const CaseCell &cell = row.cells[c];
            double caseSeconds = 0;
            for (int item : cell.items)
                caseSeconds += run.results[item].latencyMs / 1000.0;
            w.writeStartElement(QStringLiteral("testcase"));
            w.writeAttribute(QStringLiteral("name"), row.caseId);
            w.writeAttribute(QStringLiteral("classname"), className);
            w.writeAttribute(QStringLiteral("time"), QString::number(caseSeconds, 'f', 3));
            QStringList details;
            QString firstError;
            for (int item : cell.items) {
                const ItemResult &r = run.results[item];
                if (r.isError()) {
                    if (firstError.isEmpty())
                        firstError = r.error;
                    details.append(QStringLiteral("repeat %1: error: %2").arg(r.key.repeat).arg(r.error));
                } else if (!r.passed) {
                    details.append(QStringLiteral("repeat %1: failed: %2").arg(r.key.repeat).arg(failedEvidence(r)));
                }
            }
            if (cell.judged > cell.passed) {
                w.writeStartElement(QStringLiteral("failure"));
                w.writeAttribute(
                    QStringLiteral("message"),
                    QStringLiteral("%1 of %2 judged repeats failed").arg(cell.judged - cell.passed).arg(cell.judged));
                w.writeAttribute(QStringLiteral("type"), QStringLiteral("verifier"));
                w.writeCharacters(xmlSafe(details.join(u'\n')));
                w.writeEndElement();
            } else if (cell.items.isEmpty()) {
                w.writeEmptyElement(QStringLiteral("skipped"));
                w.writeAttribute(QStringLiteral("message"), QStringLiteral("not run"));
            } else if (cell.errors > 0) {
                w.writeStartElement(QStringLiteral("error"));
                w.writeAttribute(QStringLiteral("message"), xmlSafe(firstError));
                w.writeAttribute(QStringLiteral("type"), QStringLiteral("run_error"));
                w.writeCharacters(xmlSafe(details.join(u'\n')));
                w.writeEndElement();
            }
            w.writeTextElement(QStringLiteral("system-out"),
                               QStringLiteral("split %1; passed %2 of %3 judged repeats, %4 errors")
                                   .arg(row.split)
                                   .arg(cell.passed)
                                   .arg(cell.judged)
                                   .arg(cell.errors));
            w.writeEndElement();
        }
        w.writeEndElement();
    }
    w.writeEndElement();
    w.writeEndDocument();
    return xml;
}

} // namespace sf::report
