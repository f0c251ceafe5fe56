#pragma once

#include "ChatTypes.h"

#include <QList>
#include <QString>

namespace sf {

/** Tool calls found in a reply's text, and the text that is left around them. */
struct TextToolCalls
{
    QList<ToolCall> calls;
    QString remainingText;
};

/**
 * Small local models often write their tool calls into the reply's text instead of the API's
 * `tool_calls`: in the chat template's own tags (`<tool_call>{"name": ..., "arguments": ...}</tool_call>`),
 * in a fenced JSON block, or as bare JSON. This finds each JSON object in `text` that names one of
 * `tools` and carries its arguments (as `arguments` or `parameters`, an object or a JSON string;
 * OpenAI's `{"function": {...}}` wrapper too), in order, and removes them (with their tags or fences)
 * from the text. Objects that name no offered tool stay in the text: they are the answer, not calls.
 * Call ids are `text_call_N`, counted from `firstId`.
 */
TextToolCalls toolCallsInText(const QString &text, const QList<ToolDefinition> &tools, int firstId = 1);

} // namespace sf
