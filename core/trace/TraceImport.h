#pragma once

#include "common/Result.h"
#include "trace/Trace.h"

#include <QStringList>
#include <functional>

namespace sf {

/// How to import: an explicit format (empty: detect from content) and a progress callback that is
/// called from the importing thread every few hundred kilobytes; returning false cancels the import.
struct TraceImportOptions
{
    QString format;
    std::function<bool(qint64 bytesDone, qint64 bytesTotal)> progress;
    /// A Claude Code session (or stream-json) file at least this large is parsed on two threads where the
    /// machine has two cores; 0: always, negative: never. The result is the same either way; small files are
    /// not worth a thread.
    qint64 twoThreadsFromBytes = 16 * 1024 * 1024;
};

/// The format names importTrace() accepts, in the order detection tries them.
QStringList traceFormats();

/// The format of @p path judged from its content (not its name); empty with *why set when none fits.
QString detectTraceFormat(const QString &path, QString *why = nullptr);

/// Reads a trace file (or an upskill run folder) into the normalized model. Malformed lines are skipped
/// and listed in Trace::skipped; a file that is no trace, or not of the format asked for, is an error
/// naming the formats tried. Safe on any input: binary data, NUL bytes, huge lines, truncated files.
Result<Trace> importTrace(const QString &path, const TraceImportOptions &options = {});

/// The message importTrace() fails with when the progress callback cancelled it.
QString traceImportCancelledMessage();

} // namespace sf
