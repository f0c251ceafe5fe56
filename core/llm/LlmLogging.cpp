#include "LlmLogging.h"

namespace sf {

Q_LOGGING_CATEGORY(lcHttp, "skillforge.llm.http", QtInfoMsg)
Q_LOGGING_CATEGORY(lcChat, "skillforge.llm.chat", QtInfoMsg)
Q_LOGGING_CATEGORY(lcLocalModel, "skillforge.llm.local", QtInfoMsg)

} // namespace sf
