#pragma once

#include <QChartView>

namespace sf::charts {

/// A chart view that can be saved: "Save as PNG…" and "Save as SVG…" in its context menu, and the same as
/// functions for tests and callers. The picture is what is on screen, at the widget's size.
class ChartPanel final : public QChartView
{
    Q_OBJECT

public:
    explicit ChartPanel(QWidget *parent = nullptr);

    /// Replaces the shown chart (the panel takes ownership; the old one is deleted).
    void replaceChart(QChart *chart);

    /// Writes the chart as PNG at twice the screen resolution (crisp in documents); "" or an error.
    QString savePng(const QString &path);
    /// Writes the chart as SVG (vector, for print); "" or an error.
    QString saveSvg(const QString &path);

protected:
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    void exportInteractively(const QString &format);
};

} // namespace sf::charts
