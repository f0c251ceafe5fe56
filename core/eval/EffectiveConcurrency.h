#pragma once

#include "EvalConfig.h"

#include <QString>

namespace sf {

class ChatClient;

/// What a run's concurrency becomes per provider, and why: "concurrency 16: generic 16 (the run's concurrency);
/// local 4 (the embedded server's 4 slots)". The eval command prints it, the launch dialog shows it.
QString effectiveConcurrencyText(const ChatClient &chat, const EvalConfig &config);

} // namespace sf
