#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

namespace sf {

/** One server-sent event: its `event:` name (empty when none) and its `data:` lines joined by '\n'. */
struct SseEvent
{
    QByteArray event;
    QByteArray data;
};

/**
 * Splits a text/event-stream body into events however the bytes were chunked on the way: a chunk
 * may end anywhere, even inside a line ending or a UTF-8 character (fields stay bytes until an event
 * is complete). Accepts LF, CRLF and CR line endings and `:` comments. Unlike a browser it rejects
 * lines no provider sends (unknown fields, non-SSE text), so garbage is reported, quoted, rather
 * than silently dropped.
 */
class SseParser final
{
public:
    /** The events completed by `bytes`; after an error, nothing more is parsed. */
    QList<SseEvent> feed(const QByteArray &bytes);

    /** Set once the stream broke the framing; quotes the offending bytes. */
    const QString &error() const { return m_error; }
    bool hasError() const { return !m_error.isEmpty(); }
    /** Bytes of an event that has started but not ended (a stream that stops here was cut short). */
    bool hasPartialEvent() const { return !m_buffer.isEmpty() || m_inEvent; }

private:
    void processLine(const QByteArray &line, QList<SseEvent> &events);

    QByteArray m_buffer;
    SseEvent m_current;
    bool m_inEvent = false;
    bool m_hasData = false;
    QString m_error;
};

/** Up to `limit` bytes of `bytes` for an error message, with control bytes escaped so they show. */
QString quotedBytes(const QByteArray &bytes, qsizetype limit = 200);

} // namespace sf
