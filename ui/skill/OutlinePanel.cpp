#include "skill/OutlinePanel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>

namespace sf {

namespace {
constexpr int LineRole = Qt::UserRole + 1;
}

OutlinePanel::OutlinePanel(QWidget *parent)
    : QWidget(parent)
    , m_tree(new QTreeWidget(this))
{
    auto *title = new QLabel(tr("<b>Outline</b>"), this);
    title->setContentsMargins(6, 4, 6, 2);
    m_tree->setHeaderHidden(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setIndentation(12);
    m_tree->setAccessibleName(tr("Outline"));
    m_tree->setTextElideMode(Qt::ElideRight);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(title);
    layout->addWidget(m_tree, 1);

    const auto activate = [this](QTreeWidgetItem *item) {
        if (item)
            Q_EMIT headingActivated(item->data(0, LineRole).toInt());
    };
    connect(m_tree, &QTreeWidget::itemClicked, this, activate);
    connect(m_tree, &QTreeWidget::itemActivated, this, activate);
}

void OutlinePanel::setHeadings(const QList<OutlineHeading> &headings)
{
    if (headings == m_headings)
        return;
    // Same titles and levels, only moved lines: update in place so selection and scrolling stay.
    bool sameShape = headings.size() == m_headings.size();
    for (qsizetype i = 0; sameShape && i < headings.size(); ++i)
        sameShape = headings[i].level == m_headings[i].level && headings[i].title == m_headings[i].title;
    m_headings = headings;
    if (sameShape) {
        qsizetype i = 0;
        for (QTreeWidgetItemIterator it(m_tree); *it; ++it)
            (*it)->setData(0, LineRole, m_headings[i++].line);
        return;
    }
    const QSignalBlocker block(m_tree);
    m_tree->clear();
    QList<QTreeWidgetItem *> stack; // the last item of each level above
    QList<int> levels;
    for (const OutlineHeading &heading : headings) {
        while (!levels.isEmpty() && levels.last() >= heading.level) {
            levels.removeLast();
            stack.removeLast();
        }
        auto *item = stack.isEmpty() ? new QTreeWidgetItem(m_tree) : new QTreeWidgetItem(stack.last());
        item->setText(0, heading.title.isEmpty() ? tr("(untitled)") : heading.title);
        item->setToolTip(0, QStringLiteral("%1 — line %2").arg(heading.title).arg(heading.line));
        item->setData(0, LineRole, heading.line);
        if (heading.level <= 2) {
            QFont font = item->font(0);
            font.setBold(heading.level == 1);
            item->setFont(0, font);
        }
        stack.append(item);
        levels.append(heading.level);
    }
    m_tree->expandAll();
}

void OutlinePanel::setCurrentLine(int line)
{
    QTreeWidgetItem *best = nullptr;
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        if ((*it)->data(0, LineRole).toInt() <= line)
            best = *it;
        else
            break;
    }
    const QSignalBlocker block(m_tree);
    if (best != m_tree->currentItem())
        m_tree->setCurrentItem(best);
}

} // namespace sf
