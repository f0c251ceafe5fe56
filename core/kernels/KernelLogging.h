#pragma once

#include <QLoggingCategory>

namespace sf {

// Kernel builds and runs; enable the details with QT_LOGGING_RULES="skillforge.kernels.debug=true".
Q_DECLARE_LOGGING_CATEGORY(lcKernels)

} // namespace sf
