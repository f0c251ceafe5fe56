#include "MarkdownFence.h"

#include <algorithm>

namespace sf {

QString fencedMarkdown(const QString &text, const QString &language)
{
    int longest = 0, run = 0;
    for (QChar c : text) {
        run = c == u'`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const QString fence(std::max(3, longest + 1), u'`');
    return fence + language + u'\n' + text + (text.endsWith(u'\n') ? QString() : QStringLiteral("\n")) + fence + u'\n';
}

} // namespace sf
