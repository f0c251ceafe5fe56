#pragma once

#include "skill/MarkdownOutline.h"

#include <QWidget>

class QTreeWidget;

namespace sf {

/// The headings of the Markdown file in the editor as a tree; clicking one jumps to it. The heading that
/// holds the cursor is selected.
class OutlinePanel final : public QWidget
{
    Q_OBJECT

public:
    explicit OutlinePanel(QWidget *parent = nullptr);

    void setHeadings(const QList<OutlineHeading> &headings);
    const QList<OutlineHeading> &headings() const { return m_headings; }
    /// Selects the last heading at or above @p line (1-based).
    void setCurrentLine(int line);

    QTreeWidget *tree() const { return m_tree; }

Q_SIGNALS:
    void headingActivated(int line);

private:
    QTreeWidget *m_tree;
    QList<OutlineHeading> m_headings;
};

} // namespace sf
