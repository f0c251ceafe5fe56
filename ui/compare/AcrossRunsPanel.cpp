#include "compare/AcrossRunsPanel.h"

#include "charts/ChartPanel.h"
#include "charts/ComparisonCharts.h"
#include "compare/VerdictsPanel.h"
#include "eval/LiftAcrossRuns.h"
#include "eval/RunName.h"

#include <QDir>
#include <QListWidget>
#include <QSet>
#include <QSignalBlocker>
#include <QTableWidget>

namespace sf {

AcrossRunsPanel::AcrossRunsPanel(Reader read, Reading reading, QWidget *parent)
    : QSplitter(Qt::Horizontal, parent)
    , m_read(std::move(read))
    , m_reading(std::move(reading))
    , m_list(new QListWidget(this))
    , m_table(new QTableWidget(this))
    , m_trend(new charts::ChartPanel(this))
{
    m_list->setToolTip(tr("The runs to put side by side (skill versions, teachers, models)"));
    m_list->setTextElideMode(Qt::ElideMiddle);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    addWidget(m_list);
    addWidget(m_table);
    addWidget(m_trend);
    setStretchFactor(1, 2);
    setStretchFactor(2, 2);
    connect(m_list, &QListWidget::itemChanged, this, &AcrossRunsPanel::refresh);
}

void AcrossRunsPanel::setRuns(const QList<RunListEntry> &runs)
{
    m_runs = runs;
    QSet<QString> checked;
    for (int i = 0; i < m_list->count(); ++i) {
        if (m_list->item(i)->checkState() == Qt::Checked)
            checked.insert(m_list->item(i)->data(Qt::UserRole).toString());
    }
    const QSignalBlocker block(m_list);
    m_list->clear();
    for (const RunListEntry &run : runs) {
        auto *item = new QListWidgetItem(run.label, m_list);
        item->setData(Qt::UserRole, run.path);
        item->setToolTip(run.tooltip);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(checked.contains(run.path) ? Qt::Checked : Qt::Unchecked);
    }
}

void AcrossRunsPanel::setChecked(const QStringList &dirs)
{
    {
        const QSignalBlocker block(m_list);
        for (int i = 0; i < m_list->count(); ++i) {
            QListWidgetItem *item = m_list->item(i);
            item->setCheckState(dirs.contains(item->data(Qt::UserRole).toString()) ? Qt::Checked : Qt::Unchecked);
        }
    }
    refresh();
}

void AcrossRunsPanel::setThresholds(const VerdictThresholds &thresholds)
{
    m_thresholds = thresholds;
    refresh();
}

void AcrossRunsPanel::refresh()
{
    QList<std::shared_ptr<const RunAnalysis>> read;
    QList<const RunAnalysis *> runs;
    int reading = 0;
    for (int i = 0; i < m_list->count(); ++i) {
        if (m_list->item(i)->checkState() != Qt::Checked)
            continue;
        const QString dir = m_list->item(i)->data(Qt::UserRole).toString();
        if (auto analysis = m_read(dir)) {
            runs.append(analysis.get());
            read.append(std::move(analysis));
        } else if (m_reading(dir)) {
            ++reading;
        }
    }
    const LiftAcrossRuns across = liftAcrossRuns(runs, m_thresholds);
    // The table's columns as the run choice names the runs; the trend's axis, short of room, by what tells them apart.
    QStringList names;
    QList<RunManifest> manifests;
    for (const RunAnalysis *run : across.runs) {
        QString name = run->label();
        for (const RunListEntry &entry : std::as_const(m_runs)) {
            if (QDir(entry.path) == QDir(run->dir))
                name = entry.label;
        }
        names.append(name);
        manifests.append(run->manifest);
    }
    m_table->clear();
    m_table->setRowCount(int(across.models.size()));
    m_table->setColumnCount(int(across.runs.size()));
    m_table->setHorizontalHeaderLabels(names);
    m_table->setVerticalHeaderLabels(across.models);
    for (int m = 0; m < across.models.size(); ++m) {
        for (int r = 0; r < across.runs.size(); ++r) {
            const auto &cell = across.cells[m][r];
            auto *item = new QTableWidgetItem(
                cell ? tr("%1 %2 · %3")
                           .arg(liftPointsText(cell->lift), liftIntervalText(cell->liftCi),
                                cell->split == u"heldout" ? cell->word() + tr(" (held-out cases)") : cell->word())
                     : tr("not measured"));
            if (cell)
                item->setToolTip(cell->reason());
            m_table->setItem(m, r, item);
        }
    }
    m_table->resizeColumnsToContents();
    m_table->setToolTip(reading > 0 ? tr("Reading %n more run(s)…", nullptr, reading)
                                    : tr("Lift in percentage points [95% interval] and the verdict, per model and "
                                         "run; thresholds: %1")
                                          .arg(m_thresholds.describe()));
    m_trend->replaceChart(charts::makeLiftTrendChart(across, runNames(manifests, RunNaming::Short)));
}

} // namespace sf
