#include "common/TokenEstimate.h"

#include <algorithm>
#include <limits>

namespace sf {

namespace {

bool isWordCharacter(char16_t c)
{
    return (c >= u'a' && c <= u'z') || (c >= u'A' && c <= u'Z') || (c >= u'0' && c <= u'9') || c == u'_';
}

} // namespace

int estimateTokens(const QString &text)
{
    qint64 tokens = 0;
    const qsizetype n = text.size();
    qsizetype i = 0;
    while (i < n) {
        const char16_t c = text.at(i).unicode();
        qsizetype j = i + 1;
        if (isWordCharacter(c)) {
            while (j < n && isWordCharacter(text.at(j).unicode()))
                ++j;
            tokens += (j - i + 5) / 6;
        } else if (c == u' ' || c == u'\t') {
            while (j < n && (text.at(j) == u' ' || text.at(j) == u'\t'))
                ++j;
            tokens += j - i >= 4 ? 1 : 0;
        } else if (c == u'\n' || c == u'\r') {
            // free: line breaks mostly merge with the indentation or text that follows
        } else if (c < 0x80) {
            while (j < n && text.at(j).unicode() == c)
                ++j;
            tokens += (j - i + 3) / 4;
        } else {
            if (QChar::isHighSurrogate(c) && j < n && text.at(j).isLowSurrogate())
                ++j; // one character, however many UTF-16 units
            tokens += 1;
        }
        i = j;
    }
    return int(std::min<qint64>(tokens, std::numeric_limits<int>::max()));
}

} // namespace sf
