#pragma once

#include "trace/Trace.h"

#include <array>
#include <string>

namespace sf {

/**
 * Finds a needle in trace texts as QString::contains() would, without converting each text to UTF-16
 * where it can: the viewer's find runs it over every step of a session, half a million on a large one.
 * Case-sensitive needles are matched as UTF-8 bytes; case-insensitive ASCII ones byte-wise with ASCII
 * folding (Boyer-Moore-Horspool). A non-ASCII needle that has case is matched by Qt, on the texts that
 * hold its longest ASCII run. The rare non-ASCII letters whose case folds to ASCII (the Kelvin sign, the
 * long s) therefore do not match an ASCII letter of a case-insensitive needle.
 */
class TraceTextFinder
{
public:
    TraceTextFinder(QStringView needle, Qt::CaseSensitivity cs);
    bool foundIn(TraceText text) const;

private:
    enum class Mode
    {
        Everywhere,  ///< an empty needle
        Bytes,       ///< the needle's UTF-8, exactly
        FoldedAscii, ///< ASCII, case-insensitively
        Qt           ///< through QString, on texts that pass the ASCII prefilter (if any)
    };
    bool foldedAsciiIn(std::string_view text) const;

    Mode m_mode = Mode::Everywhere;
    QString m_needle;
    Qt::CaseSensitivity m_cs;
    std::string m_pattern;          ///< Bytes: the UTF-8; FoldedAscii and Qt: lowercase ASCII (Qt: may be empty)
    std::array<quint8, 256> m_skip; ///< Boyer-Moore-Horspool shifts for m_pattern, by byte
};

} // namespace sf
