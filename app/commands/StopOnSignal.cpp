#include "StopOnSignal.h"

#include <QSocketNotifier>
#include <csignal>
#include <unistd.h>

namespace sf::cli {

namespace {

int signalPipe[2] = {-1, -1};

extern "C" void onStopSignal(int signal)
{
    // The first signal is the user's request to stop in order; a second one gets the default: the process ends.
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    const char byte = char(signal);
    [[maybe_unused]] const ssize_t written = ::write(signalPipe[1], &byte, 1);
}

} // namespace

void stopOnSignal(QObject *context, std::function<void(const QString &signal)> stop)
{
    if (signalPipe[0] < 0 && ::pipe(signalPipe) != 0)
        return;
    auto *notifier = new QSocketNotifier(signalPipe[0], QSocketNotifier::Read, context);
    QObject::connect(notifier, &QSocketNotifier::activated, context, [notifier, stop = std::move(stop)] {
        char byte = 0;
        if (::read(signalPipe[0], &byte, 1) != 1)
            return;
        notifier->setEnabled(false);
        stop(byte == SIGTERM ? QStringLiteral("SIGTERM") : QStringLiteral("SIGINT (Ctrl-C)"));
    });
    struct sigaction action = {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
}

} // namespace sf::cli
