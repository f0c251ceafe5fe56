#include "charts/ComparisonCharts.h"

#include "charts/ChartLegend.h"
#include "charts/ChartOverlay.h"
#include "charts/ChartStyle.h"
#include "common/Theme.h"
#include "eval/RunName.h"

#include <QAbstractBarSeries>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QCursor>
#include <QLegend>
#include <QLineSeries>
#include <QLocale>
#include <QScatterSeries>
#include <QSet>
#include <QToolTip>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace sf::charts {

namespace {

constexpr double kBarWidth = 0.8;

QString setName(const QList<ChartRun> &runs, int runIndex, const QString &arm)
{
    if (runs.size() < 2)
        return armLabel(arm);
    QStringList labels;
    for (const ChartRun &run : runs)
        labels.append(run.label);
    return QStringLiteral("%1 — %2").arg(distinctParts(labels).value(runIndex), armLabel(arm));
}

/// Models of every run in order of first appearance.
QStringList modelsOf(const QList<ChartRun> &runs)
{
    QStringList models;
    for (const ChartRun &run : runs) {
        for (const ArmSummary &arm : run.summary->arms) {
            if (!models.contains(arm.model))
                models.append(arm.model);
        }
    }
    return models;
}

struct Category
{
    QString model;
    QString split;
    QString name;
};

/// Model names as axis labels: without the "provider:" prefix when that leaves every name distinct (the full
/// name is in the tooltips and tables), so labels fit under their bars.
QStringList shortNames(const QStringList &models)
{
    QStringList names;
    for (const QString &model : models)
        names.append(model.mid(model.indexOf(u':') + 1));
    return QSet<QString>(names.begin(), names.end()).size() == models.size() ? names : models;
}

QList<Category> categoriesOf(const QList<ChartRun> &runs, const QStringList &splits)
{
    QList<Category> categories;
    const QStringList models = modelsOf(runs);
    const QStringList names = shortNames(models);
    for (qsizetype m = 0; m < models.size(); ++m) {
        for (const QString &split : splits)
            categories.append({models[m], split,
                               splits.size() > 1 ? QStringLiteral("%1 · %2").arg(names[m], splitName(split))
                                                 : names[m]});
    }
    return categories;
}

QString formatValue(double value, Metric metric)
{
    const QLocale locale;
    switch (metric) {
    case Metric::PassRate: return locale.toString(value, 'f', 1) + u'%';
    case Metric::Tokens: return locale.toString(value, 'f', 1);
    case Metric::Cost: return u'$' + locale.toString(value, 'f', 6);
    case Metric::Latency: return locale.toString(value, 'f', 3) + QStringLiteral(" s");
    }
    return {};
}

QString armTooltip(const QString &title, const ArmSummary &arm, Metric metric, const std::optional<IntervalValue> &v)
{
    QString text = QStringLiteral("<b>%1</b><br>").arg(title.toHtmlEscaped());
    if (!v) {
        text += metric == Metric::Cost ? QObject::tr("No cost: %1 of its items made requests without a price (%2).")
                                             .arg(arm.unpricedItems)
                                             .arg(priceUnknownHint({arm.model}).toHtmlEscaped())
                                       : QObject::tr("No judged item.");
    } else {
        text += QObject::tr("%1: %2 (95% CI %3 – %4)")
                    .arg(metricName(metric), formatValue(v->value, metric), formatValue(v->low, metric),
                         formatValue(v->high, metric));
    }
    if (metric == Metric::Cost && v && arm.pricedAfterwards > 0)
        text += QObject::tr("<br>Priced afterwards from what the run recorded (%1 items, %2 from token totals).")
                    .arg(arm.pricedAfterwards)
                    .arg(arm.pricedFromTotals);
    text += QObject::tr("<br>%1 of %2 judged items passed; %3 items, %4 errors")
                .arg(arm.passRate.successes)
                .arg(arm.passRate.trials)
                .arg(arm.items)
                .arg(arm.errors);
    return text;
}

QValueAxis *valueAxis(QChart *chart, const QString &title, double low, double high, Qt::Alignment alignment,
                      const QString &format = QStringLiteral("%.0f"))
{
    auto *axis = new QValueAxis(chart);
    axis->setTitleText(title);
    axis->setRange(low, high);
    axis->applyNiceNumbers();
    axis->setLabelFormat(format);
    chart->addAxis(axis, alignment);
    return axis;
}

/// The student models along the bottom of @p chart, attached to @p series: whole names, side by side while a few
/// fit, slanted when there are many.
void addModelAxis(QChart *chart, QAbstractBarSeries *series, const QStringList &models)
{
    auto *axis = new QBarCategoryAxis(chart);
    axis->append(models);
    axis->setTitleText(QObject::tr("Student model"));
    // Usual names whole; a very long one (a fine-tune's full path) shortened by Qt, where whole it would not be
    // drawn at all.
    const qsizetype longest = std::accumulate(models.cbegin(), models.cend(), qsizetype(0),
                                              [](qsizetype n, const QString &m) { return std::max(n, m.size()); });
    axis->setTruncateLabels(longest > 32);
    if (axis->count() > 4)
        axis->setLabelsAngle(-40);
    chart->addAxis(axis, Qt::AlignBottom);
    series->attachAxis(axis);
}

void showTooltip(bool shown, const QString &text)
{
    if (shown)
        QToolTip::showText(QCursor::pos(), text);
    else
        QToolTip::hideText();
}

} // namespace

