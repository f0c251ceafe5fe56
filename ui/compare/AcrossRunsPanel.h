#pragma once

#include "common/RunList.h"
#include "eval/RunAnalysis.h"
#include "eval/Verdict.h"

#include <QSplitter>
#include <functional>
#include <memory>

class QListWidget;
class QTableWidget;

namespace sf {

namespace charts {
class ChartPanel;
}

/// Compare's "Across runs" tab: any number of the project's runs side by side. Check runs on the left; the model ×
/// run matrix of lift (interval, verdict) and the trend of each model's lift across them follow, oldest run first.
class AcrossRunsPanel final : public QSplitter
{
    Q_OBJECT

public:
    /// The analysis of the run in @p dir if it has been read, else null (and the reading started, where it can be).
    using Reader = std::function<std::shared_ptr<const RunAnalysis>(const QString &dir)>;
    /// True while the run in a folder is being read.
    using Reading = std::function<bool(const QString &dir)>;

    AcrossRunsPanel(Reader read, Reading reading, QWidget *parent = nullptr);

    /// Lists @p runs (named as the run choice names them), keeping the checks of those still listed.
    void setRuns(const QList<RunListEntry> &runs);
    /// Checks exactly the runs at @p dirs.
    void setChecked(const QStringList &dirs);
    void setThresholds(const VerdictThresholds &thresholds);
    /// Shows the checked runs again (one has been read meanwhile).
    void refresh();

    QListWidget *runList() const { return m_list; }
    QTableWidget *table() const { return m_table; }
    charts::ChartPanel *trendChart() const { return m_trend; }

private:
    Reader m_read;
    Reading m_reading;
    QList<RunListEntry> m_runs;
    VerdictThresholds m_thresholds;
    QListWidget *m_list;
    QTableWidget *m_table;
    charts::ChartPanel *m_trend;
};

} // namespace sf
