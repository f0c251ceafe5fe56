#include "skill/SkillDocument.h"

#include <QRegularExpression>
#include <algorithm>
#include <utility>
#include <yaml-cpp/yaml.h>

namespace sf {

namespace {

// The text split into lines without their terminators; a final line without '\n' still counts, and a
// trailing '\n' does not start an extra line.
struct Lines
{
    QList<qsizetype> starts; // offset of each line's first character
    QList<qsizetype> ends;   // offset of each line's '\n', or the text's end
};

Lines splitLines(const QString &text)
{
    Lines lines;
    qsizetype start = 0;
    while (start < text.size()) {
        qsizetype end = text.indexOf(u'\n', start);
        if (end < 0)
            end = text.size();
        lines.starts.append(start);
        lines.ends.append(end);
        start = end + 1;
    }
    return lines;
}

QStringView lineAt(const QString &text, const Lines &lines, int index)
{
    QStringView line = QStringView(text).mid(lines.starts[index], lines.ends[index] - lines.starts[index]);
    if (line.endsWith(u'\r'))
        line.chop(1);
    return line;
}

bool isFence(QStringView line)
{
    // Skill tools match "---" at the start of a line; tolerate trailing spaces an editor leaves behind.
    return line.startsWith(u"---") && line.mid(3).trimmed().isEmpty();
}

// Empty, or a comment at the left margin: lines between two keys that belong to neither. An indented '#'
// or whitespace-only line may be the content of a block scalar, so it stays with the value above it.
bool isBlankOrComment(QStringView line)
{
    return line.isEmpty() || line.startsWith(u'#');
}

QString fromStd(const std::string &s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

// yaml-cpp counts columns in bytes of UTF-8; editors count characters.
int characterColumn(QStringView line, int byteColumn)
{
    const QByteArray utf8 = line.toUtf8();
    return int(QString::fromUtf8(utf8.left(byteColumn)).size()) + 1;
}

void readValue(const YAML::Node &value, FrontMatterEntry *entry, int firstLine)
{
    if (value.IsScalar()) {
        entry->kind = FrontMatterEntry::Kind::Scalar;
        entry->scalar = fromStd(value.Scalar());
    } else if (value.IsSequence()) {
        entry->kind = FrontMatterEntry::Kind::Sequence;
        for (const YAML::Node &item : value) {
            if (item.IsScalar())
                entry->items.append(fromStd(item.Scalar()));
            else
                entry->allItemsScalar = false;
        }
    } else if (value.IsMap()) {
        entry->kind = FrontMatterEntry::Kind::Map;
        for (auto it = value.begin(); it != value.end(); ++it) {
            const bool scalarValue = it->second.IsScalar();
            entry->allItemsScalar = entry->allItemsScalar && scalarValue;
            entry->mapEntries.append({it->first.IsScalar() ? fromStd(it->first.Scalar()) : QString(),
                                      scalarValue ? fromStd(it->second.Scalar()) : QString()});
            entry->mapValueIsScalar.append(scalarValue);
            entry->mapEntryLines.append(it->first.Mark().line + firstLine);
        }
    }
}

// The YAML words that plain style would turn into something other than a string (YAML 1.1 and 1.2).
bool looksLikeNonString(const QString &value)
{
    static const QRegularExpression special(
        QStringLiteral("^(?:~|null|true|false|yes|no|on|off|y|n|[-+]?\\.?(?:inf|nan)"
                       "|[-+]?[0-9][0-9_]*(?:\\.[0-9_]*)?(?:e[-+]?[0-9]+)?|[-+]?\\.[0-9]+(?:e[-+]?[0-9]+)?"
                       "|0x[0-9a-f]+|0o[0-7]+|[0-9]+(?::[0-5]?[0-9])+(?:\\.[0-9]*)?)$"),
        QRegularExpression::CaseInsensitiveOption);
    return special.match(value).hasMatch();
}

QString doubleQuoted(const QString &value)
{
    QString quoted = QStringLiteral("\"");
    for (const QChar c : value) {
        switch (c.unicode()) {
        case '"':
            quoted += QStringLiteral("\\\"");
            break;
        case '\\':
            quoted += QStringLiteral("\\\\");
            break;
        case '\n':
            quoted += QStringLiteral("\\n");
            break;
        case '\t':
            quoted += QStringLiteral("\\t");
            break;
        case '\r':
            quoted += QStringLiteral("\\r");
            break;
        default:
            if (c.unicode() < 0x20 || c.unicode() == 0x7f)
                quoted += QStringLiteral("\\x%1").arg(c.unicode(), 2, 16, QLatin1Char('0'));
            else
                quoted += c;
        }
    }
    return quoted + u'"';
}

bool hasControlCharacters(const QString &value, bool allowNewlines)
{
    return std::any_of(value.begin(), value.end(), [&](QChar c) {
        return (c.unicode() < 0x20 && c != u'\t' && !(allowNewlines && c == u'\n')) || c.unicode() == 0x7f ||
               c.unicode() == 0xfeff;
    });
}

bool plainIsSafe(const QString &value)
{
    static const QString indicators = QStringLiteral("-?:,[]{}#&*!|>'\"%@`");
    if (value.isEmpty() || value != value.trimmed() || indicators.contains(value.front()) ||
        value.contains(QStringLiteral(": ")) || value.contains(QStringLiteral(" #")) || value.endsWith(u':') ||
        value.contains(u'\t') || hasControlCharacters(value, false) || looksLikeNonString(value))
        return false;
    // Belt and braces: the parser must read back exactly what we meant.
    try {
        const YAML::Node node = YAML::Load("k: " + value.toStdString());
        return node.IsMap() && node["k"].IsScalar() && fromStd(node["k"].Scalar()) == value;
    } catch (const std::exception &) {
        return false;
    }
}

// yaml-cpp accepts a quoted value left open at the end of its input, and silently drops everything
// after a "..." document end. Either would make an edit vanish into the previous value, so both are
// reported: a probe key appended to the front matter must read back as a key of its own. Returns the
// message and the 1-based front-matter line to blame.
std::optional<std::pair<QString, int>> unfinishedEnd(const QString &frontMatter)
{
    const QStringList lines = frontMatter.split(u'\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (lines[i].trimmed() == u"...")
            return std::pair{QStringLiteral("'...' ends the YAML document here; the keys after it would be ignored"),
                             int(i) + 1};
    }
    static const std::string probeKey = "skillforge-probe-end";
    std::string probed = frontMatter.toStdString();
    if (!probed.empty() && probed.back() != '\n')
        probed += '\n';
    probed += probeKey + ": 1\n";
    try {
        const YAML::Node root = YAML::Load(probed);
        const YAML::Node probe = root.IsMap() ? root[probeKey] : YAML::Node();
        if (probe.IsDefined() && probe.IsScalar() && probe.Scalar() == "1")
            return std::nullopt;
    } catch (const std::exception &) {
    }
    // Blame the last top-level key: the value that swallowed the rest starts there.
    int lastKey = 1;
    for (qsizetype i = 0; i < lines.size(); ++i) {
        if (!lines[i].isEmpty() && !lines[i].front().isSpace() && !lines[i].startsWith(u'#'))
            lastKey = int(i) + 1;
    }
    return std::pair{QStringLiteral("invalid YAML: the front matter does not end cleanly (an unclosed quote or "
                                    "bracket?)"),
                     lastKey};
}

} // namespace

SkillDocument SkillDocument::parse(const QString &text)
{
    SkillDocument doc;
    doc.m_text = text;
    doc.m_body = text;
    const Lines lines = splitLines(text);
    if (lines.starts.isEmpty())
        return doc;
    QStringView first = lineAt(text, lines, 0);
    if (first.startsWith(QChar(0xfeff)))
        first = first.mid(1);
    if (!isFence(first))
        return doc;

    int closing = -1; // 0-based index of the closing fence
    for (int i = 1; i < lines.starts.size(); ++i) {
        if (isFence(lineAt(text, lines, i))) {
            closing = i;
            break;
        }
    }
    if (closing < 0) {
        doc.m_yamlError =
            FrontMatterError{1, 1, QStringLiteral("the front matter opened here has no closing '---' line")};
        return doc;
    }

    doc.m_hasFrontMatter = true;
    doc.m_frontMatterFirstLine = 2;
    doc.m_closingFenceLine = closing + 1;
    doc.m_bodyFirstLine = closing + 2;
    doc.m_frontMatterText = text.mid(lines.starts[1], lines.starts[closing] - lines.starts[1]);
    doc.m_body = closing + 1 < lines.starts.size() ? text.mid(lines.starts[closing + 1]) : QString();

    // YAML allows only printable characters; yaml-cpp would stop reading at a NUL without saying so.
    for (int line = doc.m_frontMatterFirstLine; line <= closing; ++line) {
        const QStringView content = lineAt(text, lines, line - 1);
        for (qsizetype i = 0; i < content.size(); ++i) {
            const char16_t c = content[i].unicode();
            if ((c < 0x20 && c != u'\t') || (c >= 0x7f && c <= 0x9f && c != 0x85) || c == 0xfffe || c == 0xffff) {
                doc.m_yamlError =
                    FrontMatterError{line, int(i) + 1,
                                     QStringLiteral("invalid YAML: the control character U+%1 is not allowed")
                                         .arg(QString::number(int(c), 16).toUpper().rightJustified(4, u'0'))};
                return doc;
            }
        }
    }

    YAML::Node root;
    try {
        root = YAML::Load(doc.m_frontMatterText.toStdString());
    } catch (const YAML::Exception &e) {
        const int index = std::clamp(e.mark.line + 1, 1, std::max(1, closing - 1));
        const int column = e.mark.column >= 0 ? characterColumn(lineAt(text, lines, index), e.mark.column) : 1;
        doc.m_yamlError = FrontMatterError{index + 1, column, QStringLiteral("invalid YAML: %1").arg(fromStd(e.msg))};
        return doc;
    } catch (const std::exception &e) {
        doc.m_yamlError = FrontMatterError{2, 1, QStringLiteral("invalid YAML: %1").arg(QString::fromUtf8(e.what()))};
        return doc;
    }
    if (root.IsDefined() && !root.IsNull() && !root.IsMap()) {
        doc.m_yamlError =
            FrontMatterError{2, 1, QStringLiteral("the front matter must be a mapping of keys to values")};
        return doc;
    }
    doc.m_flowRoot = root.Style() == YAML::EmitterStyle::Flow;
    if (!doc.m_flowRoot) {
        if (const auto unfinished = unfinishedEnd(doc.m_frontMatterText)) {
            doc.m_yamlError =
                FrontMatterError{unfinished->second + doc.m_frontMatterFirstLine - 1, 1, unfinished->first};
            return doc;
        }
    }

    if (!root.IsDefined() || root.IsNull())
        return doc; // an empty front matter: no keys, which the validator reports

    try {
        for (auto it = root.begin(); it != root.end(); ++it) {
            FrontMatterEntry entry;
            entry.key = it->first.IsScalar() ? fromStd(it->first.Scalar()) : QString();
            const YAML::Mark mark = it->first.Mark();
            // Clamped: yaml-cpp marks an empty key ("? ") at the end of its input, past the front matter.
            entry.line = std::clamp(mark.line + doc.m_frontMatterFirstLine, doc.m_frontMatterFirstLine,
                                    std::max(doc.m_frontMatterFirstLine, closing));
            const int lineIndex = std::clamp(entry.line - 1, 1, closing - 1);
            entry.column = characterColumn(lineAt(text, lines, lineIndex), std::max(0, mark.column));
            readValue(it->second, &entry, doc.m_frontMatterFirstLine);
            doc.m_entries.append(entry);
        }
    } catch (const std::exception &e) {
        doc.m_entries.clear();
        doc.m_yamlError = FrontMatterError{2, 1, QStringLiteral("invalid YAML: %1").arg(QString::fromUtf8(e.what()))};
        return doc;
    }

    // A key's value runs until the next key, less the blank and comment lines before it.
    for (qsizetype i = 0; i < doc.m_entries.size(); ++i) {
        FrontMatterEntry &entry = doc.m_entries[i];
        int last = (i + 1 < doc.m_entries.size() ? doc.m_entries[i + 1].line : doc.m_closingFenceLine) - 1;
        while (last > entry.line &&
               (isBlankOrComment(lineAt(text, lines, last - 1)) || lineAt(text, lines, last - 1).trimmed() == u"..."))
            --last;
        entry.lastLine = std::max(entry.line, last);
    }
    return doc;
}

QStringList SkillDocument::keys() const
{
    QStringList keys;
    for (const FrontMatterEntry &entry : m_entries)
        keys.append(entry.key);
    return keys;
}

const FrontMatterEntry *SkillDocument::entry(const QString &key) const
{
    for (const FrontMatterEntry &entry : m_entries) {
        if (entry.key == key)
            return &entry;
    }
    return nullptr;
}

std::optional<QString> SkillDocument::scalar(const QString &key) const
{
    const FrontMatterEntry *found = entry(key);
    if (!found || found->kind != FrontMatterEntry::Kind::Scalar)
        return std::nullopt;
    return found->scalar;
}

int SkillDocument::keyLine(const QString &key) const
{
    const FrontMatterEntry *found = entry(key);
    return found ? found->line : 0;
}

QString SkillDocument::name() const
{
    return scalar(QStringLiteral("name")).value_or(QString());
}
QString SkillDocument::description() const
{
    return scalar(QStringLiteral("description")).value_or(QString());
}
QString SkillDocument::license() const
{
    return scalar(QStringLiteral("license")).value_or(QString());
}

QStringList SkillDocument::allowedTools() const
{
    const FrontMatterEntry *found = entry(QStringLiteral("allowed-tools"));
    if (!found)
        return {};
    if (found->kind == FrontMatterEntry::Kind::Sequence)
        return found->items;
    if (found->kind != FrontMatterEntry::Kind::Scalar)
        return {};
    // "Bash(git status:*) Read" or "Read, Write": split outside parentheses, on commas when there are any.
    const QString &value = found->scalar;
    int depth = 0;
    bool commaAtTop = false;
    for (const QChar c : value) {
        depth += c == u'(' ? 1 : c == u')' ? -1 : 0;
        commaAtTop = commaAtTop || (depth == 0 && c == u',');
    }
    QStringList tools;
    QString current;
    depth = 0;
    for (const QChar c : value) {
        depth += c == u'(' ? 1 : c == u')' ? -1 : 0;
        const bool separator = depth == 0 && (commaAtTop ? c == u',' : c.isSpace());
        if (separator) {
            if (!current.trimmed().isEmpty())
                tools.append(current.trimmed());
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.trimmed().isEmpty())
        tools.append(current.trimmed());
    return tools;
}

QString SkillDocument::yamlScalar(const QString &value)
{
    // Empty lines after a value are left in place by withScalar, and "|+" would read them as content, so
    // a value ending in several newlines is double-quoted instead.
    if (value.contains(u'\n') && !hasControlCharacters(value, true) && !value.endsWith(QStringLiteral("\n\n"))) {
        // A literal block keeps every character; the chomping indicator says how many final newlines.
        qsizetype trailing = 0;
        while (trailing < value.size() && value.at(value.size() - 1 - trailing) == u'\n')
            ++trailing;
        QString header = QStringLiteral("|");
        if (value.startsWith(u' '))
            header += u'2';
        header += trailing == 0 ? QStringLiteral("-") : QString();
        const QStringList parts = value.left(value.size() - trailing).split(u'\n');
        QString block = header;
        for (const QString &part : parts)
            block += part.isEmpty() ? QStringLiteral("\n") : QStringLiteral("\n  ") + part;
        return block;
    }
    return plainIsSafe(value) ? value : doubleQuoted(value);
}

QString SkillDocument::withScalar(const QString &key, const QString &value, bool removeIfEmpty) const
{
    const bool remove = value.isEmpty() && removeIfEmpty;
    const bool crlf = m_text.contains(QStringLiteral("\r\n"));
    const QString newline = crlf ? QStringLiteral("\r\n") : QStringLiteral("\n");
    QString written = key + QStringLiteral(": ") + (value.isEmpty() ? QStringLiteral("\"\"") : yamlScalar(value));
    if (crlf)
        written.replace(u'\n', newline);

    if (!m_hasFrontMatter) {
        if (remove || m_yamlError) // an unclosed front matter: adding a second one would make it worse
            return m_text;
        return QStringLiteral("---") + newline + written + newline + QStringLiteral("---") + newline + m_text;
    }

    const Lines lines = splitLines(m_text);
    int first = 0, last = 0; // 1-based lines of the key's block
    if (const FrontMatterEntry *found = entry(key)) {
        first = found->line;
        last = found->lastLine;
    } else if (m_yamlError) {
        // yaml-cpp could not help: find "key:" at the start of a line and its indented continuation.
        for (int line = m_frontMatterFirstLine; line < m_closingFenceLine; ++line) {
            const QStringView text = lineAt(m_text, lines, line - 1);
            if (text.startsWith(key) && text.mid(key.size()).trimmed().startsWith(u':')) {
                first = last = line;
                while (last + 1 < m_closingFenceLine) {
                    const QStringView next = lineAt(m_text, lines, last);
                    if (!next.trimmed().isEmpty() && !next.front().isSpace())
                        break;
                    ++last;
                }
                while (last > first && lineAt(m_text, lines, last - 1).trimmed().isEmpty())
                    --last;
                break;
            }
        }
    }

    if (m_flowRoot || (first != 0 && sharesLines(first, last)))
        return withWholeFrontMatterRewritten(key, value, remove);
    if (first == 0) {
        if (remove)
            return m_text;
        // After the last key rather than before the fence: a "..." document end or trailing comments may
        // sit between them, and a key after "..." would not be read.
        const int before = m_entries.isEmpty() ? m_closingFenceLine : m_entries.last().lastLine + 1;
        const qsizetype at = lines.starts[before - 1];
        return m_text.left(at) + written + newline + m_text.mid(at);
    }
    const qsizetype from = lines.starts[first - 1];
    if (remove) {
        const qsizetype end = lines.ends[last - 1] < m_text.size() ? lines.ends[last - 1] + 1 : m_text.size();
        return m_text.left(from) + m_text.mid(end);
    }
    // Replace up to the end of the block's last line, keeping that line's own terminator.
    const qsizetype to = lines.starts[last - 1] + lineAt(m_text, lines, last - 1).size();
    return m_text.left(from) + written + m_text.mid(to);
}

bool SkillDocument::sharesLines(int first, int last) const
{
    int overlapping = 0;
    for (const FrontMatterEntry &other : m_entries)
        overlapping += other.line <= last && other.lastLine >= first ? 1 : 0;
    return overlapping > 1;
}

QString SkillDocument::withWholeFrontMatterRewritten(const QString &key, const QString &value, bool remove) const
{
    // In flow style ("{name: a, description: b}") there is no line of one key to replace or to append
    // after, so the front matter is emitted again in block style. Comments in it are lost; rare enough.
    try {
        YAML::Node root = YAML::Load(m_frontMatterText.toStdString());
        if (remove)
            root.remove(key.toStdString());
        else
            root[key.toStdString()] = value.toStdString();
        root.SetStyle(YAML::EmitterStyle::Block);
        YAML::Emitter emitter;
        emitter << YAML::BeginDoc << root;
        QString emitted = fromStd(emitter.c_str());
        emitted = emitted.mid(emitted.indexOf(u'\n') + 1); // drop the "---" the emitter starts with
        if (!emitted.endsWith(u'\n'))
            emitted += u'\n';
        const Lines lines = splitLines(m_text);
        return m_text.left(lines.starts[m_frontMatterFirstLine - 1]) + emitted +
               m_text.mid(lines.starts[m_closingFenceLine - 1]);
    } catch (const std::exception &) {
        return m_text;
    }
}

QString SkillDocument::withBody(const QString &body) const
{
    if (!m_hasFrontMatter)
        return body;
    QString head = m_text.left(m_text.size() - m_body.size());
    if (!head.endsWith(u'\n') && !body.isEmpty())
        head += m_text.contains(QStringLiteral("\r\n")) ? QStringLiteral("\r\n") : QStringLiteral("\n");
    return head + body;
}

} // namespace sf
