#include "common/JsonLocator.h"

#include "common/LoadError.h"

namespace sf {

qsizetype JsonLocator::skipSpace(qsizetype at) const
{
    while (at < m_text.size() && (m_text[at] == ' ' || m_text[at] == '\n' || m_text[at] == '\r' || m_text[at] == '\t'))
        ++at;
    return at;
}

qsizetype JsonLocator::skipString(qsizetype at) const
{
    for (++at; at < m_text.size(); ++at) {
        if (m_text[at] == '\\')
            ++at;
        else if (m_text[at] == '"')
            return at + 1;
    }
    return at;
}

qsizetype JsonLocator::skipValue(qsizetype at) const
{
    at = skipSpace(at);
    if (at >= m_text.size())
        return at;
    const char c = m_text[at];
    if (c == '"')
        return skipString(at);
    if (c == '{' || c == '[') {
        const char close = c == '{' ? '}' : ']';
        at = skipSpace(at + 1);
        while (at < m_text.size() && m_text[at] != close) {
            if (c == '{') {
                at = skipSpace(skipString(at)) + 1; // the key and its colon
            }
            at = skipSpace(skipValue(at));
            if (at < m_text.size() && m_text[at] == ',')
                at = skipSpace(at + 1);
        }
        return at + 1;
    }
    while (at < m_text.size() && !QByteArrayView(",}] \n\r\t").contains(m_text[at]))
        ++at;
    return at;
}

qsizetype JsonLocator::find(qsizetype at, const QList<JsonStep> &path, int depth) const
{
    at = skipSpace(at);
    if (depth == path.size() || at >= m_text.size())
        return at;
    const JsonStep &step = path[depth];
    if (const QString *key = std::get_if<QString>(&step); key && m_text[at] == '{') {
        const QByteArray wanted = '"' + key->toUtf8() + '"';
        qsizetype p = skipSpace(at + 1);
        while (p < m_text.size() && m_text[p] != '}') {
            const qsizetype keyEnd = skipString(p);
            const bool match = QByteArrayView(m_text).sliced(p, keyEnd - p) == wanted;
            const qsizetype valueStart = skipSpace(skipSpace(keyEnd) + 1);
            if (match)
                return find(valueStart, path, depth + 1);
            p = skipSpace(skipValue(valueStart));
            if (p < m_text.size() && m_text[p] == ',')
                p = skipSpace(p + 1);
        }
        return at;
    }
    if (const int *index = std::get_if<int>(&step); index && m_text[at] == '[') {
        qsizetype p = skipSpace(at + 1);
        for (int i = 0; p < m_text.size() && m_text[p] != ']'; ++i) {
            if (i == *index)
                return find(p, path, depth + 1);
            p = skipSpace(skipValue(p));
            if (p < m_text.size() && m_text[p] == ',')
                p = skipSpace(p + 1);
        }
    }
    return at;
}

int JsonLocator::lineOf(const QList<JsonStep> &path) const
{
    int line = 0;
    int column = 0;
    lineAndColumnAt(m_text, find(0, path, 0), &line, &column);
    return line;
}

} // namespace sf
