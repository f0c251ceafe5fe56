#pragma once

#include <QString>

namespace sf {

/// Where and why reading a user file failed: enough for a message that names the file, line and problem.
struct LoadError
{
    QString file;
    int line = 0;   ///< 1-based; 0 when the problem is not tied to a line
    int column = 0; ///< 1-based; 0 when unknown
    QString message;

    /// "file:line:column: message", leaving out the parts that are unknown.
    QString toString() const;
};

/// Converts a byte offset in @p text to a 1-based line and column.
void lineAndColumnAt(const QByteArray &text, qsizetype offset, int *line, int *column);

} // namespace sf
