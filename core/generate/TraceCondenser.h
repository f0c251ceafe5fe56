#pragma once

#include "trace/Trace.h"
#include "trace/TraceSelection.h"

#include <QString>

namespace sf {

/**
 * A trace cut down to what a teacher should read within a token budget — never a blind cut. Steps
 * are taken by priority until the budget is spent, then written in their original order with the
 * gaps marked: first the steps the user selected, then the user's prompts, the assistant's
 * reasoning and words, its tool calls, failed tool results and the step after each failure (the
 * fix); other tool results last. Long texts are shortened in the middle, keeping both ends.
 */
QString condenseTrace(const Trace &trace, int budgetTokens, const TraceSelection *selection = nullptr);

/** @p text with its middle replaced by "[... N characters omitted ...]" when longer than @p maxChars. */
QString shortenMiddle(const QString &text, int maxChars);

} // namespace sf
