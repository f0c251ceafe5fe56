#pragma once

#include <QLoggingCategory>

namespace sf {

// Evaluation runs: the runner's scheduling and the store's writes (debug off by default).
Q_DECLARE_LOGGING_CATEGORY(lcEval)

} // namespace sf
