#include "project/AppSettings.h"

#include <QCoreApplication>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;

class TestAppSettings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("skillforge-test-settings"));
    }

    void init() { AppSettings().clearRecentProjects(); }

    void addRecentProject_newestFirstWithoutDuplicates()
    {
        QTemporaryDir a, b;
        AppSettings settings;
        settings.addRecentProject(a.path());
        settings.addRecentProject(b.path());
        settings.addRecentProject(a.path());
        QCOMPARE(settings.recentProjects(), (QStringList{a.path(), b.path()}));
    }

    void recentProjects_dropsFoldersThatVanished()
    {
        AppSettings settings;
        {
            QTemporaryDir gone;
            settings.addRecentProject(gone.path());
        }
        QVERIFY(settings.recentProjects().isEmpty());
    }

    void recentProjects_keepsAtMostTen()
    {
        std::vector<std::unique_ptr<QTemporaryDir>> dirs;
        AppSettings settings;
        for (int i = 0; i < 12; ++i) {
            dirs.push_back(std::make_unique<QTemporaryDir>());
            settings.addRecentProject(dirs.back()->path());
        }
        QCOMPARE(settings.recentProjects().size(), AppSettings::MaxRecentProjects);
        QCOMPARE(settings.recentProjects().first(), dirs.back()->path());
    }

    void localModelSettings_haveSaneDefaultsAndBounds()
    {
        AppSettings settings;
        settings.setLocalModelContextSize(10);
        QCOMPARE(settings.localModelContextSize(), 512);
        settings.setLocalModelContextSize(8192);
        QCOMPARE(settings.localModelContextSize(), 8192);
        settings.setLocalModelThreads(-3);
        QCOMPARE(settings.localModelThreads(), 0);
    }
};

QTEST_GUILESS_MAIN(TestAppSettings)
#include "test_app_settings.moc"
