#pragma once

#include <QFrame>
#include <functional>

class QHBoxLayout;
class QLabel;

namespace sf {

/// A strip above the editor that tells the user something and offers a choice (recover unsaved edits,
/// reload a file changed on disk) without blocking them the way a modal dialog would.
class NoticeBar final : public QFrame
{
    Q_OBJECT

public:
    enum class Kind
    {
        Information,
        Warning
    };
    struct Action
    {
        QString text;
        std::function<void()> run;
        QString objectName; ///< so tests and accessibility tools can find the button
    };

    explicit NoticeBar(QWidget *parent = nullptr);

    /// Shows @p text with a button per action; any button also hides the bar.
    void showNotice(const QString &text, Kind kind, const QList<Action> &actions);
    QString text() const;

private:
    QLabel *m_icon;
    QLabel *m_text;
    QHBoxLayout *m_buttons;
};

} // namespace sf
