#include "skill/MarkdownOutline.h"

namespace sf {

namespace {

/// The fence character and length of a fence line (up to three spaces, then 3+ '`' or '~'), or 0.
int fenceAt(QStringView line, QChar *fenceChar)
{
    qsizetype i = 0;
    while (i < line.size() && i < 3 && line[i] == u' ')
        ++i;
    if (i >= line.size() || (line[i] != u'`' && line[i] != u'~'))
        return 0;
    const QChar c = line[i];
    qsizetype n = 0;
    while (i + n < line.size() && line[i + n] == c)
        ++n;
    if (n < 3)
        return 0;
    *fenceChar = c;
    return int(n);
}

} // namespace

QList<OutlineHeading> markdownHeadings(const QString &text)
{
    QList<OutlineHeading> headings;
    const QStringView all(text);
    qsizetype start = 0;
    int lineNumber = 0;
    bool inFrontMatter = false;
    QChar openFence;
    int openFenceLength = 0;
    while (start <= all.size()) {
        qsizetype end = all.indexOf(u'\n', start);
        if (end < 0)
            end = all.size();
        QStringView line = all.mid(start, end - start);
        if (line.endsWith(u'\r'))
            line.chop(1);
        ++lineNumber;
        start = end + 1;

        if (lineNumber == 1 && line.trimmed() == u"---" && line.startsWith(u"---")) {
            inFrontMatter = true;
            continue;
        }
        if (inFrontMatter) {
            if ((line.trimmed() == u"---" || line.trimmed() == u"...") && !line.startsWith(u' '))
                inFrontMatter = false;
            continue;
        }
        QChar fenceChar;
        const int fence = fenceAt(line, &fenceChar);
        if (openFenceLength > 0) {
            if (fence >= openFenceLength && fenceChar == openFence && line.trimmed().size() == fence)
                openFenceLength = 0;
            continue;
        }
        if (fence > 0) {
            openFence = fenceChar;
            openFenceLength = fence;
            continue;
        }

        qsizetype i = 0;
        while (i < line.size() && i < 3 && line[i] == u' ')
            ++i;
        int level = 0;
        while (i + level < line.size() && line[i + level] == u'#')
            ++level;
        if (level < 1 || level > 6)
            continue;
        const qsizetype after = i + level;
        if (after < line.size() && line[after] != u' ' && line[after] != u'\t')
            continue;
        QStringView title = line.mid(after).trimmed();
        // A closing sequence of '#'s (preceded by a space) is not part of the title.
        qsizetype closing = title.size();
        while (closing > 0 && title[closing - 1] == u'#')
            --closing;
        if (closing == 0 || title[closing - 1] == u' ')
            title = title.left(closing).trimmed();
        headings.append({lineNumber, level, title.toString()});
    }
    return headings;
}

} // namespace sf
