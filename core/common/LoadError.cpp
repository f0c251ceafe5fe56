#include "common/LoadError.h"

#include <algorithm>

namespace sf {

QString LoadError::toString() const
{
    QString where = file;
    if (line > 0) {
        where += u':' + QString::number(line);
        if (column > 0)
            where += u':' + QString::number(column);
    }
    return where.isEmpty() ? message : where + u": " + message;
}

void lineAndColumnAt(const QByteArray &text, qsizetype offset, int *line, int *column)
{
    offset = std::clamp<qsizetype>(offset, 0, text.size());
    int currentLine = 1;
    qsizetype lineStart = 0;
    for (qsizetype i = 0; i < offset; ++i) {
        if (text.at(i) == '\n') {
            ++currentLine;
            lineStart = i + 1;
        }
    }
    *line = currentLine;
    *column = int(offset - lineStart) + 1;
}

} // namespace sf
