#include "SkippedChecks.h"
#include "project/AppSettings.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSettings>
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

    void recentModels_newestFirst_withoutRepeats_boundedInNumber()
    {
        AppSettings settings;
        settings.addRecentModels({QStringLiteral("a:1"), QStringLiteral("b:2")});
        settings.addRecentModels({QStringLiteral("c:3"), QStringLiteral("a:1")});
        QCOMPARE(settings.recentModels(),
                 (QStringList{QStringLiteral("c:3"), QStringLiteral("a:1"), QStringLiteral("b:2")}));
        for (int i = 0; i < 20; ++i)
            settings.addRecentModels({QStringLiteral("m:%1").arg(i)});
        QCOMPARE(settings.recentModels().size(), AppSettings::MaxRecentModels);
        QCOMPARE(settings.recentModels().first(), QStringLiteral("m:19"));
    }

    void lastEvaluation_remembersSuiteRepeatsAndConcurrency_zeroUntilChosen()
    {
        AppSettings settings;
        settings.setLastEvalRepeats(0);
        settings.setLastEvalConcurrency(0);
        QCOMPARE(settings.lastEvalRepeats(), 0);
        settings.setLastEvalSuite(QStringLiteral("/p/tests/a.json"));
        settings.setLastEvalRepeats(5);
        settings.setLastEvalConcurrency(8);
        const AppSettings again;
        QCOMPARE(again.lastEvalSuite(), QStringLiteral("/p/tests/a.json"));
        QCOMPARE(again.lastEvalRepeats(), 5);
        QCOMPARE(again.lastEvalConcurrency(), 8);
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

    void verdictThresholds_defaultToAnyLiftOverTenPairs_andRoundTrip()
    {
        AppSettings settings;
        QCOMPARE(settings.verdictThresholds().minLift, 0.0);
        QCOMPARE(settings.verdictThresholds().minPairs, 10);
        settings.setVerdictThresholds({0.05, 30});
        QCOMPARE(AppSettings().verdictThresholds().minLift, 0.05);
        QCOMPARE(AppSettings().verdictThresholds().minPairs, 30);
        settings.setVerdictThresholds({-3, 0}); // out of range: clamped on reading
        QCOMPARE(AppSettings().verdictThresholds().minLift, 0.0);
        QCOMPARE(AppSettings().verdictThresholds().minPairs, 1);
        settings.setVerdictThresholds({});
    }

    void slurmProfile_emptyByDefault_andRoundTrips()
    {
        QCOMPARE(AppSettings().slurmProfile(), SlurmProfile());
        SlurmProfile profile;
        profile.slurmConf = QStringLiteral("/etc/slurm/slurm.conf");
        profile.partition = QStringLiteral("gpu");
        profile.gres = QStringLiteral("gpu:a100:1");
        profile.account = QStringLiteral("lab");
        profile.time = QStringLiteral("00:30:00");
        profile.sbatchArgs = {QStringLiteral("--qos=short"), QStringLiteral("--constraint=h100")};
        profile.sharedDir = QStringLiteral("/shared/skillforge");
        AppSettings().setSlurmProfile(profile);
        QCOMPARE(AppSettings().slurmProfile(), profile);
        AppSettings().setSlurmProfile({});
        QCOMPARE(AppSettings().slurmProfile(), SlurmProfile());
    }

    void lastExecutor_localByDefault_andRoundTrips()
    {
        QCOMPARE(AppSettings().lastExecutor(), QStringLiteral("local"));
        AppSettings().setLastExecutor(QStringLiteral("slurm"));
        QCOMPARE(AppSettings().lastExecutor(), QStringLiteral("slurm"));
        AppSettings().setLastExecutor(QStringLiteral("local"));
    }

    void filePath_isTheConfFileInTheApplicationsConfigFolder()
    {
        const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation);
        QCOMPARE(AppSettings::filePath(), folder + QStringLiteral("/skillforge-test-settings.conf"));
        QVERIFY(!AppSettings::filePath().contains(QStringLiteral("Unknown Organization")));
        AppSettings().setTheme(QStringLiteral("dark"));
        QCOMPARE(QSettings(AppSettings::filePath(), QSettings::IniFormat).value(QStringLiteral("appearance/theme")),
                 QVariant(QStringLiteral("dark")));
    }

    void moveFromOldPlace_movesTheOldFileOnceAndNeverOverwrites()
    {
        const QString oldFolder = QStandardPaths::writableLocation(QStandardPaths::GenericConfigLocation) +
                                  QStringLiteral("/Unknown Organization");
        const QString oldPath = oldFolder + QStringLiteral("/skillforge-test-settings.conf");
        QFile::remove(AppSettings::filePath());
        QVERIFY(QDir().mkpath(oldFolder));
        {
            QSettings old(oldPath, QSettings::IniFormat);
            old.setValue(QStringLiteral("appearance/theme"), QStringLiteral("light"));
        }
        QCOMPARE(AppSettings::moveFromOldPlace(), QString());
        QVERIFY(!QFile::exists(oldPath));
        QCOMPARE(AppSettings().theme(), QStringLiteral("light"));

        // A newer file is never replaced by an old one that reappears.
        {
            QSettings old(oldPath, QSettings::IniFormat);
            old.setValue(QStringLiteral("appearance/theme"), QStringLiteral("dark"));
        }
        QCOMPARE(AppSettings::moveFromOldPlace(), QString());
        QCOMPARE(AppSettings().theme(), QStringLiteral("light"));
        QVERIFY(QFile::exists(oldPath));
        QFile::remove(oldPath);
    }

    // Last: it changes the whole process.
    void keepUnchangedInThisProcess_setterChangesNothing()
    {
        QTemporaryDir project;
        AppSettings settings;
        settings.setLastView(QStringLiteral("trace"));
        AppSettings::keepUnchangedInThisProcess();
        settings.setLastView(QStringLiteral("compare"));
        settings.addRecentProject(project.path());
        settings.clearRecentProjects();
        QCOMPARE(AppSettings().lastView(), QStringLiteral("trace"));
        QVERIFY(!AppSettings().recentProjects().contains(project.path()));
    }
};

SF_TEST_GUILESS_MAIN(TestAppSettings)
#include "test_app_settings.moc"
