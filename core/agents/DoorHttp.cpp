#include "DoorHttp.h"

#include <algorithm>

using namespace Qt::StringLiterals;

namespace sf {

namespace {

/** Whether a comma-separated header value (Connection, Expect) holds `token`, in any case. */
bool hasToken(const QByteArray &value, const QByteArray &token)
{
    const QList<QByteArray> parts = value.split(',');
    return std::any_of(parts.cbegin(), parts.cend(), [&token](const QByteArray &part) {
        return part.trimmed().compare(token, Qt::CaseInsensitive) == 0;
    });
}

/** Where the head ends (after its blank line), accepting bare LF line endings too; -1 while incomplete. */
qsizetype headEnd(const QByteArray &buffer)
{
    const qsizetype crlf = buffer.indexOf("\r\n\r\n");
    const qsizetype lf = buffer.indexOf("\n\n");
    if (crlf >= 0 && (lf < 0 || crlf < lf)) {
        return crlf + 4;
    }
    return lf >= 0 ? lf + 2 : -1;
}

/** One line starting at `from` without its line ending, and where the next line starts; nullopt while incomplete. */
std::optional<std::pair<QByteArray, qsizetype>> lineAt(const QByteArray &buffer, qsizetype from)
{
    const qsizetype end = buffer.indexOf('\n', from);
    if (end < 0) {
        return std::nullopt;
    }
    QByteArray line = buffer.mid(from, end - from);
    if (line.endsWith('\r')) {
        line.chop(1);
    }
    return std::pair{line, end + 1};
}

} // namespace

QByteArray DoorHttpRequest::header(const QByteArray &name) const
{
    for (const auto &[key, value] : headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0) {
            return value;
        }
    }
    return {};
}

void DoorRequestParser::append(const QByteArray &bytes)
{
    if (!hasError()) {
        m_buffer += bytes;
    }
}

std::optional<DoorHttpRequest> DoorRequestParser::next()
{
    if (hasError()) {
        return std::nullopt;
    }
    if (!m_head && !parseHead()) {
        return std::nullopt;
    }
    qsizetype end = m_bodyStart;
    switch (m_bodyKind) {
    case Body::None:
        break;
    case Body::Length:
        if (m_buffer.size() - m_bodyStart < m_contentLength) {
            return std::nullopt;
        }
        m_head->body = m_buffer.mid(m_bodyStart, m_contentLength);
        end = m_bodyStart + m_contentLength;
        break;
    case Body::Chunked:
        if (!readChunkedBody(end)) {
            return std::nullopt;
        }
        break;
    }
    m_buffer.remove(0, end);
    std::optional<DoorHttpRequest> request = std::move(m_head);
    m_head.reset();
    return request;
}

bool DoorRequestParser::wantsContinue() const
{
    return m_head && m_expectsContinue && !m_continueSent && m_buffer.size() == m_bodyStart;
}

bool DoorRequestParser::parseHead()
{
    // Blank lines before a request are allowed (RFC 9112 §2.2), e.g. a CRLF a client added after a body.
    while (m_buffer.startsWith("\r\n") || m_buffer.startsWith('\n')) {
        m_buffer.remove(0, m_buffer.startsWith('\n') ? 1 : 2);
    }
    const qsizetype end = headEnd(m_buffer);
    if (end < 0) {
        if (m_buffer.size() > maxHeadBytes) {
            fail(431, u"The request's head is longer than %1 bytes"_s.arg(maxHeadBytes));
        }
        return false;
    }
    if (end > maxHeadBytes) {
        fail(431, u"The request's head is longer than %1 bytes"_s.arg(maxHeadBytes));
        return false;
    }
    const QList<QByteArray> lines = m_buffer.left(end).trimmed().split('\n');
    const QList<QByteArray> requestLine = lines.first().trimmed().split(' ');
    if (requestLine.size() != 3 || !requestLine.at(2).startsWith("HTTP/1.")) {
        fail(400, u"Not an HTTP/1.1 request line: %1"_s.arg(QString::fromLatin1(lines.first().trimmed().left(200))));
        return false;
    }
    DoorHttpRequest request;
    request.method = requestLine.at(0);
    request.version = requestLine.at(2);
    const QByteArray &target = requestLine.at(1);
    const qsizetype question = target.indexOf('?');
    request.path = question < 0 ? target : target.left(question);
    request.query = question < 0 ? QByteArray() : target.mid(question + 1);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0) {
            fail(400, u"A request header line has no name: %1"_s.arg(QString::fromLatin1(line.left(200))));
            return false;
        }
        request.headers.emplaceBack(line.left(colon).trimmed(), line.mid(colon + 1).trimmed());
    }
    const QByteArray connection = request.header("Connection");
    request.keepAlive =
        request.version == "HTTP/1.0" ? hasToken(connection, "keep-alive") : !hasToken(connection, "close");

    const QByteArray transferEncoding = request.header("Transfer-Encoding");
    const QByteArray contentLength = request.header("Content-Length");
    if (!transferEncoding.isEmpty()) {
        if (transferEncoding.trimmed().compare("chunked", Qt::CaseInsensitive) != 0) {
            fail(501, u"Transfer-Encoding '%1' is not supported"_s.arg(QString::fromLatin1(transferEncoding)));
            return false;
        }
        m_bodyKind = Body::Chunked;
    } else if (!contentLength.isEmpty()) {
        bool ok = false;
        m_contentLength = contentLength.trimmed().toLongLong(&ok);
        if (!ok || m_contentLength < 0) {
            fail(400, u"Content-Length '%1' is not a length"_s.arg(QString::fromLatin1(contentLength.left(40))));
            return false;
        }
        if (m_contentLength > maxBodyBytes) {
            fail(413, u"The request body (%1 bytes) is larger than %2 bytes"_s.arg(m_contentLength).arg(maxBodyBytes));
            return false;
        }
        m_bodyKind = m_contentLength > 0 ? Body::Length : Body::None;
    } else {
        m_bodyKind = Body::None;
    }
    m_bodyStart = end;
    m_expectsContinue = m_bodyKind != Body::None && hasToken(request.header("Expect"), "100-continue");
    m_continueSent = false;
    m_head = std::move(request);
    return true;
}

