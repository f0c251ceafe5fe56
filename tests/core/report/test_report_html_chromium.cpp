// The HTML report as a browser shows it: headless Chromium loads it from disk, logs no console error and
// no failed resource, and paints a screenshot that is not blank. Skipped (77) where Chromium is not installed.
#include "ReportTestRuns.h"
#include "SkippedChecks.h"
#include "report/Report.h"

#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QSet>
#include <QTemporaryDir>
#include <QUrl>

using namespace sf;
using namespace sf::test;

namespace {

QString chromium()
{
    for (const QString &name :
         {QStringLiteral("chromium"), QStringLiteral("chromium-browser"), QStringLiteral("google-chrome")}) {
        const QString path = QStandardPaths::findExecutable(name);
        if (!path.isEmpty())
            return path;
    }
    return {};
}

QStringList browserArguments(const QTemporaryDir &profile)
{
    return {QStringLiteral("--headless"),
            QStringLiteral("--disable-gpu"),
            QStringLiteral("--no-sandbox"),
            QStringLiteral("--no-first-run"),
            QStringLiteral("--user-data-dir=") + profile.filePath(QStringLiteral("profile")),
            QStringLiteral("--enable-logging=stderr"),
            QStringLiteral("--log-level=0"), // INFO: where console messages are logged
            QStringLiteral("--v=0")};
}

/// Console messages and load failures in Chromium's log; its own D-Bus and GPU chatter is not the page's.
QStringList pageProblems(const QByteArray &log)
{
    QStringList problems;
    for (const QByteArray &line : log.split('\n')) {
        if (line.contains(":CONSOLE") || line.contains("Uncaught") || line.contains("Failed to load resource") ||
            line.contains("net::ERR_"))
            problems.append(QString::fromUtf8(line));
    }
    return problems;
}

} // namespace

class TestReportHtmlChromium final : public QObject
{
    Q_OBJECT

public:
    explicit TestReportHtmlChromium(QString browser)
        : m_browser(std::move(browser))
    {
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QVERIFY(m_dir.isValid());
        const RunAnalysis v1 = loadRun(fixtureRun(QStringLiteral("v1")));
        const RunAnalysis v2 = loadRun(fixtureRun(QStringLiteral("v2")));
        m_single = m_dir.filePath(QStringLiteral("single.html"));
        m_compared = m_dir.filePath(QStringLiteral("compared.html"));
        QCOMPARE(ReportWriter(v1).write(ReportFormat::Html, m_single), QString());
        QCOMPARE(ReportWriter(v2, &v1).write(ReportFormat::Html, m_compared), QString());
    }

    void html_rendersWithoutConsoleErrors_andIsNotBlank_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("one run") << QStringLiteral("single.html");
        QTest::newRow("compared with a second run") << QStringLiteral("compared.html");
    }

    void html_rendersWithoutConsoleErrors_andIsNotBlank()
    {
        QFETCH(QString, file);
        const QString page = QUrl::fromLocalFile(m_dir.filePath(file)).toString();
        const QString shot = m_dir.filePath(file + QStringLiteral(".png"));
        QTemporaryDir profile;
        QByteArray log;
        const QByteArray out = runTool(m_browser,
                                       browserArguments(profile) << QStringLiteral("--screenshot=") + shot
                                                                 << QStringLiteral("--window-size=1200,2000") << page,
                                       &log);
        QVERIFY2(QFile::exists(shot), out.constData());
        QVERIFY2(pageProblems(log).isEmpty(), qPrintable(pageProblems(log).join(u'\n')));

        const QImage image(shot);
        QVERIFY(!image.isNull());
        QCOMPARE(image.width(), 1200);
        QSet<QRgb> colours;
        int inked = 0;
        for (int y = 0; y < image.height(); y += 3) {
            for (int x = 0; x < image.width(); x += 3) {
                const QRgb p = image.pixel(x, y);
                colours.insert(p);
                inked += qGray(p) < 200 ? 1 : 0;
            }
        }
        // Text, tables and the Okabe-Ito bars: many colours and a fair share of ink, not an empty page.
        QVERIFY2(colours.size() > 50, qPrintable(QString::number(colours.size())));
        QVERIFY2(inked > 2000, qPrintable(QString::number(inked)));
        QVERIFY(colours.contains(qRgb(0x00, 0x72, 0xB2))); // a with-skill bar was painted
    }

    void consoleCheck_catchesAPageThatLogsAnError()
    {
        // The control: the same check over a page with a script error must see it, or the checks above prove nothing.
        const QString broken = m_dir.filePath(QStringLiteral("broken.html"));
        QFile file(broken);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("<!DOCTYPE html><html><body><p>x</p><script>console.error('broken page');</script>"
                   "<img src=\"missing.png\"></body></html>");
        file.close();
        QTemporaryDir profile;
        QByteArray log;
        runTool(m_browser,
                browserArguments(profile) << QStringLiteral("--dump-dom") << QUrl::fromLocalFile(broken).toString(),
                &log);
        QVERIFY2(!pageProblems(log).isEmpty(), log.constData());
    }

    void html_domHoldsTheChartsTablesAndDetails()
    {
        QTemporaryDir profile;
        QByteArray log;
        const QByteArray dom = runTool(m_browser,
                                       browserArguments(profile)
                                           << QStringLiteral("--dump-dom") << QUrl::fromLocalFile(m_single).toString(),
                                       &log);
        QVERIFY(!dom.isEmpty());
        QVERIFY2(pageProblems(log).isEmpty(), qPrintable(pageProblems(log).join(u'\n')));
        QCOMPARE(dom.count("<svg"), 7); // six metric and comparison charts and pass rate against cost
        QCOMPARE(dom.count("<details>"), 40);
        QVERIFY(dom.contains("Skill report: diffusers-cuda-rmsnorm"));
        QVERIFY(dom.contains("class=\"matrix\""));
    }

private:
    QString m_browser;
    QTemporaryDir m_dir;
    QString m_single;
    QString m_compared;
};

int main(int argc, char **argv)
{
    QGuiApplication app(argc, argv);
    const QString browser = chromium();
    if (browser.isEmpty()) {
        return sf::test::skipAll(
            QStringLiteral("Chromium is not installed (Debian: apt-get install chromium); the HTML "
                           "report was not rendered"));
    }
    TestReportHtmlChromium test(browser);
    return sf::test::execCountingSkips(&test, argc, argv);
}

#include "test_report_html_chromium.moc"
