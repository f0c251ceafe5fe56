#include "kernels/KernelLogging.h"

namespace sf {

Q_LOGGING_CATEGORY(lcKernels, "skillforge.kernels", QtWarningMsg)

} // namespace sf
