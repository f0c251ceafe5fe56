#include "FakeSlurmTools.h"
#include "SkippedChecks.h"
#include "project/AppSettings.h"
#include "settings/PreferencesDialog.h"
#include "settings/SlurmPage.h"

#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace sf::test;

/// Preferences → Slurm: the profile in the settings, its Test (sbatch --test-only off the UI thread), and what the
/// page says where sbatch is missing. Slurm's tools are scripts here (FakeSlurmTools).
class TestSlurmPage final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_shared;

    static QLineEdit *field(const QWidget &page, const char *name)
    {
        return page.findChild<QLineEdit *>(QString::fromLatin1(name));
    }

    static void screenshot(QWidget &widget, const QString &name)
    {
        if (const QByteArray dir = qgetenv("SKILLFORGE_SCREENSHOT_DIR"); !dir.isEmpty())
            widget.grab().save(QString::fromUtf8(dir) + u'/' + name);
    }

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void init() { AppSettings().setSlurmProfile({}); }

    void fields_showTheProfile_andSaveWritesIt()
    {
        SlurmProfile stored;
        stored.partition = QStringLiteral("debug");
        stored.sbatchArgs = {QStringLiteral("--qos=short"), QStringLiteral("--comment=two words")};
        AppSettings settings;
        settings.setSlurmProfile(stored);
        SlurmPage page(settings);
        QCOMPARE(field(page, "partition")->text(), QStringLiteral("debug"));
        QCOMPARE(page.profile(), stored); // the quoted option comes back whole
        field(page, "gres")->setText(QStringLiteral("gpu:1"));
        field(page, "account")->setText(QStringLiteral("lab"));
        field(page, "time")->setText(QStringLiteral("00:30:00"));
        field(page, "slurmConf")->setText(QStringLiteral("/etc/slurm/slurm.conf"));
        field(page, "sharedDir")->setText(m_shared.path());
        QCOMPARE(page.save(), QString());
        const SlurmProfile saved = AppSettings().slurmProfile();
        QCOMPARE(saved.gres, QStringLiteral("gpu:1"));
        QCOMPARE(saved.account, QStringLiteral("lab"));
        QCOMPARE(saved.time, QStringLiteral("00:30:00"));
        QCOMPARE(saved.slurmConf, QStringLiteral("/etc/slurm/slurm.conf"));
        QCOMPARE(saved.sharedDir, m_shared.path());
        QCOMPARE(saved.sbatchArgs, stored.sbatchArgs);

        field(page, "sbatchOptions")->setText(QStringLiteral("--comment='not closed"));
        QVERIFY(page.save().contains(QStringLiteral("quote")));
        QCOMPARE(AppSettings().slurmProfile().sbatchArgs, stored.sbatchArgs); // nothing half-read was stored
    }

    void withoutSbatch_thePageSaysSo_andTestIsOff()
    {
        QTemporaryDir empty;
        ScopedPath path(empty.path());
        AppSettings settings;
        SlurmPage page(settings);
        page.resize(640, 420);
        const QString said = page.findChild<QLabel *>(QStringLiteral("slurmAvailability"))->text();
        QVERIFY2(said.contains(QStringLiteral("sbatch is not on PATH")), qPrintable(said));
        QVERIFY(!page.findChild<QPushButton *>(QStringLiteral("testSlurm"))->isEnabled());
        screenshot(page, QStringLiteral("preferences-slurm-no-sbatch.png"));
    }

    void test_accepted_saysSlurmWouldTakeTheJobs_withTheGres()
    {
        FakeSlurmTools slurm;
        ScopedPath path(slurm.path());
        AppSettings settings;
        SlurmPage page(settings);
        field(page, "partition")->setText(QStringLiteral("gpu"));
        field(page, "gres")->setText(QStringLiteral("gpu:2"));
        field(page, "sharedDir")->setText(m_shared.path());
        QSignalSpy tested(&page, &SlurmPage::tested);
        QTest::mouseClick(page.findChild<QPushButton *>(QStringLiteral("testSlurm")), Qt::LeftButton);
        QVERIFY(page.isTesting()); // the answer comes later: the UI thread did not wait for sbatch
        QVERIFY(tested.wait(10000));
        QCOMPARE(tested.first().at(0).toBool(), true);
        QVERIFY2(page.statusText().contains(QStringLiteral("would take jobs")) &&
                     page.statusText().contains(QStringLiteral("--gres=gpu:2")),
                 qPrintable(page.statusText()));
        const QString calls = slurm.calls();
        QVERIFY2(calls.contains(QStringLiteral("--test-only")) && calls.contains(QStringLiteral("--partition=gpu")) &&
                     calls.contains(QStringLiteral("--gres=gpu:2")),
                 qPrintable(calls));
        QVERIFY(!calls.contains(QStringLiteral("--parsable --job-name=skillforge --export=NONE --no-requeue "
                                               "--partition=gpu --gres=gpu:2\n"))); // nothing was submitted
    }

    void test_refused_showsSlurmsReasonInPlainWords()
    {
        FakeSlurmTools slurm;
        ScopedPath path(slurm.path());
        slurm.refuse("sbatch: error: Batch job submission failed: Invalid partition name specified\n");
        AppSettings settings;
        PreferencesDialog dialog(settings);
        dialog.showSlurmPage();
        SlurmPage *page = dialog.slurmPage();
        QCOMPARE(dialog.findChild<QTabWidget *>()->currentWidget(), page);
        field(*page, "partition")->setText(QStringLiteral("nosuch"));
        field(*page, "sharedDir")->setText(m_shared.path());
        QSignalSpy tested(page, &SlurmPage::tested);
        page->test();
        QVERIFY(tested.wait(10000));
        QCOMPARE(tested.first().at(0).toBool(), false);
        QVERIFY2(page->statusText().contains(QStringLiteral("no such partition")), qPrintable(page->statusText()));
        dialog.resize(640, 460);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        screenshot(dialog, QStringLiteral("preferences-slurm-refused.png"));
        dialog.accept(); // OK keeps the profile, refusal or not: the user may be off the cluster's network
        QCOMPARE(AppSettings().slurmProfile().partition, QStringLiteral("nosuch"));
    }
};

SF_TEST_MAIN(TestSlurmPage)
#include "test_slurm_page.moc"
