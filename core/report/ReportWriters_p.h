#pragma once

#include "Report.h"
#include "ReportCharts.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace sf::report {

/// What every format is made from: the run first, then the run it is compared with, if any.
struct ReportSource
{
    const RunAnalysis *run = nullptr;
    const RunAnalysis *compare = nullptr;
    ReportOptions options;

    QList<const RunAnalysis *> runs() const;
};

/// A chart a report shows: a stable file-name-safe id, its caption, and how to draw it.
struct ReportChart
{
    QString id; ///< "pass-rate", "tokens", ...
    QString caption;
    QString svg;
    bool perMetric = false; ///< one of the bar charts by model and arm, which HTML shows one at a time
};
/// The charts of a report over "all" cases: the metric bar charts, pass rate against tokens and against cost, lift
/// per model. The two cost charts are left out when no run has a price (unknownPricesNote() says so instead).
QList<ReportChart> reportCharts(const ReportSource &source, ChartTarget target);

QString htmlReport(const ReportSource &source);
QString markdownReport(const ReportSource &source, const QString &chartPrefix);
QString csvReport(const ReportSource &source);
/// Already scrubbed of secrets, unlike the other text formats (see DataReports.cpp).
QByteArray jsonReport(const ReportSource &source);
QString junitReport(const ReportSource &source);
/// The PDF's bytes, or an empty array with *error set.
QByteArray pdfReport(const ReportSource &source, QString *error);

} // namespace sf::report
