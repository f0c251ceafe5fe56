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

    /// What Save Chart suggests: @p prefix (the run's skill) before the chart's title in the file name, and
    /// @p folder (the project) where no chart was saved before.
    void setSaveHints(const QString &prefix, const QString &folder);
    /// The path Save Chart offers for @p format ("png" or "svg"): the folder charts were last saved in (else the
    /// hinted folder, else Pictures, else home), and a name from the prefix and the title, lower case, words
    /// joined by single hyphens.
    QString suggestedPath(const QString &format) const;

    /// Writes the chart as PNG at twice the screen resolution (crisp in documents); "" or an error.
    QString savePng(const QString &path);
    /// Writes the chart as SVG (vector, for print); "" or an error.
    QString saveSvg(const QString &path);

protected:
    void contextMenuEvent(QContextMenuEvent *event) override;

private:
    void exportInteractively(const QString &format);

    QString m_namePrefix;
    QString m_folderHint;
};

} // namespace sf::charts
