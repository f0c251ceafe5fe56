#include "trace/TraceTextFinder.h"

#include <algorithm>

namespace sf {

namespace {

char asciiLower(char c)
{
    return c >= 'A' && c <= 'Z' ? char(c + ('a' - 'A')) : c;
}

bool isAscii(QChar c)
{
    return c.unicode() < 0x80;
}

/// The longest run of ASCII letters and digits in @p needle, lowercased: a text without it cannot match.
std::string longestAsciiRun(QStringView needle)
{
    std::string best, run;
    for (const QChar c : needle) {
        if (isAscii(c) && c.isLetterOrNumber()) {
            run.push_back(asciiLower(char(c.unicode())));
            continue;
        }
        if (run.size() > best.size())
            best = run;
        run.clear();
    }
    return run.size() > best.size() ? run : best;
}

} // namespace

TraceTextFinder::TraceTextFinder(QStringView needle, Qt::CaseSensitivity cs)
    : m_needle(needle.toString())
    , m_cs(cs)
{
    if (needle.isEmpty())
        return;
    const bool ascii = std::all_of(needle.begin(), needle.end(), isAscii);
    const bool hasCase = m_needle.toCaseFolded() != m_needle || m_needle.toUpper() != m_needle;
    if (cs == Qt::CaseSensitive || (!ascii && !hasCase)) {
        m_mode = Mode::Bytes;
        const QByteArray utf8 = m_needle.toUtf8();
        m_pattern.assign(utf8.constData(), size_t(utf8.size()));
        return;
    }
    if (ascii) {
        m_mode = Mode::FoldedAscii;
        m_pattern.resize(size_t(needle.size()));
        std::transform(needle.begin(), needle.end(), m_pattern.begin(),
                       [](QChar c) { return asciiLower(char(c.unicode())); });
    } else {
        m_mode = Mode::Qt;
        m_pattern = longestAsciiRun(needle);
    }
    // Shifts for the folded pattern: both cases of a letter shift alike.
    const size_t m = m_pattern.size();
    m_skip.fill(quint8(std::min<size_t>(m, 255)));
    for (size_t i = 0; i + 1 < m; ++i) {
        const auto shift = quint8(std::min<size_t>(m - 1 - i, 255));
        const auto c = static_cast<unsigned char>(m_pattern[i]);
        m_skip[c] = shift;
        if (c >= 'a' && c <= 'z')
            m_skip[c - ('a' - 'A')] = shift;
    }
}

bool TraceTextFinder::foldedAsciiIn(std::string_view text) const
{
    const size_t m = m_pattern.size();
    if (m == 0)
        return true;
    for (size_t at = 0; at + m <= text.size();) {
        const char last = text[at + m - 1];
        if (asciiLower(last) == m_pattern[m - 1]) {
            size_t k = 0;
            while (k + 1 < m && asciiLower(text[at + k]) == m_pattern[k])
                ++k;
            if (k + 1 >= m)
                return true;
        }
        at += m_skip[static_cast<unsigned char>(last)];
    }
    return false;
}

bool TraceTextFinder::foundIn(TraceText text) const
{
    switch (m_mode) {
    case Mode::Everywhere:
        return true;
    case Mode::Bytes:
        return text.utf8().find(m_pattern) != std::string_view::npos;
    case Mode::FoldedAscii:
        return foldedAsciiIn(text.utf8());
    case Mode::Qt:
        return foldedAsciiIn(text.utf8()) && text.toString().contains(m_needle, m_cs);
    }
    return false;
}

} // namespace sf
