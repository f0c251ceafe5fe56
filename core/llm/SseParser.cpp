#include "SseParser.h"

using namespace Qt::StringLiterals;

namespace sf {

QString quotedBytes(const QByteArray &bytes, qsizetype limit)
{
    QString text;
    for (const char c : bytes.left(limit)) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte == '\n') {
            text += "\\n"_L1;
        } else if (byte == '\r') {
            text += "\\r"_L1;
        } else if (byte < 0x20 || byte >= 0x7f) {
            // Escaping non-ASCII too keeps a split UTF-8 sequence or binary junk readable in a message.
            text += u"\\x%1"_s.arg(uint(byte), 2, 16, QLatin1Char('0'));
        } else {
            text += QLatin1Char(c);
        }
    }
    if (bytes.size() > limit) {
        text += "..."_L1;
    }
    return u"\"%1\""_s.arg(text);
}

QList<SseEvent> SseParser::feed(const QByteArray &bytes)
{
    QList<SseEvent> events;
    if (hasError()) {
        return events;
    }
    m_buffer += bytes;
    qsizetype start = 0;
    while (start < m_buffer.size()) {
        qsizetype end = start;
        while (end < m_buffer.size() && m_buffer.at(end) != '\n' && m_buffer.at(end) != '\r') {
            ++end;
        }
        if (end == m_buffer.size()) {
            break; // no line ending yet
        }
        qsizetype next = end + 1;
        if (m_buffer.at(end) == '\r') {
            if (next == m_buffer.size()) {
                break; // a CR at the end of a chunk may be the first half of CRLF
            }
            if (m_buffer.at(next) == '\n') {
                ++next;
            }
        }
        processLine(m_buffer.mid(start, end - start), events);
        start = next;
        if (hasError()) {
            m_buffer.clear();
            return events;
        }
    }
    m_buffer.remove(0, start);
    // A line longer than any provider sends is not an event stream (e.g. an HTML page without newlines).
    constexpr qsizetype maxLine = 16 * 1024 * 1024;
    if (m_buffer.size() > maxLine) {
        m_error = u"The event stream has a line longer than %1 bytes, starting %2"_s.arg(maxLine).arg(
            quotedBytes(m_buffer.left(80)));
        m_buffer.clear();
    }
    return events;
}

void SseParser::processLine(const QByteArray &line, QList<SseEvent> &events)
{
    if (line.isEmpty()) {
        if (m_hasData) {
            m_current.data.chop(1); // the '\n' after the last data line is not part of the data
            events.append(std::move(m_current));
        }
        m_current = SseEvent();
        m_inEvent = false;
        m_hasData = false;
        return;
    }
    if (line.startsWith(':')) {
        return; // a comment, often a keep-alive
    }
    const qsizetype colon = line.indexOf(':');
    const QByteArray field = colon < 0 ? line : line.left(colon);
    QByteArray value = colon < 0 ? QByteArray() : line.mid(colon + 1);
    if (value.startsWith(' ')) {
        value.remove(0, 1);
    }
    m_inEvent = true;
    if (field == "data") {
        m_current.data += value + '\n';
        m_hasData = true;
    } else if (field == "event") {
        m_current.event = value;
    } else if (field == "id" || field == "retry") {
        // Reconnection hints: a chat stream is never resumed, it is restarted from scratch.
    } else {
        m_error = u"The event stream has a line that is not a server-sent event field: %1"_s.arg(quotedBytes(line));
    }
}

} // namespace sf
