#include "skill/SkillLinks_p.h"

#include <QRegularExpression>
#include <QUrl>

namespace sf::detail {

namespace {

// Inline code spans hide Markdown syntax: `[a](b)` in backticks is an example, not a link.
QString withoutCodeSpans(const QString &line)
{
    QString result = line;
    static const QRegularExpression span(QStringLiteral("(`+)(.+?)\\1"));
    QRegularExpressionMatchIterator it = span.globalMatch(line);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        for (qsizetype i = match.capturedStart(); i < match.capturedEnd(); ++i)
            result[i] = u' ';
    }
    return result;
}

bool isLocalTarget(const QString &target)
{
    static const QRegularExpression scheme(QStringLiteral("^[A-Za-z][A-Za-z0-9+.-]*:"));
    return !target.isEmpty() && !target.startsWith(u'#') && !target.startsWith(u'/') && !target.startsWith(u'~') &&
           !target.startsWith(u'{') && !scheme.match(target).hasMatch();
}

QString cleanTarget(QString target)
{
    const qsizetype cut = target.indexOf(QRegularExpression(QStringLiteral("[#?]")));
    if (cut >= 0)
        target.truncate(cut);
    return QUrl::fromPercentEncoding(target.toUtf8());
}

} // namespace

QList<FileReference> fileReferences(const QString &markdown, int firstLine)
{
    static const QRegularExpression inlineLink(QStringLiteral(
        "!?\\[(?:[^\\]\\\\]|\\\\.)*\\]\\(\\s*(<[^>\\n]*>|[^\\s)]+)(?:\\s+(?:\"[^\"]*\"|'[^']*'|\\([^)]*\\)))?\\s*\\)"));
    static const QRegularExpression definition(QStringLiteral("^ {0,3}\\[[^\\]]+\\]:\\s*(<[^>]*>|\\S+)"));
    static const QRegularExpression htmlImage(
        QStringLiteral("<img\\b[^>]*?\\bsrc\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)'|([^\\s>]+))"),
        QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression bare(
        QStringLiteral("(?<![\\w/.~-])((?:references|scripts|assets)/[A-Za-z0-9_.\\-/]*[A-Za-z0-9_\\-])"));
    static const QRegularExpression fence(QStringLiteral("^ {0,3}(`{3,}|~{3,})"));

    QList<FileReference> references;
    const QStringList lines = markdown.split(u'\n');
    QString openFence; // the fence that opened the current code block, "" outside one
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QString line = lines[i];
        if (line.endsWith(u'\r'))
            line.chop(1);
        const QRegularExpressionMatch fenceMatch = fence.match(line);
        if (fenceMatch.hasMatch()) {
            const QString marker = fenceMatch.captured(1);
            if (openFence.isEmpty())
                openFence = marker;
            else if (marker.front() == openFence.front() && marker.size() >= openFence.size() &&
                     line.trimmed() == marker)
                openFence.clear();
            continue;
        }
        if (!openFence.isEmpty())
            continue;

        const int lineNumber = firstLine + int(i);
        QList<QPair<qsizetype, qsizetype>> linkSpans; // bare mentions inside a link are that link
        const QString scanned = withoutCodeSpans(line);
        auto addTarget = [&](const QRegularExpressionMatch &match, int group) {
            QString target = match.captured(group);
            qsizetype start = match.capturedStart(group);
            if (target.startsWith(u'<')) {
                target = target.mid(1, target.size() - 2);
                ++start;
            }
            linkSpans.append({match.capturedStart(), match.capturedEnd()});
            if (isLocalTarget(target) && !cleanTarget(target).isEmpty())
                references.append({cleanTarget(target), lineNumber, int(start) + 1, false});
        };
        QRegularExpressionMatchIterator links = inlineLink.globalMatch(scanned);
        while (links.hasNext())
            addTarget(links.next(), 1);
        const QRegularExpressionMatch def = definition.match(scanned);
        if (def.hasMatch())
            addTarget(def, 1);
        QRegularExpressionMatchIterator images = htmlImage.globalMatch(scanned);
        while (images.hasNext()) {
            const QRegularExpressionMatch match = images.next();
            addTarget(match, !match.captured(1).isNull() ? 1 : !match.captured(2).isNull() ? 2 : 3);
        }

        QRegularExpressionMatchIterator mentions = bare.globalMatch(line);
        while (mentions.hasNext()) {
            const QRegularExpressionMatch match = mentions.next();
            const qsizetype start = match.capturedStart(1);
            const bool insideLink = std::any_of(linkSpans.begin(), linkSpans.end(), [&](const auto &span) {
                return start >= span.first && start < span.second;
            });
            // withoutCodeSpans() blanked the code spans: a mention blanked there was in backticks.
            const bool inCodeSpan = scanned.at(start) == u' ';
            if (!insideLink)
                references.append({match.captured(1), lineNumber, int(start) + 1, true, inCodeSpan});
        }
    }
    return references;
}

} // namespace sf::detail
