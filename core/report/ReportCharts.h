#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace sf {

struct RunAnalysis;

/// What a grouped bar chart shows for each model and arm.
enum class ChartMetric
{
    PassRate,
    Tokens,
    Cost,
    Latency
};

/// How a chart is painted: for a page that follows the reader's light or dark scheme (text in
/// "currentColor", no background) or for a file of its own (dark text on white: PNG, PDF).
enum class ChartTarget
{
    InlineHtml,
    Standalone
};

/// The report charts, drawn as SVG from each run's RunSummary (never recomputed here). With two runs, every chart
/// shows both side by side under their RunAnalysis::label(). Colours are Okabe-Ito (safe for colour-blind
/// readers) and every series also has its own hatching or marker, so a grey-scale print still tells them apart.
namespace charts {

QString metricTitle(ChartMetric metric);
/// Grouped bars per model, baseline and with-skill, with 95% interval whiskers, over @p split.
QString armBars(const QList<const RunAnalysis *> &runs, ChartMetric metric, const QString &split, ChartTarget target);
/// Pass rate against mean tokens, one point per model and arm, an arrow from baseline to with-skill.
QString passRateVsTokens(const QList<const RunAnalysis *> &runs, const QString &split, ChartTarget target);
/// Pass rate against mean cost per item, one point per model and arm (arms without a price are left out): a small
/// model with the skill that beats a large one without it, for less, sits up and to the left of it.
QString passRateVsCost(const QList<const RunAnalysis *> &runs, const QString &split, ChartTarget target);
/// The lift (with-skill minus baseline pass rate, over paired repeats) per model, with its McNemar p-value.
QString liftPerModel(const QList<const RunAnalysis *> &runs, const QString &split, ChartTarget target);

/// Renders @p svg (as drawn for ChartTarget::Standalone) to a PNG at @p scale times its size. Needs a
/// QGuiApplication (fonts); empty when the SVG cannot be read.
QByteArray svgToPng(const QString &svg, double scale = 2.0);

} // namespace charts

} // namespace sf
