// Where Help → Documentation finds the user's guide: beside an installed executable first, else in the sources a
// build tree was made from; and that an install puts it there with the pages and pictures its links name.
#include "SkippedChecks.h"
#include "common/Documentation.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;

class TestDocumentation final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void installedGuide_besideTheExecutable_winsOverTheSources()
    {
        QTemporaryDir prefix;
        QVERIFY(QDir().mkpath(prefix.filePath(QStringLiteral("bin"))));
        QVERIFY(QDir().mkpath(prefix.filePath(QStringLiteral("share/doc/skillforge"))));
        QFile readme(prefix.filePath(QStringLiteral("share/doc/skillforge/README.md")));
        QVERIFY(readme.open(QIODevice::WriteOnly));
        readme.write("# Skillforge\n");
        readme.close();
        QCOMPARE(documentation::readme(prefix.filePath(QStringLiteral("bin"))), QFileInfo(readme).absoluteFilePath());
    }

    void uninstalledBuild_findsTheSourcesGuide()
    {
        QTemporaryDir elsewhere;
        QCOMPARE(documentation::readme(elsewhere.path()),
                 QDir::cleanPath(QStringLiteral(SKILLFORGE_SOURCE_DIR "/README.md")));
        QVERIFY(documentation::candidates(elsewhere.path()).first().endsWith(u"share/doc/skillforge/README.md"));
    }

    void install_putsTheGuideWhereItIsLookedFor_withEveryPageItLinks()
    {
        // The build tree's install rules for the guide (the "doc" component), run into a folder of our own.
        QTemporaryDir prefix;
        QProcess install;
        install.start(QStringLiteral("cmake"), {QStringLiteral("--install"), QStringLiteral(SKILLFORGE_BINARY_DIR),
                                                QStringLiteral("--component"), QStringLiteral("doc"),
                                                QStringLiteral("--prefix"), prefix.path()});
        QVERIFY(install.waitForFinished(120000));
        QVERIFY2(install.exitCode() == 0, install.readAllStandardError().constData());
        const QString readme = documentation::readme(prefix.filePath(QStringLiteral("bin")));
        QCOMPARE(readme, QDir::cleanPath(prefix.filePath(QStringLiteral("share/doc/skillforge/README.md"))));
        QFile file(readme);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(file.readAll());
        static const QRegularExpression link(QStringLiteral("\\]\\((docs/[^)#]+)"));
        int links = 0;
        for (const QRegularExpressionMatch &m : link.globalMatch(text)) {
            ++links;
            QVERIFY2(QFileInfo::exists(QFileInfo(readme).dir().filePath(m.captured(1))), qPrintable(m.captured(1)));
        }
        QVERIFY(links >= 5);
    }
};

SF_TEST_GUILESS_MAIN(TestDocumentation)
#include "test_documentation.moc"
