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
enum class TraceScope
{
    WholeTrace, ///< the selected steps first, then the rest by priority while the budget lasts
    KeptSteps   ///< only the selected steps (the whole trace when there is no selection)
};
QString condenseTrace(const Trace &trace, int budgetTokens, const TraceSelection *selection = nullptr,
                      TraceScope scope = TraceScope::WholeTrace);

/** A project's trace as a teacher reads it, and what was kept of it. */
struct TraceForTeacher
{
    QString label;      ///< the file name
    QString text;       ///< what the teacher reads (condenseTrace), or why the trace could not be read
    int keptSteps = 0;  ///< steps kept for skill generation in the project (traces/.selections/); 0: none
    int totalSteps = 0; ///< steps in the whole trace
    TraceScope scope = TraceScope::WholeTrace; ///< KeptSteps only when steps are kept
    bool readable = true;
};

/**
 * Reads the trace at @p path and condenses it for the teacher: with steps kept for it in the project at
 * @p projectRoot and @p scope KeptSteps, only those steps; else the whole trace within @p budgetTokens.
 */
TraceForTeacher traceForTeacher(const QString &path, const QString &projectRoot, int budgetTokens, TraceScope scope);

/** @p text with its middle replaced by "[... N characters omitted ...]" when longer than @p maxChars. */
QString shortenMiddle(const QString &text, int maxChars);

} // namespace sf
