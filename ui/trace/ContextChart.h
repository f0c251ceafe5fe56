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

protected:
    void changeEvent(QEvent *event) override;

private:
    /// The application's light or dark look, now and again whenever the palette changes.
    void applyStyle();

    QChartView *m_view;
    QLineSeries *m_series;
};

} // namespace sf
