#pragma once

#include "common/Result.h"
#include "trace/Trace.h"

namespace sf {

/// One chosen step, named both by position and by what survives a re-import (thread id, source line).
struct SelectedStep
{
    int thread = 0;
    int step = 0;
    QString threadId;
    qint64 line = 0;
    QString kind; ///< stepKindName()
};

/**
 * The steps of a trace a user picked in the viewer for skill generation. Kept in the project at
 * `<project>/traces/.selections/<trace file name>.json` (see selectionPathFor), so the trace file itself
 * stays untouched and the project sidebar, which lists only visible files, does not show it.
 */
struct TraceSelection
{
    QString tracePath; ///< relative to the project when the trace lies inside it
    QString format;
    std::vector<SelectedStep> steps;

    static TraceSelection fromSteps(const Trace &trace, const std::vector<std::pair<int, int>> &steps);

    /// Where the selection for @p tracePath lives in the project at @p projectRoot.
    static QString selectionPathFor(const QString &projectRoot, const QString &tracePath);
    /// Writes atomically; returns an error message or empty.
    QString save(const QString &projectRoot) const;
    static Result<TraceSelection> load(const QString &selectionFile);
};

} // namespace sf
