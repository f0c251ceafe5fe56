#pragma once

#include <QWidget>

class QLineEdit;
class QLabel;
class QPlainTextEdit;

namespace sf {

/// A find bar for a text view: type to search, Enter / Shift+Enter for next / previous, Esc closes.
class FindBar final : public QWidget
{
    Q_OBJECT

public:
    explicit FindBar(QPlainTextEdit *editor, QWidget *parent = nullptr);

    void activate();
    bool findNext(bool backwards = false);

protected:
    void keyPressEvent(QKeyEvent *event) override;

private:
    QPlainTextEdit *m_editor;
    QLineEdit *m_input;
    QLabel *m_status;
};

} // namespace sf
