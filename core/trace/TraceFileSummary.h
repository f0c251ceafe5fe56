#pragma once

#include <QList>
#include <QPair>
#include <QString>

namespace sf {

/**
 * A quick look at a trace file before (or without) a full import: its size, line count, whether it
 * is JSON Lines, the record types it holds, and the beginning of its text for display. Reads at most
 * a bounded prefix for the preview, but counts over the whole file.
 */
struct TraceFileSummary
{
    QString path;
    qint64 bytes = 0;
    qint64 lines = 0;
    bool isJsonLines = false;
    qint64 invalidJsonLines = 0;    ///< in a JSON Lines file: lines that do not parse
    qint64 firstInvalidLine = 0;    ///< 1-based, 0 when none
    QList<QPair<QString, qint64>> recordTypes; ///< "type" field -> count, most frequent first
    QString preview;                ///< the first previewBytes of the file, decoded as UTF-8
    bool previewTruncated = false;
    QString error;                  ///< set when the file could not be read

    static constexpr qint64 DefaultPreviewBytes = 2 * 1024 * 1024;

    static TraceFileSummary read(const QString &path, qint64 previewBytes = DefaultPreviewBytes);
};

} // namespace sf
