#include "skill/DiffView.h"

#include "common/Theme.h"

#include <QFontDatabase>
#include <QGridLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>
#include <algorithm>

namespace sf {

namespace {

QColor tint(const QColor &color, const QColor &base, double amount)
{
    return QColor::fromRgbF(float(base.redF() + (color.redF() - base.redF()) * amount),
                            float(base.greenF() + (color.greenF() - base.greenF()) * amount),
                            float(base.blueF() + (color.blueF() - base.blueF()) * amount));
}

QPlainTextEdit *makeSide(QWidget *parent, const QString &name)
{
    auto *edit = new QPlainTextEdit(parent);
    edit->setReadOnly(true);
    edit->setLineWrapMode(QPlainTextEdit::NoWrap);
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit->setAccessibleName(name);
    edit->setUndoRedoEnabled(false);
    return edit;
}

} // namespace

DiffView::DiffView(QWidget *parent)
    : QWidget(parent)
    , m_leftTitle(new QLabel(this))
    , m_rightTitle(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_left(makeSide(this, tr("Older text")))
    , m_right(makeSide(this, tr("Newer text")))
{
    auto *layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setHorizontalSpacing(4);
    layout->addWidget(m_leftTitle, 0, 0);
    layout->addWidget(m_rightTitle, 0, 1);
    layout->addWidget(m_left, 1, 0);
    layout->addWidget(m_right, 1, 1);
    layout->addWidget(m_summary, 2, 0, 1, 2);
    layout->setRowStretch(1, 1);

    // The rows are aligned, so the two sides scroll as one.
    connect(m_left->verticalScrollBar(), &QScrollBar::valueChanged, m_right->verticalScrollBar(),
            &QScrollBar::setValue);
    connect(m_right->verticalScrollBar(), &QScrollBar::valueChanged, m_left->verticalScrollBar(),
            &QScrollBar::setValue);
    connect(m_left->horizontalScrollBar(), &QScrollBar::valueChanged, m_right->horizontalScrollBar(),
            &QScrollBar::setValue);
    connect(m_right->horizontalScrollBar(), &QScrollBar::valueChanged, m_left->horizontalScrollBar(),
            &QScrollBar::setValue);
}

void DiffView::setTexts(const QString &oldText, const QString &newText, const QString &oldTitle,
                        const QString &newTitle)
{
    m_oldLines = splitLines(oldText);
    m_newLines = splitLines(newText);
    m_rows = sideBySideRows(diffLines(m_oldLines, m_newLines));
    m_added = 0;
    m_removed = 0;
    for (const DiffRow &row : std::as_const(m_rows)) {
        if (row.kind == DiffRow::Kind::Added || row.kind == DiffRow::Kind::Changed)
            ++m_added;
        if (row.kind == DiffRow::Kind::Removed || row.kind == DiffRow::Kind::Changed)
            ++m_removed;
    }
    m_leftTitle->setText(QStringLiteral("<b>%1</b>").arg(oldTitle.toHtmlEscaped()));
    m_rightTitle->setText(QStringLiteral("<b>%1</b>").arg(newTitle.toHtmlEscaped()));
    m_summary->setText(summary());

    const QColor base = palette().color(QPalette::Base);
    const QColor removedColor = tint(Theme::failure(), base, 0.18);
    const QColor addedColor = tint(Theme::success(), base, 0.18);
    QTextCharFormat removedText;
    removedText.setBackground(tint(Theme::failure(), base, 0.45));
    QTextCharFormat addedText;
    addedText.setBackground(tint(Theme::success(), base, 0.45));
    const QColor fillerColor = tint(palette().color(QPalette::Text), base, 0.06);
    const int digits = int(QString::number(qMax(m_oldLines.size(), m_newLines.size())).size());

    const auto fill = [&](QPlainTextEdit *edit, bool left) {
        QTextDocument *doc = edit->document();
        doc->clear();
        QTextCursor cursor(doc);
        cursor.beginEditBlock();
        bool first = true;
        for (const DiffRow &row : std::as_const(m_rows)) {
            const int index = left ? row.oldIndex : row.newIndex;
            QTextBlockFormat format;
            if (index < 0)
                format.setBackground(fillerColor);
            else if (row.kind == DiffRow::Kind::Changed ||
                     row.kind == (left ? DiffRow::Kind::Removed : DiffRow::Kind::Added))
                format.setBackground(left ? removedColor : addedColor);
            if (first) {
                cursor.setBlockFormat(format);
                first = false;
            } else {
                cursor.insertBlock(format);
            }
            if (index < 0)
                continue;
            const QString &line = left ? m_oldLines[index] : m_newLines[index];
            cursor.insertText(QStringLiteral("%1  ").arg(index + 1, digits), QTextCharFormat());
            if (row.kind != DiffRow::Kind::Changed) {
                cursor.insertText(line, QTextCharFormat());
                continue;
            }
            // Within a changed line, the part that differs (between the common start and end) stands out.
            const QString &other = left ? m_newLines[row.newIndex] : m_oldLines[row.oldIndex];
            qsizetype prefix = 0;
            while (prefix < line.size() && prefix < other.size() && line[prefix] == other[prefix])
                ++prefix;
            qsizetype suffix = 0;
            while (suffix < line.size() - prefix && suffix < other.size() - prefix &&
                   line[line.size() - 1 - suffix] == other[other.size() - 1 - suffix])
                ++suffix;
            cursor.insertText(line.left(prefix), QTextCharFormat());
            cursor.insertText(line.mid(prefix, line.size() - prefix - suffix), left ? removedText : addedText);
            cursor.insertText(line.right(suffix), QTextCharFormat());
        }
        cursor.endEditBlock();
    };
    fill(m_left, true);
    fill(m_right, false);
    // Start at the first difference, with a little context above it.
    const auto first = std::find_if(m_rows.cbegin(), m_rows.cend(),
                                    [](const DiffRow &row) { return row.kind != DiffRow::Kind::Same; });
    const int firstRow = first == m_rows.cend() ? 0 : int(first - m_rows.cbegin());
    m_left->horizontalScrollBar()->setValue(0);
    if (first != m_rows.cend() && first->kind == DiffRow::Kind::Changed) {
        // Long lines do not wrap (the rows must stay aligned): bring the changed part into view.
        const QTextBlock block = m_right->document()->findBlockByNumber(firstRow);
        const auto formats = block.textFormats();
        const auto changed = std::find_if(formats.cbegin(), formats.cend(), [](const QTextLayout::FormatRange &range) {
            return range.format.background().style() != Qt::NoBrush;
        });
        // The start of the change, so that a change that fits on screen leaves the view unscrolled (line numbers
        // and all); only one further right than the pane is wide scrolls it.
        QTextCursor cursor(block);
        if (changed != formats.cend())
            cursor.setPosition(block.position() + changed->start);
        m_right->horizontalScrollBar()->setValue(0);
        m_right->setTextCursor(cursor);
        m_right->ensureCursorVisible();
    }
    m_left->verticalScrollBar()->setValue(qMax(0, firstRow - 3));
}

QString DiffView::summary() const
{
    if (m_added == 0 && m_removed == 0)
        return tr("No differences");
    return tr("+%1 / −%2 lines").arg(m_added).arg(m_removed);
}

QString DiffView::leftLine(int row) const
{
    const int index = m_rows.value(row).oldIndex;
    return index >= 0 ? m_oldLines.value(index) : QString();
}

QString DiffView::rightLine(int row) const
{
    const int index = m_rows.value(row).newIndex;
    return index >= 0 ? m_newLines.value(index) : QString();
}

} // namespace sf
