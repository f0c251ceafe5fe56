#pragma once

#include <QMap>
#include <QPlainTextEdit>

namespace sf {

/**
 * The source editor of the Skill view: a plain-text editor with a line-number gutter, the current line
 * highlighted, a fixed-width font and 4-column tabs. Edits made for the user by other widgets (the
 * front-matter form) go through replaceText(), which changes only the lines that differ, as one undo step.
 */
class SkillEditor final : public QPlainTextEdit
{
    Q_OBJECT

public:
    explicit SkillEditor(QWidget *parent = nullptr);

    /// Moves the cursor to @p line and @p column (1-based; 0 means the start of the line) and centres it.
    void goTo(int line, int column = 0);
    /// Replaces the whole text with @p text as one undoable edit that touches only the changed middle part,
    /// so the cursor, the scroll position and the highlighting of untouched lines stay as they are.
    void replaceText(const QString &text);
    /// 1-based number of the first line shown at the top of the viewport.
    int firstVisibleLine() const;
    /// 1-based line of the text cursor.
    int cursorLine() const;

    int gutterWidth() const;

    /// A problem's mark in the gutter beside its line: what it says is the mark's tooltip.
    struct LineMark
    {
        bool error = true; ///< else a warning
        QString message;
    };
    /// Marks lines (1-based) with problems; an empty map clears every mark.
    void setLineMarks(const QMap<int, LineMark> &marks);
    const QMap<int, LineMark> &lineMarks() const { return m_marks; }

Q_SIGNALS:
    /// The line shown at the top changed (scrolling, typing, jumping), 1-based.
    void firstVisibleLineChanged(int line);

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    class Gutter;
    friend class Gutter;

    void paintGutter(QPaintEvent *event);
    void updateGutterWidth();
    void highlightCurrentLine();
    /// The tooltip of the gutter at @p y (its coordinates): the problems of that line, if any.
    QString gutterToolTip(int y) const;

    Gutter *m_gutter;
    int m_gutterDigits = 0;
    int m_firstVisibleLine = 1;
    QMap<int, LineMark> m_marks;
};

} // namespace sf
