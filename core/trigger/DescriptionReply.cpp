#include "DescriptionReply.h"

#include "skill/SkillDocument.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

/// Quotes, backticks and Markdown emphasis around the text, and its line breaks, taken off.
QString cleaned(QString text)
{
    text = text.simplified();
    static const QRegularExpression wrapper(uR"(^(\*\*|__|\*|_|`|"|'|“|‘)(.*)(\*\*|__|\*|_|`|"|'|”|’)$)"_s);
    for (int round = 0; round < 3; ++round) {
        const QRegularExpressionMatch match = wrapper.match(text);
        if (!match.hasMatch())
            break;
        text = match.captured(2).trimmed();
    }
    return text;
}

QString descriptionIn(const QJsonValue &value)
{
    if (value.isObject()) {
        const QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (it.key().compare("description"_L1, Qt::CaseInsensitive) == 0 && it.value().isString())
                return it.value().toString();
        }
        for (auto it = object.begin(); it != object.end(); ++it) {
            if (const QString found = descriptionIn(it.value()); !found.isEmpty())
                return found;
        }
    } else if (value.isArray()) {
        for (const QJsonValue &item : value.toArray()) {
            if (const QString found = descriptionIn(item); !found.isEmpty())
                return found;
        }
    }
    return {};
}

/// Each balanced {...} in the text (braces inside JSON strings not counted), parsed as JSON.
QString fromJsonObjects(const QString &reply)
{
    for (qsizetype open = reply.indexOf(u'{'); open >= 0; open = reply.indexOf(u'{', open + 1)) {
        int depth = 0;
        bool inString = false;
        for (qsizetype i = open; i < reply.size(); ++i) {
            const QChar c = reply.at(i);
            if (inString) {
                if (c == u'\\')
                    ++i;
                else if (c == u'"')
                    inString = false;
                continue;
            }
            if (c == u'"') {
                inString = true;
            } else if (c == u'{') {
                ++depth;
            } else if (c == u'}' && --depth == 0) {
                const QJsonDocument document = QJsonDocument::fromJson(reply.mid(open, i - open + 1).toUtf8());
                if (const QString found = descriptionIn(document.object()); !found.isEmpty())
                    return found;
                break;
            }
        }
    }
    return {};
}

