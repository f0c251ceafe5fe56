// The Trace view's filters: which kinds of step and which tool the timeline shows, and thinking folded or not.
#include "common/Plural.h"
#include "trace/StepDetailView.h"
#include "trace/TraceFilterModel.h"
#include "trace/TraceTimelineModel.h"
#include "trace/TraceView.h"

#include <QAction>
#include <QComboBox>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QToolButton>
#include <algorithm>

namespace sf {

void TraceView::setKindVisible(StepKind kind, bool visible)
{
    const QList<QAction *> actions = m_kindsButton->menu()->actions();
    actions.at(int(kind))->setChecked(visible); // toggles the filter through the action
}

void TraceView::setToolFilter(const QString &toolName)
{
    const int index = m_toolCombo->findData(toolName);
    m_toolCombo->setCurrentIndex(std::max(index, 0));
}

void TraceView::setThinkingExpanded(bool expanded)
{
    m_model->setThinkingExpanded(expanded);
    m_detail->setThinkingFoldedByDefault(!expanded);
    showCurrentStep();
}

QString TraceView::filterStatus() const
{
    return m_filterStatus->isHidden() ? QString() : m_filterStatus->text();
}

void TraceView::clearFilters()
{
    for (QAction *action : m_kindsButton->menu()->actions())
        action->setChecked(true);
    m_toolCombo->setCurrentIndex(0);
}

void TraceView::filterChanged()
{
    int hiddenKinds = 0;
    for (int k = 0; k < StepKindCount; ++k)
        hiddenKinds += m_filter->isKindVisible(StepKind(k)) ? 0 : 1;
    m_kindsButton->setText(
        hiddenKinds == 0 ? tr("Kinds") : tr("Kinds (%1 of %2)").arg(StepKindCount - hiddenKinds).arg(StepKindCount));
    const Trace *trace = m_model->trace();
    const bool filtered = trace && (hiddenKinds > 0 || !m_filter->toolName().isEmpty());
    if (filtered) {
        size_t shown = 0;
        for (const auto &[thread, step] : m_model->displayOrder())
            shown += m_filter->acceptsStep(trace->threads[size_t(thread)].steps[size_t(step)]) ? 1 : 0;
        m_filterStatus->setText(
            plural(qsizetype(m_model->displayOrder().size()), tr("Showing %1 of 1 step"), tr("Showing %1 of %n steps"))
                .arg(QLocale().toString(qulonglong(shown))));
    }
    m_filterStatus->setVisible(filtered);
    m_showAllButton->setVisible(filtered);
    // The current index is one the filter shows (or none): a step the filter hid leaves the detail pane.
    showCurrentStep();
}

} // namespace sf
