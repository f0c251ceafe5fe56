#include "Report.h"

#include "ReportTables_p.h"
#include "ReportWriters_p.h"
#include "common/AtomicFile.h"
#include "common/Secrets.h"
#include "eval/RunAnalysis.h"
#include "usage/Pricing.h"

#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>

namespace sf {

namespace {

struct FormatInfo
{
    ReportFormat format;
    const char *name;
    const char *extension;
};

constexpr FormatInfo kFormats[] = {
    {ReportFormat::Html, "html", "html"}, {ReportFormat::Pdf, "pdf", "pdf"},    {ReportFormat::Markdown, "md", "md"},
    {ReportFormat::Csv, "csv", "csv"},    {ReportFormat::Json, "json", "json"}, {ReportFormat::JUnit, "junit", "xml"},
};

const FormatInfo &infoOf(ReportFormat format)
{
    for (const FormatInfo &info : kFormats) {
        if (info.format == format)
            return info;
    }
    return kFormats[0];
}

/// "report.md" -> "report-" : the prefix of the PNG charts written beside a Markdown report.
QString chartPrefix(const QString &path)
{
    const QFileInfo info(path);
    return info.completeBaseName() + u'-';
}

} // namespace

QString runPricesText(const RunManifest &manifest)
{
    // Costs were worked out as each request was made; this says which table priced each model on the run's first day.
    QDateTime started = QDateTime::fromString(manifest.startedAt, Qt::ISODateWithMs);
    if (!started.isValid())
        started = QDateTime::currentDateTimeUtc();
    QStringList models;
    for (const RunModel &model : manifest.models)
        models.append(model.name);
    return Pricing::current()->sourcesOf(models, started);
}

QString reportFormatName(ReportFormat format)
{
    return QLatin1String(infoOf(format).name);
}

std::optional<ReportFormat> reportFormatFromName(const QString &name)
{
    for (const FormatInfo &info : kFormats) {
        if (name.compare(QLatin1String(info.name), Qt::CaseInsensitive) == 0)
            return info.format;
    }
    if (name.compare(QLatin1String("markdown"), Qt::CaseInsensitive) == 0)
        return ReportFormat::Markdown;
    return std::nullopt;
}

QStringList reportFormatNames()
{
    QStringList names;
    for (const FormatInfo &info : kFormats)
        names.append(QLatin1String(info.name));
    return names;
}

QString reportExtension(ReportFormat format)
{
    return QLatin1String(infoOf(format).extension);
}

bool reportNeedsGui(ReportFormat format)
{
    return format == ReportFormat::Pdf || format == ReportFormat::Markdown;
}

bool reportSupportsCompare(ReportFormat format)
{
    return format != ReportFormat::JUnit;
}

ReportWriter::ReportWriter(const RunAnalysis &run, const RunAnalysis *compare, ReportOptions options)
    : m_run(run)
    , m_compare(compare)
    , m_options(options)
{
}

QString ReportWriter::defaultFileName(ReportFormat format) const
{
    QString base = m_run.manifest.runId.isEmpty() ? QFileInfo(m_run.dir).fileName() : m_run.manifest.runId;
    if (m_compare)
        base += QStringLiteral("-vs-") + (m_compare->manifest.runId.isEmpty() ? QFileInfo(m_compare->dir).fileName()
                                                                              : m_compare->manifest.runId);
    return base + u'.' + reportExtension(format);
}

QStringList ReportWriter::outputFiles(ReportFormat format, const QString &path) const
{
    QStringList files{path};
    if (format == ReportFormat::Markdown) {
        const report::ReportSource source{&m_run, m_compare, m_options};
        const QDir folder = QFileInfo(path).absoluteDir();
        for (const report::ReportChart &chart : report::reportCharts(source, ChartTarget::Standalone))
            files.append(folder.filePath(chartPrefix(path) + chart.id + QStringLiteral(".png")));
    }
    return files;
}

QString ReportWriter::write(ReportFormat format, const QString &path) const
{
    if (m_compare && !reportSupportsCompare(format))
        return QStringLiteral("a %1 report describes one run; --compare is not available for it")
            .arg(reportFormatName(format));
    if (reportNeedsGui(format) && !qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
        return QStringLiteral("a %1 report draws its charts to images, which needs a graphical application")
            .arg(reportFormatName(format));
    const report::ReportSource source{&m_run, m_compare, m_options};
    // Every text format passes through the scrubber (JSON in pieces): whatever field a secret hides in, it is caught.
    const auto text = [](const QString &content) { return scrubSecrets(content).toUtf8(); };
    QByteArray bytes;
    switch (format) {
    case ReportFormat::Html:
        bytes = text(report::htmlReport(source));
        break;
    case ReportFormat::Csv:
        bytes = text(report::csvReport(source));
        break;
    case ReportFormat::Json:
        bytes = report::jsonReport(source); // scrubbed piece by piece as it is built
        break;
    case ReportFormat::JUnit:
        bytes = text(report::junitReport(source));
        break;
    case ReportFormat::Markdown: {
        const QDir folder = QFileInfo(path).absoluteDir();
        for (const report::ReportChart &chart : report::reportCharts(source, ChartTarget::Standalone)) {
            const QString png = folder.filePath(chartPrefix(path) + chart.id + QStringLiteral(".png"));
            const QByteArray image = charts::svgToPng(chart.svg);
            if (image.isEmpty())
                return QStringLiteral("%1: the chart could not be drawn").arg(png);
            if (QString error = writeFileAtomically(png, image); !error.isEmpty())
                return error;
        }
        bytes = text(report::markdownReport(source, chartPrefix(path)));
        break;
    }
    case ReportFormat::Pdf: {
        QString error;
        bytes = report::pdfReport(source, &error);
        if (bytes.isEmpty())
            return QStringLiteral("%1: %2").arg(path, error);
        break;
    }
    }
    return writeFileAtomically(path, bytes);
}

std::variant<QStringList, QString> exportReport(const QString &runDir, const QString &compareDir, ReportFormat format,
                                                const QString &path, ReportOptions options)
{
    auto run = analyzeRun(runDir);
    if (const LoadError *e = std::get_if<LoadError>(&run))
        return e->toString();
    std::optional<RunAnalysis> compare;
    if (!compareDir.isEmpty()) {
        auto other = analyzeRun(compareDir);
        if (const LoadError *e = std::get_if<LoadError>(&other))
            return e->toString();
        compare = std::get<RunAnalysis>(std::move(other));
    }
    const ReportWriter writer(std::get<RunAnalysis>(run), compare ? &*compare : nullptr, options);
    if (const QString error = writer.write(format, path); !error.isEmpty())
        return error;
    return writer.outputFiles(format, path);
}

namespace report {

QList<const RunAnalysis *> ReportSource::runs() const
{
    QList<const RunAnalysis *> list{run};
    if (compare)
        list.append(compare);
    return list;
}

QList<ReportChart> reportCharts(const ReportSource &source, ChartTarget target)
{
    const QList<const RunAnalysis *> runs = source.runs();
    const bool priced = unknownPricesNote(runs).isEmpty();
    const QString all = QStringLiteral("all");
    QList<ReportChart> list;
    const std::pair<ChartMetric, const char *> metrics[] = {{ChartMetric::PassRate, "pass-rate"},
                                                            {ChartMetric::Tokens, "tokens"},
                                                            {ChartMetric::Cost, "cost"},
                                                            {ChartMetric::Latency, "latency"}};
    for (const auto &[metric, id] : metrics) {
        if (metric == ChartMetric::Cost && !priced)
            continue;
        list.append({QLatin1String(id), charts::metricTitle(metric) + QStringLiteral(" by model and arm"),
                     charts::armBars(runs, metric, all, target), true});
    }
    list.append({QStringLiteral("pass-rate-vs-tokens"), QStringLiteral("Pass rate against tokens"),
                 charts::passRateVsTokens(runs, all, target)});
    if (priced)
        list.append({QStringLiteral("pass-rate-vs-cost"), QStringLiteral("Pass rate against cost per item"),
                     charts::passRateVsCost(runs, all, target)});
    list.append({QStringLiteral("lift"), QStringLiteral("Lift per model"), charts::liftPerModel(runs, all, target)});
    return list;
}

} // namespace report

} // namespace sf
