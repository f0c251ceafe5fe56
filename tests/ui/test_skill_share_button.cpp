#include "../support/TestFiles.h"
#include "SkippedChecks.h"
#include "skill/SkillShareButton.h"

#include <QApplication>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;

namespace {

QString copySampleSkill(const QString &into)
{
    const QString to = into + QStringLiteral("/diffusers-cuda-rmsnorm");
    sf::test::copyTree(QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/sample-project/skills/diffusers-cuda-rmsnorm"), to);
    return to;
}

} // namespace

class TestSkillShareButton : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void pack_writesTheArchiveWhereTheUserChose()
    {
        QTemporaryDir dir;
        SkillShareButton button;
        button.setSkill(copySampleSkill(dir.path()), {});
        const QString archive = dir.filePath(QStringLiteral("out/rmsnorm.skill"));
        QDir().mkpath(dir.filePath(QStringLiteral("out")));
        button.setChoosers([&](const QString &, const QString &) { return archive; }, {});
        QSignalSpy reported(&button, &SkillShareButton::reported);
        const QString message = button.pack();
        QVERIFY2(message.startsWith(QStringLiteral("Packed")), qPrintable(message));
        QVERIFY(QFileInfo(archive).size() > 1000);
        QCOMPARE(reported.count(), 1);
    }

    void pack_cancelledChooser_doesNothing()
    {
        QTemporaryDir dir;
        SkillShareButton button;
        button.setSkill(copySampleSkill(dir.path()), {});
        button.setChoosers([](const QString &, const QString &) { return QString(); }, {});
        QSignalSpy reported(&button, &SkillShareButton::reported);
        QCOMPARE(button.pack(), QString());
        QCOMPARE(reported.count(), 0);
    }

    void installTo_existingCopy_replacedOnlyAfterConfirmation()
    {
        QTemporaryDir dir;
        SkillShareButton button;
        button.setSkill(copySampleSkill(dir.path()), {});
        const QString skills = dir.filePath(QStringLiteral("agent/skills"));
        QVERIFY(button.installTo(skills).startsWith(QStringLiteral("Installed")));
        const QString installedSkill = skills + QStringLiteral("/diffusers-cuda-rmsnorm/SKILL.md");
        QVERIFY(QFileInfo::exists(installedSkill));

        // The user edits the installed copy, then declines the replacement: the edit survives.
        QFile edited(installedSkill);
        QVERIFY(edited.open(QIODevice::Append));
        edited.write("local edit\n");
        edited.close();
        int asked = 0;
        button.setConfirm([&](const QString &, const QString &) { ++asked; return false; });
        QCOMPARE(button.installTo(skills), QString());
        QCOMPARE(asked, 1);
        {
            QFile check(installedSkill);
            QVERIFY(check.open(QIODevice::ReadOnly));
            QVERIFY(check.readAll().endsWith("local edit\n"));
        }

        button.setConfirm([&](const QString &, const QString &) { ++asked; return true; });
        QVERIFY(button.installTo(skills).startsWith(QStringLiteral("Installed")));
        QFile replaced(installedSkill);
        QVERIFY(replaced.open(QIODevice::ReadOnly));
        QVERIFY(!replaced.readAll().endsWith("local edit\n"));
    }

    void noSkill_buttonIsDisabled()
    {
        SkillShareButton button;
        QVERIFY(!button.isEnabled());
        button.setSkill(QStringLiteral("/tmp/x"), {});
        QVERIFY(button.isEnabled());
    }
};

SF_TEST_MAIN(TestSkillShareButton)
#include "test_skill_share_button.moc"
