#pragma once

#include <QList>
#include <QString>

namespace sf::detail {

/// A reference from a Markdown file to another file: a Markdown link or image ("[text](path)"), an HTML image
/// (<img src="path">), a link reference definition ("[id]: path"), or a bare mention of a path under one of the skill's
/// conventional folders (`references/x.md`, scripts/run.py, assets/logo.png) in prose or inline code. Fenced code
/// blocks are skipped: paths there usually belong to the user's project, not the skill.
struct FileReference
{
    QString target; ///< as written, fragment and query removed, percent-decoded
    int line = 0;   ///< 1-based, in the scanned text's own lines plus the caller's offset
    int column = 0; ///< 1-based column of the target's first character
    bool bareMention = false;
    bool inCodeSpan = false; ///< a bare mention in backticks: often an example of a file the reader might make
};

/// The file references in @p markdown whose lines are numbered from @p firstLine. URLs, anchors
/// ("#section"), absolute paths, home paths and folder mentions ending in '/' are left out.
QList<FileReference> fileReferences(const QString &markdown, int firstLine = 1);

} // namespace sf::detail
