#include "skill/SkillEditor.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QPainter>
#include <QScrollBar>
#include <QTextBlock>
#include <QToolTip>

namespace sf {

/// The line-number strip at the left edge; SkillEditor paints it.
class SkillEditor::Gutter final : public QWidget
{
public:
    explicit Gutter(SkillEditor *editor)
        : QWidget(editor)
        , m_editor(editor)
    {
    }

    QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *event) override { m_editor->paintGutter(event); }
    bool event(QEvent *event) override
    {
        if (event->type() == QEvent::ToolTip) {
            auto *help = static_cast<QHelpEvent *>(event);
            const QString tip = m_editor->gutterToolTip(help->pos().y());
            if (tip.isEmpty())
                QToolTip::hideText();
            else
                QToolTip::showText(help->globalPos(), tip, this);
            return true;
        }
        return QWidget::event(event);
    }

private:
    SkillEditor *m_editor;
};

SkillEditor::SkillEditor(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_gutter(new Gutter(this))
{
    QFont font = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    setFont(font);
    setLineWrapMode(QPlainTextEdit::WidgetWidth);
    setWordWrapMode(QTextOption::WrapAtWordBoundaryOrAnywhere);
    setTabStopDistance(4 * fontMetrics().horizontalAdvance(u' '));
    setAccessibleName(tr("Skill source"));
    setCenterOnScroll(false);

    connect(this, &QPlainTextEdit::blockCountChanged, this, &SkillEditor::updateGutterWidth);
    connect(this, &QPlainTextEdit::updateRequest, this, [this](const QRect &rect, int dy) {
        if (dy)
            m_gutter->scroll(0, dy);
        else
            m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
        // Every scroll ends in an update request, whichever way it happened (some move the scroll bar with
        // its signals blocked), so this is where the top line is noticed.
        const int first = firstVisibleLine();
        if (first != m_firstVisibleLine) {
            m_firstVisibleLine = first;
            Q_EMIT firstVisibleLineChanged(first);
        }
    });
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, &SkillEditor::highlightCurrentLine);
    updateGutterWidth();
    highlightCurrentLine();
}

int SkillEditor::gutterWidth() const
{
    const int digits = qMax(3, int(QString::number(qMax(1, blockCount())).size()));
    return 18 + fontMetrics().horizontalAdvance(u'9') * digits; // room on the left for a problem's mark
}

void SkillEditor::updateGutterWidth()
{
    const int digits = int(QString::number(qMax(1, blockCount())).size());
    if (digits == m_gutterDigits)
        return;
    m_gutterDigits = digits;
    setViewportMargins(gutterWidth(), 0, 0, 0);
    const QRect area = contentsRect();
    m_gutter->setGeometry(QRect(area.left(), area.top(), gutterWidth(), area.height()));
}

void SkillEditor::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect area = contentsRect();
    m_gutter->setGeometry(QRect(area.left(), area.top(), gutterWidth(), area.height()));
}

void SkillEditor::changeEvent(QEvent *event)
{
    QPlainTextEdit::changeEvent(event);
    if (event->type() == QEvent::FontChange || event->type() == QEvent::PaletteChange) {
        m_gutterDigits = 0;
        updateGutterWidth();
        highlightCurrentLine();
    }
}

void SkillEditor::paintGutter(QPaintEvent *event)
{
    QPainter painter(m_gutter);
    const QPalette &pal = palette();
    painter.fillRect(event->rect(), pal.color(QPalette::AlternateBase));
    painter.setFont(font());
    const int current = textCursor().blockNumber();
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    const int lineHeight = fontMetrics().height();
    const int width = m_gutter->width() - 6;
    while (block.isValid() && top <= event->rect().bottom()) {
        const int bottom = top + qRound(blockBoundingRect(block).height());
        if (block.isVisible() && bottom >= event->rect().top()) {
            const bool isCurrent = block.blockNumber() == current;
            if (const auto mark = m_marks.constFind(block.blockNumber() + 1); mark != m_marks.cend()) {
                // A dot at the gutter's left edge, in the problems panel's colours: red for errors, amber for warnings.
                const int size = qMax(6, lineHeight / 2);
                painter.save();
                painter.setRenderHint(QPainter::Antialiasing);
                painter.setPen(Qt::NoPen);
                painter.setBrush(mark->error ? QColor(0xc6, 0x28, 0x28) : QColor(0xe0, 0x9b, 0x26));
                painter.drawEllipse(QRect(3, top + (lineHeight - size) / 2, size, size));
                painter.restore();
            }
            painter.setPen(isCurrent ? pal.color(QPalette::Text) : pal.color(QPalette::Disabled, QPalette::Text));
            painter.drawText(0, top, width, lineHeight, Qt::AlignRight | Qt::AlignVCenter,
                             QString::number(block.blockNumber() + 1));
        }
        block = block.next();
        top = bottom;
    }
}

void SkillEditor::setLineMarks(const QMap<int, LineMark> &marks)
{
    m_marks = marks;
    m_gutter->update();
}

QString SkillEditor::gutterToolTip(int y) const
{
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    while (block.isValid() && top <= y) {
        const int bottom = top + qRound(blockBoundingRect(block).height());
        if (y < bottom)
            return m_marks.value(block.blockNumber() + 1).message;
        block = block.next();
        top = bottom;
    }
    return {};
}

void SkillEditor::highlightCurrentLine()
{
    QList<QTextEdit::ExtraSelection> selections;
    if (!isReadOnly()) {
        QTextEdit::ExtraSelection line;
        QColor color = palette().color(QPalette::Highlight);
        color.setAlpha(28);
        line.format.setBackground(color);
        line.format.setProperty(QTextFormat::FullWidthSelection, true);
        line.cursor = textCursor();
        line.cursor.clearSelection();
        selections.append(line);
    }
    setExtraSelections(selections);
}

void SkillEditor::goTo(int line, int column)
{
    const QTextBlock block = document()->findBlockByNumber(qMax(0, line - 1));
    if (!block.isValid())
        return;
    QTextCursor cursor(block);
    cursor.movePosition(QTextCursor::Right, QTextCursor::MoveAnchor, qBound(0, column - 1, block.length() - 1));
    setTextCursor(cursor);
    centerCursor();
    setFocus();
}

void SkillEditor::replaceText(const QString &text)
{
    const QString current = toPlainText();
    if (current == text)
        return;
    qsizetype prefix = 0;
    const qsizetype shorter = qMin(current.size(), text.size());
    while (prefix < shorter && current[prefix] == text[prefix])
        ++prefix;
    qsizetype suffix = 0;
    while (suffix < shorter - prefix && current[current.size() - 1 - suffix] == text[text.size() - 1 - suffix])
        ++suffix;
    QTextCursor cursor(document());
    cursor.beginEditBlock();
    cursor.setPosition(int(prefix));
    cursor.setPosition(int(current.size() - suffix), QTextCursor::KeepAnchor);
    cursor.insertText(text.mid(prefix, text.size() - prefix - suffix));
    cursor.endEditBlock();
}

int SkillEditor::firstVisibleLine() const
{
    return firstVisibleBlock().blockNumber() + 1;
}

int SkillEditor::cursorLine() const
{
    return textCursor().blockNumber() + 1;
}

} // namespace sf
