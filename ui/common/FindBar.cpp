#include "common/FindBar.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextCursor>
#include <QToolButton>

namespace sf {

FindBar::FindBar(QPlainTextEdit *editor, QWidget *parent)
    : QWidget(parent)
    , m_editor(editor)
    , m_input(new QLineEdit(this))
    , m_status(new QLabel(this))
{
    m_input->setPlaceholderText(tr("Find"));
    m_input->setClearButtonEnabled(true);
    auto *previous = new QToolButton(this);
    previous->setText(QStringLiteral("▲"));
    previous->setToolTip(tr("Previous match (Shift+Enter)"));
    auto *next = new QToolButton(this);
    next->setText(QStringLiteral("▼"));
    next->setToolTip(tr("Next match (Enter)"));
    auto *close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setToolTip(tr("Close (Esc)"));

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->addWidget(m_input, 1);
    layout->addWidget(previous);
    layout->addWidget(next);
    layout->addWidget(m_status);
    layout->addWidget(close);

    connect(m_input, &QLineEdit::returnPressed, this, [this] { findNext(); });
    connect(m_input, &QLineEdit::textEdited, this, [this] {
        // Search again from the start of the current match so typing refines it in place.
        QTextCursor cursor = m_editor->textCursor();
        cursor.setPosition(cursor.selectionStart());
        m_editor->setTextCursor(cursor);
        findNext();
    });
    connect(previous, &QToolButton::clicked, this, [this] { findNext(true); });
    connect(next, &QToolButton::clicked, this, [this] { findNext(); });
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void FindBar::activate()
{
    show();
    const QString selected = m_editor->textCursor().selectedText();
    if (!selected.isEmpty() && !selected.contains(QChar::ParagraphSeparator))
        m_input->setText(selected);
    m_input->setFocus();
    m_input->selectAll();
}

bool FindBar::findNext(bool backwards)
{
    const QString needle = m_input->text();
    if (needle.isEmpty()) {
        m_status->clear();
        return false;
    }
    const QTextDocument::FindFlags flags = backwards ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    bool found = m_editor->find(needle, flags);
    if (!found) {
        // Wrap around once, the way editors do.
        QTextCursor cursor = m_editor->textCursor();
        cursor.movePosition(backwards ? QTextCursor::End : QTextCursor::Start);
        m_editor->setTextCursor(cursor);
        found = m_editor->find(needle, flags);
    }
    m_status->setText(found ? QString() : tr("Not found"));
    return found;
}

void FindBar::keyPressEvent(QKeyEvent *event)
{
    if (event->key() == Qt::Key_Escape) {
        hide();
        m_editor->setFocus();
        return;
    }
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) && event->modifiers() & Qt::ShiftModifier) {
        findNext(true);
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace sf
