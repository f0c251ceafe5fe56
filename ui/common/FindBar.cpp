#include "common/FindBar.h"

#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTextCursor>
#include <QTextDocument>
#include <QToolButton>
#include <QVBoxLayout>

namespace sf {

FindBar::FindBar(QPlainTextEdit *editor, QWidget *parent)
    : QWidget(parent)
    , m_editor(editor)
    , m_input(new QLineEdit(this))
    , m_status(new QLabel(this))
    , m_caseSensitive(new QToolButton(this))
    , m_replaceRow(new QWidget(this))
    , m_replacement(new QLineEdit(m_replaceRow))
{
    m_input->setPlaceholderText(tr("Find"));
    m_input->setClearButtonEnabled(true);
    m_input->setAccessibleName(tr("Find"));
    auto *previous = new QToolButton(this);
    previous->setText(QStringLiteral("▲"));
    previous->setToolTip(tr("Previous match (Shift+Enter)"));
    auto *next = new QToolButton(this);
    next->setText(QStringLiteral("▼"));
    next->setToolTip(tr("Next match (Enter)"));
    m_caseSensitive->setText(QStringLiteral("Aa"));
    m_caseSensitive->setCheckable(true);
    m_caseSensitive->setToolTip(tr("Match case"));
    auto *close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setToolTip(tr("Close (Esc)"));

    m_replacement->setPlaceholderText(tr("Replace with"));
    m_replacement->setClearButtonEnabled(true);
    m_replacement->setAccessibleName(tr("Replace with"));
    auto *replace = new QPushButton(tr("&Replace"), m_replaceRow);
    replace->setToolTip(tr("Replace this match and find the next"));
    auto *replaceAllButton = new QPushButton(tr("Replace &All"), m_replaceRow);
    auto *replaceLayout = new QHBoxLayout(m_replaceRow);
    replaceLayout->setContentsMargins(0, 0, 0, 0);
    replaceLayout->addWidget(m_replacement, 1);
    replaceLayout->addWidget(replace);
    replaceLayout->addWidget(replaceAllButton);

    auto *findLayout = new QHBoxLayout;
    findLayout->addWidget(m_input, 1);
    findLayout->addWidget(previous);
    findLayout->addWidget(next);
    findLayout->addWidget(m_caseSensitive);
    findLayout->addWidget(m_status);
    findLayout->addWidget(close);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 2, 4, 2);
    layout->setSpacing(2);
    layout->addLayout(findLayout);
    layout->addWidget(m_replaceRow);
    m_replaceRow->hide();

    connect(m_input, &QLineEdit::returnPressed, this, [this] { findNext(); });
    connect(m_input, &QLineEdit::textEdited, this, [this] {
        // Search again from the start of the current match so typing refines it in place.
        QTextCursor cursor = m_editor->textCursor();
        cursor.setPosition(cursor.selectionStart());
        m_editor->setTextCursor(cursor);
        findNext();
    });
    connect(m_replacement, &QLineEdit::returnPressed, this, [this] { replaceNext(); });
    connect(previous, &QToolButton::clicked, this, [this] { findNext(true); });
    connect(next, &QToolButton::clicked, this, [this] { findNext(); });
    connect(replace, &QPushButton::clicked, this, [this] { replaceNext(); });
    connect(replaceAllButton, &QPushButton::clicked, this, [this] { replaceAll(); });
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

void FindBar::activateReplace()
{
    m_replaceRow->setVisible(!m_editor->isReadOnly());
    activate();
}

bool FindBar::isReplaceVisible() const
{
    return isVisible() && m_replaceRow->isVisible();
}

void FindBar::setFindText(const QString &text)
{
    m_input->setText(text);
}

void FindBar::setReplaceText(const QString &text)
{
    m_replacement->setText(text);
}

void FindBar::setCaseSensitive(bool caseSensitive)
{
    m_caseSensitive->setChecked(caseSensitive);
}

QString FindBar::statusText() const
{
    return m_status->text();
}

bool FindBar::findNext(bool backwards)
{
    const QString needle = m_input->text();
    if (needle.isEmpty()) {
        m_status->clear();
        return false;
    }
    QTextDocument::FindFlags flags = backwards ? QTextDocument::FindBackward : QTextDocument::FindFlags();
    if (m_caseSensitive->isChecked())
        flags |= QTextDocument::FindCaseSensitively;
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

bool FindBar::selectionIsMatch() const
{
    const QString selected = m_editor->textCursor().selectedText();
    const Qt::CaseSensitivity cs = m_caseSensitive->isChecked() ? Qt::CaseSensitive : Qt::CaseInsensitive;
    return !selected.isEmpty() && selected.compare(m_input->text(), cs) == 0;
}

bool FindBar::replaceNext()
{
    if (m_editor->isReadOnly() || m_input->text().isEmpty())
        return false;
    if (selectionIsMatch()) {
        QTextCursor cursor = m_editor->textCursor();
        cursor.insertText(m_replacement->text());
        m_editor->setTextCursor(cursor);
    }
    return findNext();
}

int FindBar::replaceAll()
{
    const QString needle = m_input->text();
    if (m_editor->isReadOnly() || needle.isEmpty())
        return 0;
    QTextDocument::FindFlags flags;
    if (m_caseSensitive->isChecked())
        flags |= QTextDocument::FindCaseSensitively;
    QTextDocument *document = m_editor->document();
    QTextCursor edit(document);
    edit.beginEditBlock();
    int count = 0;
    int from = 0;
    for (;;) {
        QTextCursor match = document->find(needle, from, flags);
        if (match.isNull())
            break;
        match.insertText(m_replacement->text());
        from = match.position(); // after the replacement, so it is never searched again
        ++count;
    }
    edit.endEditBlock();
    m_status->setText(count == 1 ? tr("1 replaced") : tr("%1 replaced").arg(count));
    return count;
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