QString metricName(Metric metric)
{
    switch (metric) {
    case Metric::PassRate: return QObject::tr("Pass rate");
    case Metric::Tokens: return QObject::tr("Mean tokens");
    case Metric::Cost: return QObject::tr("Mean cost");
    case Metric::Latency: return QObject::tr("Mean latency");
    }
    return {};
}

QString metricAxisTitle(Metric metric)
{
    switch (metric) {
    case Metric::PassRate: return QObject::tr("Pass rate (%)");
    case Metric::Tokens: return QObject::tr("Tokens per item");
    case Metric::Cost: return QObject::tr("Cost per item (US$)");
    case Metric::Latency: return QObject::tr("Latency per item (s)");
    }
    return {};
}

QString splitName(const QString &split)
{
    if (split == u"heldout")
        return QObject::tr("held-out");
    if (split == u"train")
        return QObject::tr("train");
    return QObject::tr("all");
}

std::optional<IntervalValue> metricValue(const ArmSummary &arm, Metric metric)
{
    switch (metric) {
    case Metric::PassRate:
        if (arm.passRate.trials == 0)
            return std::nullopt;
        return IntervalValue{arm.passRate.rate * 100, arm.passRate.ci.low * 100, arm.passRate.ci.high * 100};
    case Metric::Tokens:
        if (arm.tokens.n == 0)
            return std::nullopt;
        return IntervalValue{arm.tokens.mean, arm.tokens.meanCi.low, arm.tokens.meanCi.high};
    case Metric::Cost:
        if (!arm.costUsd || arm.costUsd->n == 0)
            return std::nullopt;
        return IntervalValue{arm.costUsd->mean, arm.costUsd->meanCi.low, arm.costUsd->meanCi.high};
    case Metric::Latency:
        if (arm.latencyMs.n == 0)
            return std::nullopt;
        return IntervalValue{arm.latencyMs.mean / 1000, arm.latencyMs.meanCi.low / 1000,
                             arm.latencyMs.meanCi.high / 1000};
    }
    return std::nullopt;
}

ArmBarData armBarData(const QList<ChartRun> &runs, const QStringList &splits, Metric metric)
{
    ArmBarData data;
    data.metric = metric;
    const QList<Category> categories = categoriesOf(runs, splits);
    for (const Category &c : categories)
        data.categories.append(c.name);
    for (int r = 0; r < runs.size(); ++r) {
        for (const QString &arm : {kBaselineArm, kWithSkillArm}) {
            BarSet set{setName(runs, r, arm), r, arm, {}, {}};
            for (const Category &c : categories) {
                const ArmSummary *summary = runs[r].summary->arm(c.model, arm, c.split);
                const auto value = summary ? metricValue(*summary, metric) : std::nullopt;
                set.values.append(value);
                set.tooltips.append(summary ? armTooltip(QStringLiteral("%1 — %2").arg(c.name, set.name), *summary,
                                                         metric, value)
                                            : QObject::tr("%1: not run").arg(c.name));
            }
            data.sets.append(set);
        }
    }
    return data;
}

