// Runs the real executable the way the README's screenshots are made, and checks the pictures.
#include "SkippedChecks.h"
#include "TestFiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>
#include <QImage>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

class TestGuiScreenshot : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home;

    QString settingsFile() const { return m_home.filePath(QStringLiteral("config/skillforge/skillforge.conf")); }

    QProcess *run(const QStringList &arguments)
    {
        auto *process = new QProcess(this);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        // A private HOME and XDG folders: the test never touches the user's settings or data.
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_home.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        process->setProcessEnvironment(env);
        process->start(QStringLiteral(SKILLFORGE_EXECUTABLE), arguments);
        return process;
    }

private Q_SLOTS:
    void screenshot_eachView_writesANonBlankPng_data()
    {
        QTest::addColumn<QString>("view");
        for (const char *view : {"trace", "skill", "compare", "runs", "kernels"})
            QTest::newRow(view) << QString::fromLatin1(view);
    }

    void screenshot_eachView_writesANonBlankPng()
    {
        QFETCH(QString, view);
        const QString png = m_home.filePath(view + QStringLiteral(".png"));
        QProcess *process = run({QStringLiteral("gui"), QStringLiteral("--sample"), QStringLiteral("--view"), view,
                                 QStringLiteral("--screenshot"), png});
        QVERIFY(process->waitForFinished(120000));
        QVERIFY2(process->exitCode() == 0, process->readAllStandardError().constData());
        const QImage image(png);
        QVERIFY(!image.isNull());
        QVERIFY(image.width() >= 1000 && image.height() >= 600);
        // A real window has many colours; a blank or failed render has one or two.
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 7) {
            for (int x = 0; x < image.width(); x += 7)
                colours.insert(image.pixel(x, y));
        }
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
    }

    // The README's Compare picture: a project holding the two fixture runs.
    void screenshot_compareOnTwoRuns_drawsTheChartsInTheirColours()
    {
        QTemporaryDir project;
        const QString fixtures = QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/runs/");
        for (const QString &run : {QStringLiteral("skill-v1"), QStringLiteral("skill-v2")})
            QVERIFY(sf::test::copyTree(fixtures + run, project.filePath(QStringLiteral("runs/") + run)));
        const QString png = m_home.filePath(QStringLiteral("compare-runs.png"));
        QProcess *process = run({QStringLiteral("gui"), project.path(), QStringLiteral("--view"),
                                 QStringLiteral("compare"), QStringLiteral("--screenshot"), png});
        QVERIFY(process->waitForFinished(120000));
        QVERIFY2(process->exitCode() == 0, process->readAllStandardError().constData());
        const QImage image(png);
        QVERIFY(!image.isNull());
        // The with-skill bars are filled with Okabe-Ito blue; the baseline bars are hatched in its orange.
        int blue = 0, orange = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                const QRgb pixel = image.pixel(x, y);
                blue += pixel == qRgb(0x00, 0x72, 0xB2) ? 1 : 0;
                orange += pixel == qRgb(0xE6, 0x9F, 0x00) ? 1 : 0;
            }
        }
        QVERIFY2(blue > 5000, qPrintable(QString::number(blue)));
        QVERIFY2(orange > 200, qPrintable(QString::number(orange)));
        // A picture is not a visit: the project is not among the recent ones, the next start does not open it.
        QFile settings(settingsFile());
        if (settings.open(QIODevice::ReadOnly))
            QVERIFY2(!settings.readAll().contains(project.path().toUtf8()), "the screenshot recorded the project");
    }

    // Settings live in ~/.config/skillforge/skillforge.conf; a file Qt put under "Unknown Organization" moves there.
    void start_movesSettingsFromTheOldPlaceOnce()
    {
        const QString oldFolder = m_home.filePath(QStringLiteral("config/Unknown Organization"));
        QVERIFY(QDir().mkpath(oldFolder));
        QFile::remove(settingsFile());
        QFile old(oldFolder + QStringLiteral("/skillforge.conf"));
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("[appearance]\ntheme=dark\n");
        old.close();
        // Any command moves it, before it runs (this one then fails on its missing folder).
        QProcess *process = run({QStringLiteral("validate"), m_home.filePath(QStringLiteral("no-such-skill"))});
        QVERIFY(process->waitForFinished(60000));
        QVERIFY(!QFile::exists(old.fileName()));
        QFile moved(settingsFile());
        QVERIFY(moved.open(QIODevice::ReadOnly));
        QVERIFY(moved.readAll().contains("theme=dark"));
    }

    void screenshot_unknownView_exitsWithUsageError()
    {
        QProcess *process = run({QStringLiteral("gui"), QStringLiteral("--sample"), QStringLiteral("--view"),
                                 QStringLiteral("nope"), QStringLiteral("--screenshot"), m_home.filePath(QStringLiteral("x.png"))});
        QVERIFY(process->waitForFinished(60000));
        QCOMPARE(process->exitCode(), 2);
        QVERIFY(process->readAllStandardError().contains("unknown view"));
    }

    void screenshot_brokenProject_exitsWithFileAndLine()
    {
        QTemporaryDir project;
        QFile file(project.filePath(QStringLiteral("skillforge.json")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"name\": \"x\",\n \"defaults\": [}\n");
        file.close();
        QProcess *process = run({QStringLiteral("gui"), project.path(), QStringLiteral("--screenshot"),
                                 m_home.filePath(QStringLiteral("y.png"))});
        QVERIFY(process->waitForFinished(60000));
        QCOMPARE(process->exitCode(), 2);
        QVERIFY2(process->readAllStandardError().contains("skillforge.json:2:"), "error names file and line");
    }
};

SF_TEST_GUILESS_MAIN(TestGuiScreenshot)
#include "test_gui_screenshot.moc"
