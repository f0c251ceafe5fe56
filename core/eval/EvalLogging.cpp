#include "EvalLogging.h"

namespace sf {

Q_LOGGING_CATEGORY(lcEval, "skillforge.eval", QtInfoMsg)

} // namespace sf
