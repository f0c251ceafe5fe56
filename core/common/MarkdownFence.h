#pragma once

#include <QString>

namespace sf {

/// @p text as a fenced Markdown code block (```language ... ```) whose fence is longer than any run of backticks
/// inside it, so text that holds ``` itself (a model's answer, a tool's output) cannot close the block early.
QString fencedMarkdown(const QString &text, const QString &language = {});

} // namespace sf