QList<ScatterSet> scatterData(const QList<ChartRun> &runs, const QStringList &splits, Metric x)
{
    const bool cost = x == Metric::Cost;
    QList<ScatterSet> sets;
    const QList<Category> categories = categoriesOf(runs, splits);
    for (int r = 0; r < runs.size(); ++r) {
        for (const QString &arm : {kBaselineArm, kWithSkillArm}) {
            ScatterSet set{setName(runs, r, arm), r, arm, {}};
            for (const Category &c : categories) {
                const ArmSummary *summary = runs[r].summary->arm(c.model, arm, c.split);
                if (!summary || summary->passRate.trials == 0 || (cost && !summary->costUsd))
                    continue;
                const double value = cost ? summary->costUsd->mean : summary->tokens.mean;
                const QString title = QStringLiteral("%1 — %2").arg(c.name, set.name);
                const QString tooltip =
                    QStringLiteral("<b>%1</b><br>%2<br>%3")
                        .arg(title.toHtmlEscaped(),
                             QObject::tr("Pass rate: %1 (%2 of %3)")
                                 .arg(formatValue(summary->passRate.rate * 100, Metric::PassRate))
                                 .arg(summary->passRate.successes)
                                 .arg(summary->passRate.trials),
                             (cost ? QObject::tr("Mean cost per item: %1") : QObject::tr("Mean tokens: %1"))
                                 .arg(formatValue(value, x)));
                set.points.append({c.name, value, summary->passRate.rate * 100, tooltip});
            }
            sets.append(set);
        }
    }
    return sets;
}

LiftData liftData(const QList<ChartRun> &runs, const QStringList &splits)
{
    LiftData data;
    QStringList labels;
    for (const ChartRun &run : runs)
        labels.append(run.label);
    const QList<Category> categories = categoriesOf(runs, splits);
    for (const Category &c : categories)
        data.categories.append(c.name);
    for (int r = 0; r < runs.size(); ++r) {
        LiftSet set{runs.size() > 1 ? distinctParts(labels).value(r) : QObject::tr("Lift"), r, {}, {}};
        for (const Category &c : categories) {
            const ArmComparison *comparison = runs[r].summary->comparison(c.model, c.split);
            set.comparisons.append(comparison ? std::optional<ArmComparison>(*comparison) : std::nullopt);
            set.tooltips.append(
                comparison ? QObject::tr("<b>%1</b><br>Lift %2 percentage points over %3 pairs<br>exact McNemar "
                                         "p = %4<br>%5 flipped to pass, %6 to fail")
                                 .arg(c.name.toHtmlEscaped(), QLocale().toString(comparison->lift * 100, 'f', 1))
                                 .arg(comparison->table.pairs())
                                 .arg(QString::number(comparison->pValue, 'g', 3))
                                 .arg(comparison->table.onlySecond)
                                 .arg(comparison->table.onlyFirst)
                           : QObject::tr("%1: no paired items").arg(c.name));
        }
        data.sets.append(set);
    }
    return data;
}

double barCentre(int category, int set, int setCount, double barWidth)
{
    const double width = barWidth / setCount;
    return category - barWidth / 2 + (set + 0.5) * width;
}

QChart *makeArmBarChart(const ArmBarData &data)
{
    auto *chart = new QChart;
    prepareChart(chart);
    // Short enough to stay whole in a third of a 1280 px window; the legend says which bar is which arm.
    chart->setTitle(QObject::tr("%1 (95% CI)").arg(metricName(data.metric)));
    auto *series = new QBarSeries(chart);
    series->setBarWidth(kBarWidth);
    double top = 0;
    for (const BarSet &s : data.sets) {
        auto *set = new QBarSet(s.name, series);
        for (const auto &value : s.values) {
            set->append(value ? value->value : 0.0);
            if (value)
                top = std::max({top, value->value, value->high});
        }
        styleBarSet(set, seriesStyle(s.runIndex, s.arm));
        set->setLabelColor(textColour());
        series->append(set);
    }
    // Every bar says its value at its foot, so a bar of height zero is still seen to be 0 and not missing.
    series->setLabelsVisible(true);
    series->setLabelsPosition(QAbstractBarSeries::LabelsInsideBase);
    series->setLabelsPrecision(3);
    chart->addSeries(series);
    addModelAxis(chart, series, data.categories);
    const double high = data.metric == Metric::PassRate ? 100.0 : (top > 0 ? top * 1.1 : 1.0);
    const QString format = data.metric == Metric::Cost      ? QStringLiteral("%.4f")
                           : data.metric == Metric::Latency ? QStringLiteral("%.1f")
                                                            : QStringLiteral("%.0f");
    series->attachAxis(valueAxis(chart, metricAxisTitle(data.metric), 0, high, Qt::AlignLeft, format));

    auto *overlay = new ChartOverlay(chart, series);
    for (int s = 0; s < data.sets.size(); ++s) {
        for (int c = 0; c < data.sets[s].values.size(); ++c) {
            const auto &value = data.sets[s].values[c];
            if (!value)
                continue;
            const double x = barCentre(c, s, int(data.sets.size()), kBarWidth);
            overlay->addWhisker({x, value->low, value->high, {}});
            // Qt prints no label on a bar of height zero: the overlay says "0" where the bar would stand.
            if (value->value == 0)
                overlay->addLabel({QPointF(x, 0), QStringLiteral("0"), true}); // beside the whisker, not on it
        }
    }
    QObject::connect(series, &QBarSeries::hovered, chart, [data, series](bool status, int index, QBarSet *set) {
        const qsizetype s = series->barSets().indexOf(set);
        if (s >= 0 && s < data.sets.size() && index >= 0 && index < data.sets[s].tooltips.size())
            showTooltip(status, data.sets[s].tooltips[index]);
    });
    ChartLegend::attach(chart);
    styleAxes(chart);
    return chart;
}

