#pragma once

#include <QString>

namespace sf {

/**
 * The skill description in a teacher's reply, in whichever shape the teacher gave it: the JSON object it was asked
 * for (bare, fenced, inside prose, nested, or with a raw line break a strict reader refuses), YAML front matter
 * (folded and quoted scalars too), a "Description:" label or heading (bold or not) with the text beside or below
 * it, a fenced block holding only the text, a line introducing a paragraph ("Here is the new description:"), or the
 * reply being the description itself, quoted or not. Quotes, Markdown emphasis and line breaks are taken off.
 * Empty when the reply holds nothing that reads as a description.
 */
QString descriptionFromReply(const QString &reply);

} // namespace sf
