// The Trace view's find: every step the filter shows, folded text and tool input included, walked in timeline order.
#include "trace/StepDetailView.h"
#include "trace/TraceFilterModel.h"
#include "trace/TraceTextFinder.h"
#include "trace/TraceTimelineModel.h"
#include "trace/TraceView.h"

#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QStackedWidget>
#include <QTreeView>
#include <algorithm>

namespace sf {

void TraceView::activateFind()
{
    if (m_stack->currentIndex() != 1)
        return;
    m_findRow->setVisible(true);
    m_findInput->setFocus();
    m_findInput->selectAll();
}

void TraceView::collectMatches(const QString &text)
{
    // Every step the filter shows whose text, tool input or tool name holds the query, in timeline order; kept
    // until the query, the filter or the trace changes, so Next and Previous walk the same list and it can be counted.
    m_findMatches.clear();
    m_findQuery = text;
    m_findMatchesValid = true;
    const Trace *trace = m_model->trace();
    if (!trace)
        return;
    const auto &order = m_model->displayOrder();
    const TraceTextFinder finder(text, Qt::CaseInsensitive);
    for (size_t i = 0; i < order.size(); ++i) {
        const auto [t, s] = order[i];
        const TraceStep &step = trace->threads[size_t(t)].steps[size_t(s)];
        if (!m_filter->acceptsStep(step))
            continue;
        if (finder.foundIn(step.text) || (step.kind == StepKind::ToolCall && finder.foundIn(step.input)) ||
            finder.foundIn(step.toolName))
            m_findMatches.push_back(i);
    }
}

bool TraceView::findNext(const QString &text, bool backwards)
{
    const Trace *trace = m_model->trace();
    const auto &order = m_model->displayOrder();
    if (!trace || order.empty() || text.isEmpty()) {
        m_findStatus->clear();
        return false;
    }
    if (!m_findMatchesValid || text != m_findQuery)
        collectMatches(text);
    if (m_findMatches.empty()) {
        m_findStatus->setText(tr("Not found"));
        return false;
    }
    // From the row the user is on, wherever they moved since the last find; else from the last match shown.
    std::optional<size_t> here;
    const QModelIndex current = m_tree->currentIndex();
    if (current.isValid()) {
        const std::pair<int, int> at{current.data(TraceTimelineModel::ThreadRole).toInt(),
                                     current.data(TraceTimelineModel::StepRole).toInt()};
        if (m_findPosition < order.size() && order[m_findPosition] == at) {
            here = m_findPosition;
        } else if (const auto it = std::find(order.begin(), order.end(), at); it != order.end()) {
            here = size_t(it - order.begin());
        }
    }
    if (!here && m_findShown)
        here = m_findPosition;
    size_t match = 0; // index into m_findMatches
    if (!here) {
        match = backwards ? m_findMatches.size() - 1 : 0;
    } else if (backwards) {
        const auto it = std::lower_bound(m_findMatches.begin(), m_findMatches.end(), *here);
        match = it == m_findMatches.begin() ? m_findMatches.size() - 1 : size_t(it - m_findMatches.begin()) - 1;
    } else {
        const auto it = std::upper_bound(m_findMatches.begin(), m_findMatches.end(), *here);
        match = it == m_findMatches.end() ? 0 : size_t(it - m_findMatches.begin());
    }

    const size_t i = m_findMatches[match];
    m_findPosition = i;
    m_findShown = true;
    const auto [t, s] = order[i];
    const QModelIndex index = m_filter->mapFromSource(m_model->indexFor(t, s));
    {
        const QSignalBlocker blocker(m_tree->selectionModel());
        m_tree->selectionModel()->setCurrentIndex(index,
                                                  QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
    m_tree->scrollTo(index, QAbstractItemView::PositionAtCenter);
    m_tree->viewport()->update();
    m_detail->showStep(t, s, true);
    m_detail->highlight(text);
    updateActions();
    m_findStatus->setText(
        tr("Match %1 of %2")
            .arg(QLocale().toString(qint64(match + 1)), QLocale().toString(qint64(m_findMatches.size()))));
    return true;
}

QString TraceView::findStatus() const
{
    return m_findStatus->text();
}

} // namespace sf
