#include "SkippedChecks.h"
#include "common/AtomicFile.h"
#include "project/Project.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;

namespace {
const QString SampleRoot = QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/sample-project");

LoadError openExpectingError(const QString &folder)
{
    auto result = Project::open(folder);
    if (!std::holds_alternative<LoadError>(result))
        return {};
    return std::get<LoadError>(result);
}
} // namespace

class TestProject : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void open_sampleProject_readsNameAndDefaults()
    {
        auto result = Project::open(SampleRoot);
        if (const auto *error = std::get_if<LoadError>(&result))
            QFAIL(qPrintable(error->toString()));
        const Project &project = std::get<Project>(result);
        QVERIFY(project.hasProjectFile());
        QVERIFY(!project.name().isEmpty());
        QVERIFY(project.defaults().teacher.startsWith(QStringLiteral("anthropic:")));
        QVERIFY(project.defaults().students.contains(QStringLiteral("local:qwen2.5-coder-1.5b")));
        QCOMPARE(project.defaults().repeats, 3);
    }

    void items_sampleProject_listsTraceSkillAndSuite()
    {
        const Project project = std::get<Project>(Project::open(SampleRoot));
        QCOMPARE(project.items(ProjectItem::Kind::Trace).size(), 1);
        QCOMPARE(project.items(ProjectItem::Kind::Skill).size(), 1);
        QCOMPARE(project.items(ProjectItem::Kind::Skill).first().name, QStringLiteral("diffusers-cuda-rmsnorm"));
        // One suite any machine can check, and the kernel suite that needs a GPU.
        QCOMPARE(project.items(ProjectItem::Kind::TestSuite).size(), 2);
        QCOMPARE(project.items(ProjectItem::Kind::TestSuite).first().name, QStringLiteral("rmsnorm-cpu-checks.json"));
        // The run made by the embedded model without and with the skill (.gitkeep is not a run).
        QCOMPARE(project.items(ProjectItem::Kind::Run).size(), 1);
    }

    void open_folderWithoutProjectFile_opensWithFolderName()
    {
        QTemporaryDir dir;
        const auto result = Project::open(dir.path());
        QVERIFY(std::holds_alternative<Project>(result));
        QVERIFY(!std::get<Project>(result).hasProjectFile());
        QCOMPARE(std::get<Project>(result).name(), QFileInfo(dir.path()).fileName());
    }

    void open_invalidJson_namesFileLineAndColumn()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(Project::FileName);
        QVERIFY(writeFileAtomically(file, "{\n  \"name\": \"x\",\n  \"defaults\": {,}\n}\n").isEmpty());
        const LoadError error = openExpectingError(dir.path());
        QCOMPARE(error.file, file);
        QCOMPARE(error.line, 3);
        QVERIFY(error.column > 0);
        QVERIFY(error.toString().startsWith(file + QStringLiteral(":3:")));
    }

    void open_wrongType_saysWhichKey()
    {
        QTemporaryDir dir;
        QVERIFY(writeFileAtomically(dir.filePath(Project::FileName),
                                    R"({"name": "x", "defaults": {"students": "local:qwen2.5-coder-1.5b"}})").isEmpty());
        const LoadError error = openExpectingError(dir.path());
        QVERIFY2(error.message.contains(QStringLiteral("students")), qPrintable(error.message));
    }

    void open_newerFormatVersion_isRefused()
    {
        QTemporaryDir dir;
        QVERIFY(writeFileAtomically(dir.filePath(Project::FileName), R"({"formatVersion": 99})").isEmpty());
        QVERIFY(openExpectingError(dir.path()).message.contains(QStringLiteral("newer")));
    }

    void open_missingFolder_isAnError()
    {
        QVERIFY(!openExpectingError(QStringLiteral("/nonexistent/skillforge-project")).message.isEmpty());
    }

    void create_emptyFolder_writesLayoutAndOpens()
    {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("new-project"));
        auto result = Project::create(folder, QStringLiteral("My kernels"));
        QVERIFY(std::holds_alternative<Project>(result));
        QCOMPARE(std::get<Project>(result).name(), QStringLiteral("My kernels"));
        for (const char *sub : {"traces", "skills", "tests", "runs", "kernels"})
            QVERIFY(QDir(folder).exists(QString::fromLatin1(sub)));
    }

    void create_nonEmptyFolder_isRefusedAndLeftAlone()
    {
        QTemporaryDir dir;
        QVERIFY(writeFileAtomically(dir.filePath(QStringLiteral("notes.txt")), "mine").isEmpty());
        QVERIFY(std::holds_alternative<LoadError>(Project::create(dir.path(), QStringLiteral("x"))));
        QVERIFY(!QFileInfo::exists(dir.filePath(Project::FileName)));
    }

    void addTrace_copiesIntoTraces_underAFreeName_andReusesTheSameContent()
    {
        QTemporaryDir dir;
        auto created = Project::create(dir.filePath(QStringLiteral("p")), QStringLiteral("P"));
        QVERIFY(std::holds_alternative<Project>(created));
        const Project &project = std::get<Project>(created);
        const QString first = dir.filePath(QStringLiteral("session.jsonl"));
        QVERIFY(writeFileAtomically(first, "{\"a\": 1}\n").isEmpty());
        bool copied = false;
        Result<QString> added = project.addTrace(first, &copied);
        QVERIFY(added && copied);
        QCOMPARE(*added.value, QDir(project.tracesPath()).filePath(QStringLiteral("session.jsonl")));
        // The same file again: the copy there is reused, nothing new is made.
        added = project.addTrace(first, &copied);
        QVERIFY(added && !copied);
        QCOMPARE(*added.value, QDir(project.tracesPath()).filePath(QStringLiteral("session.jsonl")));
        // Another file of that name: a free name beside it; the original is never touched.
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("other")));
        const QString second = dir.filePath(QStringLiteral("other/session.jsonl"));
        QVERIFY(writeFileAtomically(second, "{\"b\": 2}\n").isEmpty());
        added = project.addTrace(second, &copied);
        QVERIFY(added && copied);
        QCOMPARE(*added.value, QDir(project.tracesPath()).filePath(QStringLiteral("session-2.jsonl")));
        // A trace in traces/ already is itself; a missing file is an error; no partial copy is left behind.
        added = project.addTrace(*added.value, &copied);
        QVERIFY(added && !copied);
        QVERIFY(!project.addTrace(dir.filePath(QStringLiteral("missing.jsonl"))));
        QCOMPARE(QDir(project.tracesPath()).entryList(QDir::Files | QDir::Hidden).size(), 2);
    }
};

SF_TEST_GUILESS_MAIN(TestProject)
#include "test_project.moc"
