// The Trace view's selection: the steps chosen in the timeline, kept with the project for skill generation
// (traces/.selections/) and brought back when the trace is opened again, or copied as Markdown.
#include "common/Plural.h"
#include "trace/TraceExport.h"
#include "trace/TraceFilterModel.h"
#include "trace/TraceSelection.h"
#include "trace/TraceTimelineModel.h"
#include "trace/TraceView.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QLabel>
#include <QTreeView>
#include <algorithm>

namespace sf {

std::vector<std::pair<int, int>> TraceView::selectedSteps() const
{
    std::vector<std::pair<int, int>> steps;
    for (const QModelIndex &index : m_tree->selectionModel()->selectedRows(0)) {
        const int step = index.data(TraceTimelineModel::StepRole).toInt();
        if (step >= 0)
            steps.emplace_back(index.data(TraceTimelineModel::ThreadRole).toInt(), step);
    }
    // Timeline order, whatever order the user clicked in.
    const auto &order = m_model->displayOrder();
    if (steps.size() > 1) {
        QHash<quint64, size_t> position;
        for (size_t i = 0; i < order.size(); ++i)
            position.insert((quint64(order[i].first) << 32) | quint32(order[i].second), i);
        std::sort(steps.begin(), steps.end(), [&position](const auto &a, const auto &b) {
            return position.value((quint64(a.first) << 32) | quint32(a.second)) <
                   position.value((quint64(b.first) << 32) | quint32(b.second));
        });
    }
    return steps;
}

void TraceView::selectSteps(const std::vector<std::pair<int, int>> &steps)
{
    QItemSelection selection;
    for (const auto &[t, s] : steps) {
        const QModelIndex index = m_filter->mapFromSource(m_model->indexFor(t, s));
        if (index.isValid())
            selection.select(index, index);
    }
    m_tree->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

QString TraceView::useSelectionForGeneration()
{
    const Trace *trace = m_model->trace();
    if (!trace || m_projectRoot.isEmpty())
        return tr("Open a project first: the selection is kept in the project.");
    const auto steps = selectedSteps();
    if (steps.empty())
        return tr("Select the steps to use first.");
    const TraceSelection selection = TraceSelection::fromSteps(*trace, steps);
    const QString error = selection.save(m_projectRoot);
    if (error.isEmpty())
        m_model->setKeptSteps(steps);
    if (error.isEmpty())
        m_selectionStatus->setText(
            plural(steps.size(), tr("1 step kept for skill generation in %1"),
                   tr("%n steps kept for skill generation in %1"))
                .arg(QDir(m_projectRoot)
                         .relativeFilePath(TraceSelection::selectionPathFor(m_projectRoot, trace->path))));
    return error;
}

void TraceView::restoreSelection()
{
    const Trace *trace = m_model->trace();
    if (!trace || m_projectRoot.isEmpty())
        return;
    const QString file = TraceSelection::selectionPathFor(m_projectRoot, trace->path);
    if (!QFileInfo::exists(file))
        return;
    const Result<TraceSelection> saved = TraceSelection::load(file);
    if (!saved)
        return;
    std::vector<std::pair<int, int>> steps;
    for (const SelectedStep &step : saved.value->steps)
        steps.emplace_back(step.thread, step.step);
    m_model->setKeptSteps(steps);
    selectSteps(steps);
    m_selectionStatus->setText(
        plural(steps.size(), tr("1 step kept for skill generation."), tr("%n steps kept for skill generation.")));
}

QString TraceView::selectionAsMarkdown() const
{
    const Trace *trace = m_model->trace();
    const auto steps = selectedSteps();
    return trace && !steps.empty() ? traceToMarkdown(*trace, steps) : QString();
}

} // namespace sf
