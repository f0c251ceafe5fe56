#pragma once

#include <QLoggingCategory>

namespace sf {

// Real agent CLIs as students: installs found, the door's requests, CLI processes started and ended.
Q_DECLARE_LOGGING_CATEGORY(lcAgents)

} // namespace sf
