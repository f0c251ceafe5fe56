#pragma once

#include <QObject>
#include <functional>

namespace sf::cli {

/// Ctrl-C or SIGTERM while a local command works: @p stop is called on the event loop with the signal's name, so
/// the work ends in order (what is done stays recorded, and the command says how to go on). A second signal ends
/// the process at once, as if nothing had been installed. Lives as long as @p context.
void stopOnSignal(QObject *context, std::function<void(const QString &signal)> stop);

} // namespace sf::cli
