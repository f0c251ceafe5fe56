#pragma once

#include "trace/Trace.h"

#include <QWidget>

class QChart;
class QChartView;
class QLineSeries;

namespace sf {

/// A small chart of the context size (all input tokens of each assistant turn) over the main thread,
/// thinned to a few thousand points so that huge sessions draw at once.
class ContextChart final : public QWidget
{
    Q_OBJECT

public:
    static constexpr int MaxPoints = 2000;

    explicit ContextChart(QWidget *parent = nullptr);
    void setTrace(const Trace *trace);
    int pointCount() const;
    /// The vertical axis' labels as drawn ("0k", "2k", "4k").
    QStringList verticalLabels() const;

    /// A value axis from 0 for values up to @p max: ticks a round step apart (1, 2 or 5 times a power of ten), at
    /// most @p maxIntervals of them, labelled with as many decimals as the step needs, so no two labels read alike.
    struct NiceAxis
    {
        double top = 1;
        int ticks = 2;
        int decimals = 0;
    };
    static NiceAxis niceAxis(double max, int maxIntervals);

protected:
    void changeEvent(QEvent *event) override;

private:
    /// The application's light or dark look, now and again whenever the palette changes.
    void applyStyle();

    QChartView *m_view;
    QLineSeries *m_series;
};

} // namespace sf
