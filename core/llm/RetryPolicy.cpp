#include "RetryPolicy.h"

#include <QLocale>
#include <QTimeZone>
#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sf {

bool isRetryableStatus(int status)
{
    switch (status) {
    case 408:
    case 409:
    case 429:
    case 500:
    case 502:
    case 503:
    case 504:
    case 529:
        return true;
    default:
        return false;
    }
}

std::optional<qint64> retryAfterMs(const HttpResponse &response, const QDateTime &now)
{
    bool ok = false;
    // OpenAI sends a millisecond-precise variant alongside the standard header.
    const double milliseconds = response.header("retry-after-ms").trimmed().toDouble(&ok);
    if (ok && milliseconds >= 0) {
        return qint64(std::ceil(milliseconds));
    }
    const QByteArray value = response.header("retry-after").trimmed();
    if (value.isEmpty()) {
        return std::nullopt;
    }
    const double seconds = value.toDouble(&ok);
    if (ok) {
        return seconds >= 0 ? std::optional<qint64>(qint64(std::ceil(seconds * 1000))) : std::nullopt;
    }
    // An HTTP date: "Wed, 21 Oct 2015 07:28:00 GMT" (IMF-fixdate, always GMT).
    QDateTime when = QLocale::c().toDateTime(QString::fromLatin1(value), u"ddd, dd MMM yyyy HH:mm:ss 'GMT'"_s);
    if (!when.isValid()) {
        return std::nullopt;
    }
    when.setTimeZone(QTimeZone::utc());
    return std::max<qint64>(0, now.msecsTo(when));
}

qint64 backoffMs(const RetryPolicy &policy, int failedAttempts, double random01)
{
    const int exponent = std::clamp(failedAttempts - 1, 0, 30);
    const double full = std::min<double>(policy.maxDelayMs, double(policy.baseDelayMs) * std::pow(2.0, exponent));
    return qint64(full * (0.5 + 0.5 * std::clamp(random01, 0.0, 1.0)));
}

} // namespace sf
