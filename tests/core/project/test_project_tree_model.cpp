#include "SkippedChecks.h"
#include "common/AtomicFile.h"
#include "project/ProjectTreeModel.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QFileInfo>
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

    void runs_areNamedByTheirSkillAndStart_theIdInTheTooltip()
    {
        QTemporaryDir dir;
        auto project = std::get<Project>(Project::create(dir.filePath(QStringLiteral("p")), QStringLiteral("p")));
        const QString run = project.runsPath() + QStringLiteral("/20261202T062336Z-73cfd3");
        QVERIFY(writeFileAtomically(run + QStringLiteral("/run.json"),
                                    R"({"run_id": "20261202T062336Z-73cfd3", "skill": {"name": "rmsnorm"},
                                        "started_at": "2026-12-02T06:23:36Z"})")
                    .isEmpty());
        const QString bare = project.runsPath() + QStringLiteral("/20261203T000000Z-000000");
        QVERIFY(writeFileAtomically(bare + QStringLiteral("/run.json"), "{}").isEmpty());
        ProjectTreeModel model;
        model.setProject(project);
        const QModelIndex named = model.indexForPath(QFileInfo(run).absoluteFilePath());
        QVERIFY(named.isValid());
        QCOMPARE(named.data().toString(), QStringLiteral("rmsnorm (2026-12-02 06:23)"));
        QVERIFY(named.data(Qt::ToolTipRole).toString().startsWith(QStringLiteral("Run 20261202T062336Z-73cfd3\n")));
        // A run.json that names no skill keeps the folder's name.
        QCOMPARE(model.indexForPath(QFileInfo(bare).absoluteFilePath()).data().toString(),
                 QStringLiteral("20261203T000000Z-000000"));
    }

    // Issue 33: the sidebar's skill tooltip is the skill at a glance, as `skillforge skill list` shows it.
    void skills_tooltipSaysWhatTheSkillDoesCostsAndLastDecided()
    {
        QTemporaryDir dir;
        auto project = std::get<Project>(Project::create(dir.filePath(QStringLiteral("p")), QStringLiteral("p")));
        const QString skill = project.skillsPath() + QStringLiteral("/rmsnorm");
        QVERIFY(
            writeFileAtomically(skill + QStringLiteral("/SKILL.md"),
                                "---\nname: rmsnorm\ndescription: Writes RMSNorm kernels. Use for CUDA norms.\n---\n"
                                "# RMSNorm\n\nOne block per row.\n")
                .isEmpty());
        ProjectTreeModel model;
        model.setProject(project);
        const QString tip = model.indexForPath(QFileInfo(skill).absoluteFilePath()).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.startsWith(QStringLiteral("Writes RMSNorm kernels. Use for CUDA norms.\n")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("tokens in all: SKILL.md ~")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("last evaluation: none")), qPrintable(tip));
    }

    void kernelTaskGroup_countsTheProjectsOwn_andSaysWhereTheBundledAre()
    {
        QTemporaryDir dir;
        auto project = std::get<Project>(Project::create(dir.filePath(QStringLiteral("p")), QStringLiteral("p")));
        ProjectTreeModel model;
        model.setProject(project);
        const QModelIndex kernels = model.index(model.rowCount() - 1, 0);
        QCOMPARE(kernels.data().toString(), QStringLiteral("Project kernel tasks (0)"));
        QVERIFY(kernels.data(Qt::ToolTipRole).toString().startsWith(project.pathFor(ProjectItem::Kind::KernelTask)));
        QVERIFY(kernels.data(Qt::ToolTipRole).toString().contains(QStringLiteral("listed in the Kernels view")));
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

SF_TEST_GUILESS_MAIN(TestProjectTreeModel)
#include "test_project_tree_model.moc"
