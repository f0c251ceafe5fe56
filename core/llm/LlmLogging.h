#pragma once

#include <QLoggingCategory>

namespace sf {

// One category per area of core/llm. Debug output is off by default (it logs every request);
// enable it with e.g. QT_LOGGING_RULES="skillforge.llm.http.debug=true".
Q_DECLARE_LOGGING_CATEGORY(lcHttp)
Q_DECLARE_LOGGING_CATEGORY(lcChat)
Q_DECLARE_LOGGING_CATEGORY(lcLocalModel)

} // namespace sf
