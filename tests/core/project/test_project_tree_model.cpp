#include "project/ProjectTreeModel.h"

#include "common/AtomicFile.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;

class TestProjectTreeModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void setProject_listsEveryKindWithItems()
    {
        QTemporaryDir dir;
        auto project = std::get<Project>(Project::create(dir.filePath(QStringLiteral("p")), QStringLiteral("p")));
        QVERIFY(writeFileAtomically(project.tracesPath() + QStringLiteral("/session.jsonl"), "{}\n").isEmpty());
        QVERIFY(writeFileAtomically(project.skillsPath() + QStringLiteral("/my-skill/SKILL.md"), "---\n").isEmpty());

        ProjectTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProject(project);
        QCOMPARE(model.rowCount(), 5);
        const QModelIndex traces = model.index(0, 0);
        QCOMPARE(model.rowCount(traces), 1);
        QCOMPARE(model.index(0, 0, traces).data().toString(), QStringLiteral("session.jsonl"));
        QVERIFY(traces.data(ProjectTreeModel::IsCategoryRole).toBool());
        QCOMPARE(model.rowCount(model.index(1, 0)), 1);
        const QModelIndex skill = model.indexForPath(project.skillsPath() + QStringLiteral("/my-skill"));
        QVERIFY(skill.isValid());
        QCOMPARE(skill.parent(), model.index(1, 0));
    }

    void fileAddedOnDisk_modelRefreshesItself()
    {
        QTemporaryDir dir;
        auto project = std::get<Project>(Project::create(dir.filePath(QStringLiteral("p")), QStringLiteral("p")));
        ProjectTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProject(project);
        QCOMPARE(model.rowCount(model.index(2, 0)), 0);
        QVERIFY(writeFileAtomically(project.testsPath() + QStringLiteral("/suite.json"), "[]").isEmpty());
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(model.index(2, 0)), 1, 5000);
    }

    void unrelatedWriteInSkillFolder_doesNotResetTheModel()
    {
        QTemporaryDir dir;
        auto project = std::get<Project>(Project::create(dir.filePath(QStringLiteral("p")), QStringLiteral("p")));
        QVERIFY(writeFileAtomically(project.skillsPath() + QStringLiteral("/my-skill/SKILL.md"), "---\n").isEmpty());
        ProjectTreeModel model;
        model.setProject(project);
        QSignalSpy resets(&model, &QAbstractItemModel::modelReset);
        QVERIFY(writeFileAtomically(project.skillsPath() + QStringLiteral("/my-skill/notes.md"), "x").isEmpty());
        model.reload();
        QCOMPARE(resets.count(), 0);
        QVERIFY(writeFileAtomically(project.tracesPath() + QStringLiteral("/new.jsonl"), "{}").isEmpty());
        model.reload();
        QCOMPARE(resets.count(), 1);
    }

    void noProject_hasNoRows()
    {
        ProjectTreeModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setProject(std::nullopt);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_GUILESS_MAIN(TestProjectTreeModel)
#include "test_project_tree_model.moc"
