#pragma once

#include <QString>

class QWidget;

namespace sf {

/// Asks before an action: @p question, answered with a button named after the action (@p title, "Restore
/// Version") or Cancel, not Yes or No. The action's button is the default where what it replaces is kept (a
/// restore or a delete stores a version first); Cancel is, where it is not. Escape cancels.
bool askToConfirm(QWidget *parent, const QString &title, const QString &question, bool actionIsDefault = true);

} // namespace sf
