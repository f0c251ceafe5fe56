#include "SkippedChecks.h"
#include "llm/RetryPolicy.h"

#include <QStandardPaths>
#include <QTest>
#include <QTimeZone>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

HttpResponse withHeader(const QByteArray &name, const QByteArray &value)
{
    HttpResponse response;
    response.status = 429;
    response.headers = {{name, value}};
    return response;
}

} // namespace

class TestRetryPolicy final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void retryableStatuses_areExactlyTheTransientOnes()
    {
        for (const int status : {408, 409, 429, 500, 502, 503, 504, 529}) {
            QVERIFY2(isRetryableStatus(status), qPrintable(QString::number(status)));
        }
        for (const int status : {200, 400, 401, 403, 404, 413, 422, 501}) {
            QVERIFY2(!isRetryableStatus(status), qPrintable(QString::number(status)));
        }
    }

    void retryAfter_seconds()
    {
        QCOMPARE(retryAfterMs(withHeader("Retry-After", "7")), std::optional<qint64>(7000));
        QCOMPARE(retryAfterMs(withHeader("retry-after", "0.25")), std::optional<qint64>(250));
    }

    void retryAfter_httpDate_isRelativeToNow()
    {
        const QDateTime now(QDate(2025, 10, 21), QTime(7, 27, 30), QTimeZone::utc());
        QCOMPARE(retryAfterMs(withHeader("Retry-After", "Tue, 21 Oct 2025 07:28:00 GMT"), now),
                 std::optional<qint64>(30000));
        // A date already past means "now", not a negative wait.
        QCOMPARE(retryAfterMs(withHeader("Retry-After", "Tue, 21 Oct 2025 07:00:00 GMT"), now),
                 std::optional<qint64>(0));
    }

    void retryAfterMs_header_winsOverSeconds()
    {
        HttpResponse response = withHeader("retry-after-ms", "1500");
        response.headers.emplaceBack("retry-after", "2");
        QCOMPARE(retryAfterMs(response), std::optional<qint64>(1500));
    }

    void retryAfter_missingOrUnreadable_isEmpty()
    {
        QCOMPARE(retryAfterMs(HttpResponse()), std::nullopt);
        QCOMPARE(retryAfterMs(withHeader("Retry-After", "soon")), std::nullopt);
    }

    void backoff_doublesWithJitterWithinHalfToFull_andIsCapped()
    {
        RetryPolicy policy;
        policy.baseDelayMs = 1000;
        policy.maxDelayMs = 5000;
        QCOMPARE(backoffMs(policy, 1, 0.0), 500);
        QCOMPARE(backoffMs(policy, 1, 0.999999), 999);
        QCOMPARE(backoffMs(policy, 2, 0.0), 1000);
        QCOMPARE(backoffMs(policy, 3, 0.5), 3000);
        QCOMPARE(backoffMs(policy, 10, 0.0), 2500); // 1000 * 2^9 capped at 5000, then jittered
        QVERIFY(backoffMs(policy, 10, 0.999999) <= 5000);
    }
};

SF_TEST_GUILESS_MAIN(TestRetryPolicy)
#include "test_retry_policy.moc"