QChart *makeScatterChart(const QList<ScatterSet> &data, Metric xMetric)
{
    auto *chart = new QChart;
    prepareChart(chart);
    chart->setTitle(xMetric == Metric::Cost ? QObject::tr("Pass rate against cost")
                                            : QObject::tr("Pass rate against tokens"));
    double maxTokens = 0;
    for (const ScatterSet &s : data) {
        for (const ScatterPoint &p : s.points)
            maxTokens = std::max(maxTokens, p.x);
    }
    QValueAxis *x =
        valueAxis(chart, metricAxisTitle(xMetric), 0, maxTokens > 0 ? maxTokens * 1.15 : 1.0, Qt::AlignBottom,
                  xMetric == Metric::Cost ? QStringLiteral("%.4f") : QStringLiteral("%.0f"));
    QValueAxis *y = valueAxis(chart, metricAxisTitle(Metric::PassRate), 0, 100, Qt::AlignLeft);
    QScatterSeries *first = nullptr;
    for (const ScatterSet &s : data) {
        auto *series = new QScatterSeries(chart);
        series->setName(s.name);
        const SeriesStyle style = seriesStyle(s.runIndex, s.arm);
        series->setMarkerShape(style.marker);
        series->setMarkerSize(12);
        series->setColor(style.colour);
        // Without the skill: a hollow circle; with it: a filled square. Shape alone tells them apart in grey.
        series->setBrush(s.arm == kBaselineArm ? QBrush(Qt::transparent) : QBrush(style.colour));
        series->setPen(QPen(style.colour, 2));
        for (const ScatterPoint &p : s.points)
            series->append(p.x, p.passRatePercent);
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
        if (!first)
            first = series;
        const QList<ScatterPoint> points = s.points;
        QObject::connect(series, &QScatterSeries::hovered, chart, [points](const QPointF &at, bool state) {
            for (const ScatterPoint &p : points) {
                if (qFuzzyCompare(p.x + 1, at.x() + 1) && qFuzzyCompare(p.passRatePercent + 1, at.y() + 1)) {
                    showTooltip(state, p.tooltip);
                    return;
                }
            }
        });
    }
    if (!first)
        return chart;
    auto *overlay = new ChartOverlay(chart, first);
    QColor arrowColour = textColour();
    arrowColour.setAlphaF(0.55);
    int categories = 0;
    for (const ScatterSet &base : data) {
        if (base.arm != kBaselineArm)
            continue;
        for (const ScatterSet &skill : data) {
            if (skill.arm != kWithSkillArm || skill.runIndex != base.runIndex)
                continue;
            for (const ScatterPoint &from : base.points) {
                for (const ScatterPoint &to : skill.points) {
                    if (to.category == from.category)
                        overlay->addArrow(
                            {QPointF(from.x, from.passRatePercent), QPointF(to.x, to.passRatePercent), arrowColour});
                }
            }
            categories = std::max(categories, int(skill.points.size()));
        }
    }
    // Names beside the points while they fit; with many models the tooltips name them.
    if (categories <= 6) {
        for (const ScatterSet &s : data) {
            if (s.arm != kWithSkillArm)
                continue;
            for (const ScatterPoint &p : s.points)
                overlay->addLabel({QPointF(p.x, p.passRatePercent), p.category, true});
        }
    }
    ChartLegend::attach(chart);
    styleAxes(chart);
    return chart;
}

