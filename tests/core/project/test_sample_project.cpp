#include "SkippedChecks.h"
#include "project/Project.h"
#include "project/SampleProject.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;

class TestSampleProject : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void ensureInstalled_copiesAnEditableProject()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("sample"));
        QCOMPARE(SampleProject::ensureInstalled(folder), QString());
        auto result = Project::open(folder);
        QVERIFY(std::holds_alternative<Project>(result));
        const Project &project = std::get<Project>(result);
        QCOMPARE(project.items(ProjectItem::Kind::Skill).size(), 1);
        const QString skillFile = project.items(ProjectItem::Kind::Skill).first().path + QStringLiteral("/SKILL.md");
        QFile file(skillFile);
        QVERIFY2(file.open(QIODevice::ReadWrite), qPrintable(file.errorString()));
        QVERIFY(file.size() > 1000);
        QVERIFY(!QFileInfo::exists(folder + QStringLiteral(".partial")));
    }

    void ensureInstalled_twice_keepsTheUsersEdits()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("sample"));
        QCOMPARE(SampleProject::ensureInstalled(folder), QString());
        QFile note(folder + QStringLiteral("/skillforge.json"));
        QVERIFY(note.open(QIODevice::Append));
        note.write("\n");
        note.close();
        const qint64 editedSize = QFileInfo(note.fileName()).size();
        QCOMPARE(SampleProject::ensureInstalled(folder), QString());
        QCOMPARE(QFileInfo(note.fileName()).size(), editedSize);
    }

    void ensureInstalled_foreignFolderInTheWay_isRefused()
    {
        QTemporaryDir dir;
        QVERIFY(!SampleProject::ensureInstalled(dir.path()).isEmpty());
    }
};

SF_TEST_GUILESS_MAIN(TestSampleProject)
#include "test_sample_project.moc"
