#include "ReportCharts.h"

#include "SvgWriter_p.h"
#include "eval/RunAnalysis.h"
#include "eval/RunName.h"

#include <QBuffer>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>
#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

namespace sf::charts {

using report::ChartInk;
using report::SvgWriter;

namespace {

/// One run's arm: colour and the shape that keeps it apart without colour.
struct Series
{
    const RunAnalysis *run;
    QString arm;
    QString colour;
    enum class Fill
    {
        Solid,
        Hatch,
        CrossHatch,
        Outlined
    } fill;
    enum class Marker
    {
        Circle,
        Square,
        Triangle,
        Diamond
    } marker;
    QString name;
};

/// A legend-sized name of run @p r: what tells it from the other runs (eval/RunName.h), as the Compare view's legends
/// name it.
QString shortName(const QList<const RunAnalysis *> &runs, qsizetype r)
{
    QList<RunManifest> manifests;
    for (const RunAnalysis *run : runs)
        manifests.append(run->manifest);
    return distinctParts(runNames(manifests, RunNaming::Short)).value(r);
}

// Okabe & Ito's palette: orange and blue for the first run's arms, reddish purple and sky blue for the second's.
QList<Series> seriesOf(const QList<const RunAnalysis *> &runs)
{
    QList<Series> series;
    const bool two = runs.size() > 1;
    for (qsizetype r = 0; r < runs.size() && r < 2; ++r) {
        const QString prefix = two ? shortName(runs, r) + QStringLiteral(" · ") : QString();
        if (r == 0) {
            series.append({runs[r], kBaselineArm, QStringLiteral("#E69F00"), Series::Fill::Hatch,
                           Series::Marker::Circle, prefix + armLabel(kBaselineArm)});
            series.append({runs[r], kWithSkillArm, QStringLiteral("#0072B2"), Series::Fill::Solid,
                           Series::Marker::Square, prefix + armLabel(kWithSkillArm)});
        } else {
            series.append({runs[r], kBaselineArm, QStringLiteral("#CC79A7"), Series::Fill::CrossHatch,
                           Series::Marker::Triangle, prefix + armLabel(kBaselineArm)});
            series.append({runs[r], kWithSkillArm, QStringLiteral("#56B4E9"), Series::Fill::Outlined,
                           Series::Marker::Diamond, prefix + armLabel(kWithSkillArm)});
        }
    }
    return series;
}

QStringList modelsOf(const QList<const RunAnalysis *> &runs)
{
    QStringList models;
    for (const RunAnalysis *run : runs) {
        for (const ArmSummary &a : run->summary.arms) {
            if (!models.contains(a.model))
                models.append(a.model);
        }
    }
    return models;
}

ChartInk inkFor(ChartTarget target)
{
    ChartInk ink;
    if (target == ChartTarget::InlineHtml) {
        ink.text = QStringLiteral("currentColor");
        ink.grid = QStringLiteral("#888888");
        ink.background.clear();
    }
    return ink;
}

SvgWriter startChart(double width, double height, const QString &title, const ChartInk &ink)
{
    SvgWriter svg(width, height, title);
    if (!ink.background.isEmpty())
        svg.rect(QRectF(0, 0, width, height), ink.background);
    svg.setTextColour(ink.text);
    svg.text(QPointF(width / 2, 22), title, 15, SvgWriter::Anchor::Middle, true);
    return svg;
}

void fillShape(SvgWriter &svg, const QRectF &r, const Series &s)
{
    switch (s.fill) {
    case Series::Fill::Solid:
        svg.rect(r, s.colour);
        break;
    case Series::Fill::Hatch:
    case Series::Fill::CrossHatch:
        // A pale fill with dark hatching: light grey in print, clearly striped.
        svg.rect(r, s.colour, QStringLiteral("#333333"), 0.8);
        svg.hatch(r, QStringLiteral("#333333"), 5, s.fill == Series::Fill::CrossHatch);
        break;
    case Series::Fill::Outlined:
        svg.rect(r, s.colour, QStringLiteral("#000000"), 2);
        break;
    }
}

void marker(SvgWriter &svg, QPointF p, const Series &s, double size = 6)
{
    const QString stroke = QStringLiteral("#000000");
    switch (s.marker) {
    case Series::Marker::Circle:
        svg.circle(p, size, s.colour, stroke);
        break;
    case Series::Marker::Square:
        svg.rect(QRectF(p.x() - size, p.y() - size, 2 * size, 2 * size), s.colour, stroke);
        break;
    case Series::Marker::Triangle:
        svg.polygon(
            {p + QPointF(0, -size * 1.2), p + QPointF(size * 1.1, size * 0.8), p + QPointF(-size * 1.1, size * 0.8)},
            s.colour, stroke);
        break;
    case Series::Marker::Diamond:
        svg.polygon({p + QPointF(0, -size * 1.3), p + QPointF(size * 1.1, 0), p + QPointF(0, size * 1.3),
                     p + QPointF(-size * 1.1, 0)},
                    s.colour, stroke);
        break;
    }
}

constexpr double kLegendRow = 18;

double legendEntryWidth(const Series &s)
{
    return 26 + s.name.size() * 6.6 + 18;
}

/// The legend's rows: entries that fit in @p width, each row's entry indices.
QList<QList<int>> legendRows(const QList<Series> &series, double width)
{
    QList<QList<int>> rows{{}};
    double used = 0;
    for (qsizetype i = 0; i < series.size(); ++i) {
        const double w = legendEntryWidth(series[i]);
        if (!rows.last().isEmpty() && used + w > width - 16) {
            rows.append(QList<int>());
            used = 0;
        }
        rows.last().append(int(i));
        used += w;
    }
    return rows;
}

/// Legend entries (swatch or marker, then the name), centred, in as many rows as they need from @p y; returns the
/// height they took.
double legend(SvgWriter &svg, const QList<Series> &series, double width, double y, bool markers)
{
    const QList<QList<int>> rows = legendRows(series, width);
    for (qsizetype r = 0; r < rows.size(); ++r) {
        double total = 0;
        for (int i : rows[r])
            total += legendEntryWidth(series[i]);
        double x = std::max(8.0, (width - total) / 2);
        const double rowY = y + r * kLegendRow;
        for (int i : rows[r]) {
            const Series &s = series[i];
            if (markers)
                marker(svg, QPointF(x + 9, rowY - 4), s, 5);
            else
                fillShape(svg, QRectF(x, rowY - 11, 18, 13), s);
            svg.text(QPointF(x + 24, rowY), s.name, 11.5);
            x += legendEntryWidth(s);
        }
    }
    return rows.size() * kLegendRow;
}

/// A round step for about @p ticks intervals up to @p high: 1, 2, 2.5 or 5 times a power of ten (without 2.5
/// when @p quarterSteps is false, so that ticks of whole numbers stay whole).
double niceStep(double high, int ticks = 5, bool quarterSteps = true)
{
    if (high <= 0)
        return 1;
    const double raw = high / ticks;
    const double magnitude = std::pow(10, std::floor(std::log10(raw)));
    for (double f : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (f == 2.5 && !quarterSteps)
            continue;
        if (raw <= f * magnitude)
            return f * magnitude;
    }
    return 10 * magnitude;
}

QString tickLabel(double v, double step)
{
    // As many decimals as the step needs (2.5 needs one, 0.25 two): a tick never reads as a rounded neighbour.
    int decimals = 0;
    while (decimals < 6 && std::abs(step * std::pow(10, decimals) - std::round(step * std::pow(10, decimals))) > 1e-9)
        ++decimals;
    return QString::number(std::abs(v) < step * 1e-9 ? 0.0 : v, 'f', decimals);
}

struct MetricValue
{
    double value = 0;
    double low = 0;
    double high = 0;
};

std::optional<MetricValue> metricOf(const ArmSummary *a, ChartMetric metric)
{
    if (!a)
        return std::nullopt;
    switch (metric) {
    case ChartMetric::PassRate:
        if (a->passRate.trials == 0)
            return std::nullopt;
        return MetricValue{a->passRate.rate * 100, a->passRate.ci.low * 100, a->passRate.ci.high * 100};
    case ChartMetric::Tokens:
        if (a->tokens.n == 0)
            return std::nullopt;
        return MetricValue{a->tokens.mean, a->tokens.meanCi.low, a->tokens.meanCi.high};
    case ChartMetric::Cost:
        if (!a->costUsd || a->costUsd->n == 0)
            return std::nullopt;
        return MetricValue{a->costUsd->mean, a->costUsd->meanCi.low, a->costUsd->meanCi.high};
    case ChartMetric::Latency:
        if (a->latencyMs.n == 0)
            return std::nullopt;
        return MetricValue{a->latencyMs.mean / 1000, a->latencyMs.meanCi.low / 1000, a->latencyMs.meanCi.high / 1000};
    }
    return std::nullopt;
}

QString axisTitle(ChartMetric metric)
{
    switch (metric) {
    case ChartMetric::PassRate:
        return QStringLiteral("Pass rate (%)");
    case ChartMetric::Tokens:
        return QStringLiteral("Mean tokens per item");
    case ChartMetric::Cost:
        return QStringLiteral("Mean cost per item (USD)");
    case ChartMetric::Latency:
        return QStringLiteral("Mean latency per item (s)");
    }
    return {};
}

QString valueText(double v, ChartMetric metric)
{
    switch (metric) {
    case ChartMetric::PassRate:
        return QString::number(v, 'f', 1) + u'%';
    case ChartMetric::Tokens:
        return QString::number(qRound64(v));
    case ChartMetric::Cost:
        return u'$' + QString::number(v, 'g', 3);
    case ChartMetric::Latency:
        return QString::number(v, 'f', 2) + QStringLiteral(" s");
    }
    return {};
}

QString splitSuffix(const QString &split)
{
    if (split == u"train")
        return QStringLiteral(" — train cases");
    if (split == u"heldout")
        return QStringLiteral(" — held-out cases");
    return {};
}

/// Model names under a group: straight when they fit, slanted when there are many.
void modelLabel(SvgWriter &svg, double centre, double y, const QString &model, double groupWidth)
{
    if (model.size() * 6.5 < groupWidth - 4)
        svg.text(QPointF(centre, y + 14), model, 11.5, SvgWriter::Anchor::Middle);
    else
        svg.text(QPointF(centre + 4, y + 10), model, 11, SvgWriter::Anchor::End, false, -35);
}

double labelRoom(const QStringList &models, double groupWidth)
{
    double longest = 0;
    for (const QString &m : models)
        longest = std::max(longest, m.size() * 6.5);
    return longest < groupWidth - 4 ? 24 : std::min(170.0, longest * 0.6 + 16);
}

} // namespace

QString metricTitle(ChartMetric metric)
{
    switch (metric) {
    case ChartMetric::PassRate:
        return QStringLiteral("Pass rate");
    case ChartMetric::Tokens:
        return QStringLiteral("Tokens");
    case ChartMetric::Cost:
        return QStringLiteral("Cost");
    case ChartMetric::Latency:
        return QStringLiteral("Latency");
    }
    return {};
}

QString armBars(const QList<const RunAnalysis *> &runs, ChartMetric metric, const QString &split, ChartTarget target)
{
    const ChartInk ink = inkFor(target);
    const QList<Series> series = seriesOf(runs);
    const QStringList models = modelsOf(runs);
    const double width = std::max(760.0, 90.0 + models.size() * series.size() * 22.0);
    const double left = 78, right = 20, top = 44 + legendRows(series, width).size() * kLegendRow;
    const double plotWidth = width - left - right;
    const double groupWidth = models.isEmpty() ? plotWidth : plotWidth / models.size();
    const double bottomRoom = labelRoom(models, groupWidth) + 34;
    const double plotHeight = 260;
    const double height = top + plotHeight + bottomRoom;

    double high = metric == ChartMetric::PassRate ? 100 : 0;
    if (metric != ChartMetric::PassRate) {
        for (const QString &model : models) {
            for (const Series &s : series) {
                if (auto v = metricOf(s.run->summary.arm(model, s.arm, split), metric))
                    high = std::max({high, v->value, v->high});
            }
        }
    }
    const double step = niceStep(high > 0 ? high : 1);
    const double top_ = metric == ChartMetric::PassRate ? 100 : std::ceil((high > 0 ? high : 1) / step) * step;
    const auto yOf = [&](double v) { return top + plotHeight - plotHeight * std::clamp(v / top_, 0.0, 1.0); };

    SvgWriter svg = startChart(
        width, height,
        QStringLiteral("%1 by model, without and with the skill%2").arg(metricTitle(metric), splitSuffix(split)), ink);
    legend(svg, series, width, 46, false);
    for (double v = 0; v <= top_ + step / 2; v += step) {
        svg.line(QPointF(left, yOf(v)), QPointF(left + plotWidth, yOf(v)), ink.grid, 0.6, v > 0);
        svg.text(QPointF(left - 6, yOf(v) + 4), tickLabel(v, step), 11, SvgWriter::Anchor::End);
    }
    svg.text(QPointF(18, top + plotHeight / 2), axisTitle(metric), 12, SvgWriter::Anchor::Middle, false, -90);
    svg.text(QPointF(width - right, height - 8), QStringLiteral("Whiskers: 95% intervals"), 10, SvgWriter::Anchor::End);

    const double barWidth = std::min(34.0, (groupWidth - 16) / std::max<qsizetype>(1, series.size()));
    const bool labels = models.size() * series.size() <= 16;
    for (qsizetype m = 0; m < models.size(); ++m) {
        const double groupLeft = left + m * groupWidth + (groupWidth - barWidth * series.size()) / 2;
        for (qsizetype i = 0; i < series.size(); ++i) {
            const Series &s = series[i];
            const double x = groupLeft + i * barWidth;
            const auto v = metricOf(s.run->summary.arm(models[m], s.arm, split), metric);
            if (!v) {
                svg.text(QPointF(x + barWidth / 2, top + plotHeight - 4), QStringLiteral("n/a"), 9,
                         SvgWriter::Anchor::Middle);
                continue;
            }
            svg.beginGroup(QStringLiteral("%1, %2: %3 (95% interval %4 to %5)")
                               .arg(models[m], s.name, valueText(v->value, metric), valueText(v->low, metric),
                                    valueText(v->high, metric)));
            fillShape(svg, QRectF(x + 2, yOf(v->value), barWidth - 4, yOf(0) - yOf(v->value)), s);
            const double cx = x + barWidth / 2;
            svg.line(QPointF(cx, yOf(v->low)), QPointF(cx, yOf(v->high)), ink.text, 1.4);
            svg.line(QPointF(cx - 5, yOf(v->low)), QPointF(cx + 5, yOf(v->low)), ink.text, 1.4);
            svg.line(QPointF(cx - 5, yOf(v->high)), QPointF(cx + 5, yOf(v->high)), ink.text, 1.4);
            if (labels)
                svg.text(QPointF(cx, yOf(v->high) - 5), valueText(v->value, metric), 10, SvgWriter::Anchor::Middle);
            svg.endGroup();
        }
        modelLabel(svg, left + m * groupWidth + groupWidth / 2, top + plotHeight, models[m], groupWidth);
    }
    svg.line(QPointF(left, top + plotHeight), QPointF(left + plotWidth, top + plotHeight), ink.text, 1);
    svg.line(QPointF(left, top), QPointF(left, top + plotHeight), ink.text, 1);
    return svg.finish();
}

namespace {

/// What a pass-rate scatter puts on its x axis.
struct ScatterAxis
{
    QString chartTitle;
    QString axisTitle;
    QString valueName;                                              ///< "mean tokens", in each point's tooltip
    std::function<std::optional<double>(const ArmSummary &)> value; ///< nullopt: the point is not drawn
    std::function<QString(double)> text;                            ///< the value in a tooltip
};

QString passRateAgainst(const QList<const RunAnalysis *> &runs, const QString &split, ChartTarget target,
                        const ScatterAxis &axis)
{
    const ChartInk ink = inkFor(target);
    const QList<Series> series = seriesOf(runs);
    const QStringList models = modelsOf(runs);
    const double width = 760, left = 78, right = 30, top = 56 + legendRows(series, width).size() * kLegendRow;
    const double bottom = 56, height = top + 322 + bottom;
    const double plotWidth = width - left - right, plotHeight = height - top - bottom;
    double high = 0;
    for (const QString &model : models) {
        for (const Series &s : series) {
            if (const ArmSummary *a = s.run->summary.arm(model, s.arm, split))
                high = std::max(high, axis.value(*a).value_or(0));
        }
    }
    const double step = niceStep(high > 0 ? high * 1.05 : 1);
    const double xMax = std::ceil((high > 0 ? high * 1.05 : 1) / step) * step;
    const auto xOf = [&](double v) { return left + plotWidth * std::clamp(v / xMax, 0.0, 1.0); };
    const auto yOf = [&](double v) { return top + plotHeight - plotHeight * std::clamp(v / 100, 0.0, 1.0); };

    SvgWriter svg = startChart(width, height, axis.chartTitle + splitSuffix(split), ink);
    legend(svg, series, width, 46, true);
    for (double v = 0; v <= 100; v += 20) {
        svg.line(QPointF(left, yOf(v)), QPointF(left + plotWidth, yOf(v)), ink.grid, 0.6, v > 0);
        svg.text(QPointF(left - 6, yOf(v) + 4), tickLabel(v, 20), 11, SvgWriter::Anchor::End);
    }
    for (double v = 0; v <= xMax + step / 2; v += step) {
        svg.line(QPointF(xOf(v), top), QPointF(xOf(v), top + plotHeight), ink.grid, 0.6, v > 0);
        svg.text(QPointF(xOf(v), top + plotHeight + 16), tickLabel(v, step), 11, SvgWriter::Anchor::Middle);
    }
    svg.text(QPointF(18, top + plotHeight / 2), QStringLiteral("Pass rate (%)"), 12, SvgWriter::Anchor::Middle, false,
             -90);
    svg.text(QPointF(left + plotWidth / 2, height - 10), axis.axisTitle, 12, SvgWriter::Anchor::Middle);
    svg.line(QPointF(left, top + plotHeight), QPointF(left + plotWidth, top + plotHeight), ink.text, 1);
    svg.line(QPointF(left, top), QPointF(left, top + plotHeight), ink.text, 1);

    const auto point = [&](const Series &s, const QString &model) -> std::optional<QPointF> {
        const ArmSummary *a = s.run->summary.arm(model, s.arm, split);
        if (!a || a->passRate.trials == 0)
            return std::nullopt;
        const std::optional<double> x = axis.value(*a);
        if (!x)
            return std::nullopt;
        return QPointF(xOf(*x), yOf(a->passRate.rate * 100));
    };
    for (const QString &model : models) {
        for (qsizetype i = 0; i + 1 < series.size(); i += 2) {
            const auto from = point(series[i], model), to = point(series[i + 1], model);
            if (from && to)
                svg.arrow(*from, *to, series[i + 1].colour, 1.6);
        }
    }
    for (const QString &model : models) {
        for (const Series &s : series) {
            const auto p = point(s, model);
            if (!p)
                continue;
            const ArmSummary *a = s.run->summary.arm(model, s.arm, split);
            svg.beginGroup(QStringLiteral("%1, %2: pass rate %3%, %4 %5")
                               .arg(model, s.name, QString::number(a->passRate.rate * 100, 'f', 1), axis.valueName,
                                    axis.text(axis.value(*a).value_or(0))));
            marker(svg, *p, s);
            svg.endGroup();
        }
        if (models.size() <= 8) {
            // The name beside the with-skill point, on whichever side has room.
            if (const auto p = point(series[1], model)) {
                if (p->x() + 12 + model.size() * 6.2 < width)
                    svg.text(*p + QPointF(10, -9), model, 10.5);
                else
                    svg.text(*p + QPointF(-10, -9), model, 10.5, SvgWriter::Anchor::End);
            }
        }
    }
    return svg.finish();
}

} // namespace

QString passRateVsTokens(const QList<const RunAnalysis *> &runs, const QString &split, ChartTarget target)
{
    return passRateAgainst(
        runs, split, target,
        {QStringLiteral("Pass rate against tokens"),
         QStringLiteral("Mean tokens per item (input + output); arrows go from without to with the skill"),
         QStringLiteral("mean tokens"),
         [](const ArmSummary &a) { return a.tokens.n > 0 ? std::optional<double>(a.tokens.mean) : std::nullopt; },
         [](double v) { return QString::number(qRound64(v)); }});
}

QString passRateVsCost(const QList<const RunAnalysis *> &runs, const QString &split, ChartTarget target)
{
    return passRateAgainst(
        runs, split, target,
        {QStringLiteral("Pass rate against cost"),
         QStringLiteral("Mean cost per item (USD); up and to the left is better; arrows go from without to with the "
                        "skill"),
         QStringLiteral("mean cost per item $"),
         [](const ArmSummary &a) { return a.costUsd ? std::optional<double>(a.costUsd->mean) : std::nullopt; },
         [](double v) { return QString::number(v, 'g', 4); }});
}

QString liftPerModel(const QList<const RunAnalysis *> &runs, const QString &split, ChartTarget target)
{
    const ChartInk ink = inkFor(target);
    const QList<Series> all = seriesOf(runs);
    QList<Series> series; // the with-skill series stands for its run
    for (const Series &s : all) {
        if (s.arm == kWithSkillArm)
            series.append(s);
    }
    const QStringList models = modelsOf(runs);
    double longest = 0;
    for (const QString &m : models)
        longest = std::max(longest, m.size() * 6.6);
    const double width = 760, left = std::min(260.0, longest + 20), right = 150;
    const double top = 44 + (series.size() > 1 ? legendRows(series, width).size() * kLegendRow : 0);
    const double rowHeight = series.size() * 18 + 14;
    const double plotHeight = std::max<double>(rowHeight, models.size() * rowHeight);
    const double height = top + plotHeight + 46, plotWidth = width - left - right;
    double extent = 10;
    for (const Series &s : series) {
        for (const ArmComparison &c : s.run->summary.comparisons) {
            if (c.split == split)
                extent = std::max(extent, std::abs(c.lift * 100));
        }
    }
    // Round ticks (−10, −5, 0, +5, +10 or −40, −20, 0, …) that end exactly at the axis ends.
    const double step = niceStep(std::min(100.0, extent), 4, false);
    extent = std::min(100.0, std::ceil(extent / step - 1e-9) * step);
    const auto xOf = [&](double v) { return left + plotWidth / 2 + plotWidth / 2 * std::clamp(v / extent, -1.0, 1.0); };

    SvgWriter svg = startChart(width, height, QStringLiteral("Lift per model%1").arg(splitSuffix(split)), ink);
    if (series.size() > 1) {
        legend(svg, series, width, 46, false);
    }
    for (double v = -extent; v <= extent + step / 2; v += step) {
        svg.line(QPointF(xOf(v), top), QPointF(xOf(v), top + plotHeight), v == 0 ? ink.text : ink.grid,
                 v == 0 ? 1.2 : 0.6, v != 0);
        svg.text(QPointF(xOf(v), top + plotHeight + 16), (v > 0 ? QStringLiteral("+") : QString()) + tickLabel(v, step),
                 11, SvgWriter::Anchor::Middle);
    }
    svg.text(QPointF(left + plotWidth / 2, height - 8),
             QStringLiteral("Lift in percentage points (with minus without the skill, paired repeats); p: exact McNemar"),
             11.5, SvgWriter::Anchor::Middle);
    for (qsizetype m = 0; m < models.size(); ++m) {
        const double rowTop = top + m * rowHeight + 7;
        svg.text(QPointF(left - 8, rowTop + rowHeight / 2), models[m], 11.5, SvgWriter::Anchor::End);
        for (qsizetype i = 0; i < series.size(); ++i) {
            const ArmComparison *c = series[i].run->summary.comparison(models[m], split);
            const double y = rowTop + i * 18;
            if (!c || c->table.pairs() == 0) {
                svg.text(QPointF(xOf(0) + 6, y + 12), QStringLiteral("no pairs"), 10);
                continue;
            }
            const double lift = c->lift * 100;
            const QString text = QStringLiteral("%1%2 pp, p = %3")
                                     .arg(lift > 0 ? QStringLiteral("+") : QString(), QString::number(lift, 'f', 1),
                                          QString::number(c->pValue, 'g', 3));
            svg.beginGroup(QStringLiteral("%1, %2: lift %3 over %4 pairs")
                               .arg(models[m], series[i].name, text)
                               .arg(c->table.pairs()));
            const QRectF bar(std::min(xOf(0), xOf(lift)), y, std::abs(xOf(lift) - xOf(0)), 14);
            fillShape(svg, bar, series[i]);
            svg.text(QPointF(left + plotWidth + 6, y + 11), text, 10.5);
            svg.endGroup();
        }
    }
    return svg.finish();
}

QByteArray svgToPng(const QString &svg, double scale)
{
    QSvgRenderer renderer(svg.toUtf8());
    if (!renderer.isValid())
        return {};
    const QSize size = (QSizeF(renderer.defaultSize()) * scale).toSize();
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        renderer.render(&painter);
    }
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return png;
}

} // namespace sf::charts
