#include "compare/CompareView.h"

#include "common/EmptyState.h"
#include "project/Project.h"

#include <QVBoxLayout>

namespace sf {

CompareView::CompareView(QWidget *parent)
    : ViewPage(parent)
    , m_empty(new EmptyState(this))
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_empty);
    setProject(nullptr);
}

void CompareView::setProject(const Project *project)
{
    const int runs = project ? int(project->items(ProjectItem::Kind::Run).size()) : 0;
    m_empty->setText(tr("Nothing to compare yet"),
                     runs == 0 ? tr("The comparison shows each student model's pass rate, tokens, cost and latency "
                                    "without and with the skill. It needs an evaluation run in this project's runs/ "
                                    "folder.")
                               : tr("This project has %n run(s). Choose one in the Runs view.", nullptr, runs));
}

} // namespace sf