/// "description": "..." where the JSON around it does not parse (a raw line break in the string, a missing brace).
QString fromJsonKey(const QString &reply)
{
    static const QRegularExpression key(uR"re("description"\s*:\s*"((?:[^"\\]|\\.)*)")re"_s,
                                        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = key.match(reply);
    if (!match.hasMatch())
        return {};
    QString escaped = match.captured(1);
    escaped.replace(u'\n', u"\\n"_s).replace(u'\r', QString()).replace(u'\t', u"\\t"_s);
    const QJsonDocument document = QJsonDocument::fromJson(u"[\"%1\"]"_s.arg(escaped).toUtf8());
    return document.isArray() ? document.array().first().toString() : match.captured(1);
}

/// A front matter block ("---" lines around YAML), or a fenced yaml block, read as SKILL.md's front matter is.
QString fromFrontMatter(const QString &reply)
{
    static const QRegularExpression block(uR"((?:^|\n)(?:---|```ya?ml)[ \t]*\n(.*?)\n(?:---|```)[ \t]*(?:\n|$))"_s,
                                          QRegularExpression::DotMatchesEverythingOption);
    for (auto matches = block.globalMatch(reply); matches.hasNext();) {
        const QRegularExpressionMatch match = matches.next();
        const SkillDocument document = SkillDocument::parse(u"---\n"_s + match.captured(1) + u"\n---\n"_s);
        if (const QString description = document.description(); !description.trimmed().isEmpty())
            return description;
    }
    return {};
}

bool isFence(const QString &line)
{
    return line.trimmed().startsWith("```"_L1) || line.trimmed().startsWith("~~~"_L1);
}

/// The paragraph from line @p from on: up to a blank line, a fence or the reply's end; leading blank lines skipped.
QString paragraphFrom(const QStringList &lines, qsizetype from)
{
    while (from < lines.size() && lines.at(from).trimmed().isEmpty())
        ++from;
    if (from < lines.size() && isFence(lines.at(from))) {
        QStringList fenced; // the label's text in a fenced block of its own
        for (qsizetype i = from + 1; i < lines.size() && !isFence(lines.at(i)); ++i)
            fenced << lines.at(i);
        return fenced.join(u' ');
    }
    QStringList paragraph;
    for (qsizetype i = from; i < lines.size(); ++i) {
        if (lines.at(i).trimmed().isEmpty() || isFence(lines.at(i)))
            break;
        paragraph << lines.at(i);
    }
    return paragraph.join(u' ');
}

/// "Description: ...", "**Description:** ...", "## Description" or "New description:" with the text beside the
/// label, or in the paragraph under it.
QString fromLabel(const QString &reply)
{
    static const QRegularExpression label(
        uR"(^\s*(?:#+\s*|>\s*|[-*]\s+)?(?:\*\*|__)?(?:(?:new|improved|proposed|revised|updated|rewritten)\s+)?)"
        uR"(description(?:\*\*|__)?\s*(?:(?::|=|—|-)\s*(?:\*\*|__)?\s*(.*))?$)"_s,
        QRegularExpression::CaseInsensitiveOption);
    const QStringList lines = reply.split(u'\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QRegularExpressionMatch match = label.match(lines.at(i));
        if (!match.hasMatch())
            continue;
        const QString beside = match.captured(1).trimmed();
        static const QRegularExpression yamlBlock(uR"(^[>|][+-]?$)"_s);
        if (beside.isEmpty() || yamlBlock.match(beside).hasMatch()) { // "description: >" folds the lines below
            if (const QString below = paragraphFrom(lines, i + 1); !below.trimmed().isEmpty())
                return below;
            continue;
        }
        // The text beside the label, and its continuation lines up to a blank line.
        QStringList text{beside};
        for (qsizetype j = i + 1; j < lines.size(); ++j) {
            if (lines.at(j).trimmed().isEmpty() || isFence(lines.at(j)))
                break;
            text << lines.at(j);
        }
        return text.join(u' ');
    }
    return {};
}

/// The one fenced block's text, when the reply has exactly one.
QString fromFence(const QString &reply)
{
    static const QRegularExpression fence(uR"(```[\w-]*[ \t]*\n(.*?)\n?```)"_s,
                                          QRegularExpression::DotMatchesEverythingOption);
    auto matches = fence.globalMatch(reply);
    if (!matches.hasNext())
        return {};
    const QString text = matches.next().captured(1);
    return matches.hasNext() ? QString() : text;
}

/// The reply itself, or the paragraph after a line that introduces it ("Here is the improved description:").
QString fromProse(const QString &reply)
{
    // JSON the other readers could not take (cut off mid-string, say) is not prose to take whole.
    if (reply.trimmed().startsWith(u'{') || reply.trimmed().startsWith(u'[') || reply.contains("\"description\""_L1))
        return {};
    QStringList paragraphs;
    for (const QString &paragraph : reply.split(QRegularExpression(u"\\n\\s*\\n"_s), Qt::SkipEmptyParts)) {
        if (!paragraph.trimmed().isEmpty())
            paragraphs << paragraph.trimmed();
    }
    if (paragraphs.size() == 1) {
        const QStringList lines = paragraphs.first().split(u'\n');
        // "Here it is:\nUse when ..." in one paragraph: what follows the introduction.
        if (lines.size() > 1 && lines.first().trimmed().endsWith(u':'))
            return lines.mid(1).join(u' ');
        return paragraphs.first();
    }
    if (paragraphs.size() == 2 && paragraphs.first().endsWith(u':'))
        return paragraphs.at(1);
    return {};
}

} // namespace

QString descriptionFromReply(const QString &reply)
{
    for (const auto &reader : {fromJsonObjects, fromJsonKey, fromFrontMatter, fromLabel, fromFence, fromProse}) {
        if (const QString description = cleaned(reader(reply)); !description.isEmpty())
            return description;
    }
    return {};
}

} // namespace sf