bool DoorRequestParser::readChunkedBody(qsizetype &end)
{
    // Walked again from the start each time bytes arrive: request bodies are small and this keeps no state.
    QByteArray body;
    qsizetype at = m_bodyStart;
    while (true) {
        const auto sizeLine = lineAt(m_buffer, at);
        if (!sizeLine) {
            return false;
        }
        const qsizetype extensions = sizeLine->first.indexOf(';');
        const QByteArray sizeText = (extensions < 0 ? sizeLine->first : sizeLine->first.left(extensions)).trimmed();
        bool ok = false;
        const qsizetype size = sizeText.toLongLong(&ok, 16);
        if (!ok || size < 0) {
            fail(400,
                 u"A chunk of the request body has no valid size: %1"_s.arg(QString::fromLatin1(sizeText.left(40))));
            return false;
        }
        at = sizeLine->second;
        if (size == 0) {
            break;
        }
        if (body.size() + size > maxBodyBytes) {
            fail(413, u"The request body is larger than %1 bytes"_s.arg(maxBodyBytes));
            return false;
        }
        if (m_buffer.size() < at + size + 1) {
            return false;
        }
        body += m_buffer.mid(at, size);
        at += size;
        const auto rest = lineAt(m_buffer, at); // the line ending after the chunk's data
        if (!rest) {
            return false;
        }
        if (!rest->first.isEmpty()) {
            fail(400, u"A chunk of the request body is longer than its size says"_s);
            return false;
        }
        at = rest->second;
    }
    // Trailer fields, if any, up to the blank line; nothing here needs them.
    while (true) {
        const auto trailer = lineAt(m_buffer, at);
        if (!trailer) {
            return false;
        }
        at = trailer->second;
        if (trailer->first.isEmpty()) {
            break;
        }
    }
    m_head->body = std::move(body);
    end = at;
    return true;
}

void DoorRequestParser::fail(int status, const QString &message)
{
    m_errorStatus = status;
    m_error = message;
    m_buffer.clear();
    m_head.reset();
}

QByteArray httpReasonPhrase(int status)
{
    switch (status) {
    case 100:
        return "Continue";
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 204:
        return "No Content";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 402:
        return "Payment Required";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 408:
        return "Request Timeout";
    case 409:
        return "Conflict";
    case 413:
        return "Content Too Large";
    case 422:
        return "Unprocessable Content";
    case 429:
        return "Too Many Requests";
    case 431:
        return "Request Header Fields Too Large";
    case 500:
        return "Internal Server Error";
    case 501:
        return "Not Implemented";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    case 529:
        return "Overloaded";
    default:
        return status < 400 ? "OK" : "Error"; // the phrase is informative only; clients read the code
    }
}

QByteArray responseHead(int status, const HttpHeaders &headers)
{
    QByteArray head = "HTTP/1.1 " + QByteArray::number(status) + ' ' + httpReasonPhrase(status) + "\r\n";
    for (const auto &[name, value] : headers) {
        head += name + ": " + value + "\r\n";
    }
    return head + "\r\n";
}

bool isHopByHopHeader(const QByteArray &name)
{
    static const QByteArrayList hopByHop{
        "connection", "keep-alive",        "proxy-connection", "proxy-authenticate", "proxy-authorization", "te",
        "trailer",    "transfer-encoding", "upgrade"};
    return hopByHop.contains(name.toLower());
}

} // namespace sf
