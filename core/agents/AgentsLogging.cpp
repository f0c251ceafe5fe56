#include "AgentsLogging.h"

namespace sf {

Q_LOGGING_CATEGORY(lcAgents, "skillforge.agents", QtInfoMsg)

} // namespace sf
