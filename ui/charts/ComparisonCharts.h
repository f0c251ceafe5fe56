#pragma once

#include "eval/LiftAcrossRuns.h"
#include "eval/RunSummary.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <optional>

class QChart;

namespace sf::charts {

class ChartOverlay;

/// One run shown in a chart: its summary (read, never recomputed) and its name; with two runs, series carry the part
/// of the name that tells the runs apart (eval/RunName.h's distinctParts).
struct ChartRun
{
    QString label;
    const RunSummary *summary = nullptr;
};

/// What the grouped bar chart measures, each per item, in the unit its axis names.
enum class Metric { PassRate, Tokens, Cost, Latency };

QString metricName(Metric metric);

/// The axis title, with its unit.
QString metricAxisTitle(Metric metric);
/// "train", "held-out" or "all" as a person reads it.
QString splitName(const QString &split);

/// A value with its 95% interval, in the metric's display unit (percent, tokens, US$, seconds).
struct IntervalValue
{
    double value = 0;
    double low = 0;
    double high = 0;
};

/// @p arm's number for @p metric, converted to the display unit only (rates to percent, milliseconds to
/// seconds); nullopt when core has none (cost without a price for every item, or no judged item).
std::optional<IntervalValue> metricValue(const ArmSummary &arm, Metric metric);

/// One bar per category (model, or model and split) for one run and arm.
struct BarSet
{
    QString name;
    int runIndex = 0;
    QString arm;
    QList<std::optional<IntervalValue>> values; ///< by category; nullopt: no bar
    QStringList tooltips;                       ///< by category: the exact numbers
};

/// The numbers behind the grouped bar chart.
struct ArmBarData
{
    Metric metric = Metric::PassRate;
    QStringList categories;
    QList<BarSet> sets;
};

/// Categories are the models of every run (in order of appearance), each once per split in @p splits.
ArmBarData armBarData(const QList<ChartRun> &runs, const QStringList &splits, Metric metric);

/// One point of the pass rate scatter, against mean tokens or mean cost per item.
struct ScatterPoint
{
    QString category;
    double x = 0; ///< mean tokens or mean cost (USD) per item
    double passRatePercent = 0;
    QString tooltip;
};

struct ScatterSet
{
    QString name;
    int runIndex = 0;
    QString arm;
    QList<ScatterPoint> points;
};

/// Every model and arm with a judged item; an arrow joins a category's baseline point to its with-skill point.
/// @p x is Metric::Tokens or Metric::Cost; with Cost, an arm without a price has no point.
QList<ScatterSet> scatterData(const QList<ChartRun> &runs, const QStringList &splits, Metric x = Metric::Tokens);

/// The lift of each category for one run.
struct LiftSet
{
    QString name;
    int runIndex = 0;
    QList<std::optional<ArmComparison>> comparisons; ///< by category
    QStringList tooltips;
};

struct LiftData
{
    QStringList categories;
    QList<LiftSet> sets;
};

LiftData liftData(const QList<ChartRun> &runs, const QStringList &splits);

/// The x position (in the category axis' value coordinates) of the middle of bar @p set of @p setCount in
/// category @p category, for a bar series of width @p barWidth.
double barCentre(int category, int set, int setCount, double barWidth);

/// A grouped bar chart, baseline against with-skill per model, with 95% interval whiskers. The caller owns it.
QChart *makeArmBarChart(const ArmBarData &data);
/// Pass rate against mean tokens (or cost, @p x), one point per model and arm, arrows from baseline to with-skill.
QChart *makeScatterChart(const QList<ScatterSet> &data, Metric x = Metric::Tokens);
/// The lift of each model across runs (oldest first), one line per model, in percentage points: the trend across
/// a skill's versions. The runs are labelled along the bottom by @p runNames (by their labels where not given), each
/// point drawn whole even where a model has one run.
QChart *makeLiftTrendChart(const LiftAcrossRuns &across, const QStringList &runNames = {});
/// The lift per model in percentage points, labelled with the exact McNemar p-value.
QChart *makeLiftChart(const LiftData &data);

/// The whiskers, arrows and labels drawn over @p chart, or nullptr.
ChartOverlay *overlayOf(QChart *chart);

} // namespace sf::charts
