#pragma once

#include <QList>
#include <QString>

namespace sf {

/// One ATX heading ("## Title") of a Markdown text.
struct OutlineHeading
{
    int line = 0;  ///< 1-based line in the text
    int level = 1; ///< 1 for '#', up to 6
    QString title; ///< without the '#' marks and closing '#'s

    friend bool operator==(const OutlineHeading &, const OutlineHeading &) = default;
};

/// The headings of @p text in order, skipping a YAML front matter at the top and fenced code blocks
/// (a '# comment' in a bash block is not a heading). One pass over the text, no allocation per line.
QList<OutlineHeading> markdownHeadings(const QString &text);

} // namespace sf
