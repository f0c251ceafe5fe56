#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace sf {

/// One line of a line diff: kept in both texts, only in the old one, or only in the new one.
struct DiffLine
{
    enum class Kind
    {
        Same,
        Removed,
        Added
    };
    Kind kind = Kind::Same;
    int oldIndex = -1; ///< 0-based line in the old text; -1 for Added
    int newIndex = -1; ///< 0-based line in the new text; -1 for Removed

    friend bool operator==(const DiffLine &, const DiffLine &) = default;
};

/// One row of a side-by-side view. A run of removed lines followed by added lines is paired up row by row
/// as Changed; what is left over stays Removed (nothing on the right) or Added (nothing on the left).
struct DiffRow
{
    enum class Kind
    {
        Same,
        Changed,
        Removed,
        Added
    };
    Kind kind = Kind::Same;
    int oldIndex = -1; ///< 0-based; -1 when the row has nothing on the left
    int newIndex = -1; ///< 0-based; -1 when the row has nothing on the right
};

/// A shortest edit script turning @p oldLines into @p newLines, in order: Myers' O(ND) algorithm in its
/// linear-space (middle snake) form, on interned lines, so two 5,000-line files with a few edits diff in
/// microseconds and completely different ones still in well under a second.
QList<DiffLine> diffLines(const QStringList &oldLines, const QStringList &newLines);

/// Rows for a side-by-side view of @p diff (see DiffRow).
QList<DiffRow> sideBySideRows(const QList<DiffLine> &diff);

/// Splits @p text into lines without their terminators ("\n" or "\r\n"); a final newline does not start
/// another line, and an empty text has no lines.
QStringList splitLines(const QString &text);

} // namespace sf