QChart *makeLiftTrendChart(const LiftAcrossRuns &across, const QStringList &runNames)
{
    auto *chart = new QChart;
    prepareChart(chart);
    chart->setTitle(QObject::tr("Lift across runs"));
    auto *x = new QCategoryAxis(chart);
    x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    QStringList names;
    for (int r = 0; r < across.runs.size(); ++r)
        names.append(runNames.value(r, across.runs[r]->label()));
    names = distinctParts(names);
    for (int r = 0; r < names.size(); ++r)
        x->append(QStringLiteral("%1. %2").arg(r + 1).arg(names[r]), r);
    if (names.size() > 2)
        x->setLabelsAngle(-30);
    x->setRange(-0.25, std::max<qsizetype>(1, across.runs.size() - 1) + 0.25);
    x->setTitleText(QObject::tr("Run (oldest first)"));
    chart->addAxis(x, Qt::AlignBottom);
    double low = 0, high = 0;
    for (const auto &row : across.cells) {
        for (const auto &cell : row) {
            if (cell) {
                low = std::min(low, cell->lift * 100);
                high = std::max(high, cell->lift * 100);
            }
        }
    }
    QValueAxis *y = valueAxis(chart, QObject::tr("Lift (% points)"), std::min(-10.0, low - 10),
                              std::max(10.0, high + 10), Qt::AlignLeft);
    for (int m = 0; m < across.models.size(); ++m) {
        auto *series = new QLineSeries(chart);
        series->setName(across.models[m]);
        series->setColor(okabeIto(m));
        showPoints(series); // a model measured in one run is a single point
        for (int r = 0; r < across.cells[m].size(); ++r) {
            if (const auto &cell = across.cells[m][r])
                series->append(r, cell->lift * 100);
        }
        chart->addSeries(series);
        series->attachAxis(x);
        series->attachAxis(y);
    }
    ChartLegend::attach(chart);
    styleAxes(chart);
    return chart;
}

QChart *makeLiftChart(const LiftData &data)
{
    auto *chart = new QChart;
    prepareChart(chart);
    chart->setTitle(QObject::tr("Lift per model"));
    auto *series = new QBarSeries(chart);
    series->setBarWidth(kBarWidth);
    double low = 0, high = 0;
    for (const LiftSet &s : data.sets) {
        auto *set = new QBarSet(s.name, series);
        for (const auto &comparison : s.comparisons) {
            const double lift = comparison ? comparison->lift * 100 : 0.0;
            set->append(lift);
            low = std::min(low, lift);
            high = std::max(high, lift);
        }
        styleBarSet(set, seriesStyle(s.runIndex, kWithSkillArm));
        series->append(set);
    }
    chart->addSeries(series);
    addModelAxis(chart, series, data.categories);
    // Room above the bars for the p-value labels.
    series->attachAxis(valueAxis(chart, QObject::tr("Lift (% points)"), std::min(-10.0, low - 10),
                                 std::max(10.0, high + 15), Qt::AlignLeft));
    if (data.sets.size() == 1)
        chart->legend()->hide();
    auto *overlay = new ChartOverlay(chart, series);
    for (int s = 0; s < data.sets.size(); ++s) {
        for (int c = 0; c < data.sets[s].comparisons.size(); ++c) {
            if (const auto &comparison = data.sets[s].comparisons[c])
                overlay->addLabel({QPointF(barCentre(c, s, int(data.sets.size()), kBarWidth),
                                           std::max(0.0, comparison->lift * 100)),
                                   // The lift itself too: a lift of zero has no bar to see.
                                   QStringLiteral("%1 · p=%2")
                                       .arg(QString::asprintf("%+.0f", comparison->lift * 100),
                                            QString::number(comparison->pValue, 'g', 2)),
                                   false});
        }
    }
    QObject::connect(series, &QBarSeries::hovered, chart, [data, series](bool status, int index, QBarSet *set) {
        const qsizetype s = series->barSets().indexOf(set);
        if (s >= 0 && s < data.sets.size() && index >= 0 && index < data.sets[s].tooltips.size())
            showTooltip(status, data.sets[s].tooltips[index]);
    });
    if (data.sets.size() > 1)
        ChartLegend::attach(chart);
    styleAxes(chart);
    return chart;
}

ChartOverlay *overlayOf(QChart *chart)
{
    for (QGraphicsItem *item : chart->childItems()) {
        if (auto *overlay = dynamic_cast<ChartOverlay *>(item))
            return overlay;
    }
    return nullptr;
}

} // namespace sf::charts
