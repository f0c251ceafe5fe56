#pragma once

#include <QObject>
#include <QString>

namespace sf {

/// The one place views and dialogs report what an action did that leaves nothing else on screen (copied,
/// saved, restored). The main window shows each message in its status bar for a few seconds.
class StatusMessages final : public QObject
{
    Q_OBJECT

public:
    static StatusMessages &instance();
    /// Reports @p message: "Copied 3 steps as Markdown", "Saved chart to …".
    static void show(const QString &message);

Q_SIGNALS:
    void message(const QString &text);

private:
    using QObject::QObject;
};

} // namespace sf
