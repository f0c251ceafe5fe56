#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QToolButton;

namespace sf {

/// A find bar for a text view: type to search, Enter / Shift+Enter for next / previous, Esc closes. For an
/// editable text it also replaces: the current match, or all matches as one undo step.
class FindBar final : public QWidget
{
    Q_OBJECT

public:
    explicit FindBar(QPlainTextEdit *editor, QWidget *parent = nullptr);

    /// Shows the bar for finding, with the selection (if one line) as the text to find.
    void activate();
    /// Shows the bar with the replace row (read-only texts get find only).
    void activateReplace();
    bool findNext(bool backwards = false);
    /// Replaces the match that is selected (if any) and moves to the next one; false when none is left.
    bool replaceNext();
    /// Replaces every match as one undoable edit; returns how many.
    int replaceAll();

    void setFindText(const QString &text);
    void setReplaceText(const QString &text);
    void setCaseSensitive(bool caseSensitive);
    bool isReplaceVisible() const;
    QString statusText() const;

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    bool selectionIsMatch() const;

    QPlainTextEdit *m_editor;
    QLineEdit *m_input;
    QLabel *m_status;
    QToolButton *m_caseSensitive;
    QWidget *m_replaceRow;
    QLineEdit *m_replacement;
};

} // namespace sf
