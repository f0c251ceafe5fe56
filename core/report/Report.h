#pragma once

#include "eval/Verdict.h"

#include <QString>
#include <QStringList>
#include <optional>
#include <variant>

namespace sf {

struct RunAnalysis;

/// The formats a report can be written in.
enum class ReportFormat
{
    Html,     ///< one self-contained file: inline SVG charts, tables, case matrix, collapsible item details
    Pdf,      ///< paged, charts and tables, real text
    Markdown, ///< summary and tables; the charts as PNG files beside it
    Csv,      ///< one row per result item (RFC 4180)
    Json,     ///< everything: manifest, statistics, case matrix, results
    JUnit     ///< one testcase per case, model and arm, for CI systems
};

/// "html", "pdf", "md", "csv", "json", "junit".
struct RunManifest;

/// Which price table priced each model of a run, on the day it started ("in force on 2026-10-01:
/// anthropic:claude-sonnet-5-5 from genai-prices: anthropic/claude-sonnet-5-5 (genai-prices 0.2.5, shipped with
/// Skillforge); local:gemma-3-270m from Skillforge's table: local:*"): the reports' "Prices" line, Compare's tooltips.
QString runPricesText(const RunManifest &manifest);

QString reportFormatName(ReportFormat format);
std::optional<ReportFormat> reportFormatFromName(const QString &name);
QStringList reportFormatNames();
/// The file name extension, without the dot ("xml" for JUnit).
QString reportExtension(ReportFormat format);
/// PDF and Markdown draw charts to images, which needs a QGuiApplication (fonts).
bool reportNeedsGui(ReportFormat format);
/// Whether @p format can show a second run beside the first (CSV, JSON, HTML, PDF, Markdown; not JUnit).
bool reportSupportsCompare(ReportFormat format);

/// How much of a large run a report includes.
struct ReportOptions
{
    /// Items whose full details (verifier evidence, transcript) HTML includes: items of flipped cases first, then
    /// errors, failures and passes, up to this many. The report says when items were left out.
    int maxItemDetails = 1000;
    /// When a skill is kept, cut or not yet decided; every format shows the verdicts and these thresholds.
    VerdictThresholds verdicts;
};

/**
 * Writes reports of a run, optionally compared with a second run. Reports read the run's RunSummary and
 * CaseMatrix and never recompute a statistic, so they agree with the Compare view. Everything written passes
 * through scrubSecrets(): a key a model echoed into its transcript does not reach the report.
 */
class ReportWriter final
{
public:
    explicit ReportWriter(const RunAnalysis &run, const RunAnalysis *compare = nullptr, ReportOptions options = {});

    /// Writes the report to @p path atomically (Markdown also writes its PNG charts beside it, named after it).
    /// "" or an error naming the file.
    QString write(ReportFormat format, const QString &path) const;
    /// The files write() produced or would produce for @p path (the report first).
    QStringList outputFiles(ReportFormat format, const QString &path) const;

    /// "<run id>.html" and so on; with a compared run, "<run id>-vs-<other run id>.html".
    QString defaultFileName(ReportFormat format) const;

private:
    const RunAnalysis &m_run;
    const RunAnalysis *m_compare;
    ReportOptions m_options;
};

/// Reads the run at @p runDir (and the one at @p compareDir, unless empty) and writes its report to @p path: the
/// files written, or an error (a broken run folder as "file:line: message"). Blocking; safe on a worker thread.
std::variant<QStringList, QString> exportReport(const QString &runDir, const QString &compareDir, ReportFormat format,
                                                const QString &path, ReportOptions options = {});

} // namespace sf
