#include "SkillTestUtil.h"
#include "SkippedChecks.h"
#include "skill/SkillFolder.h"
#include "skill/SkillMeta.h"

#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace sf::test;

namespace {

QStringList paths(const QList<SkillFile> &files)
{
    QStringList result;
    for (const SkillFile &file : files)
        result.append(file.relativePath);
    return result;
}

} // namespace

class TestSkillFolder : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_root;
    QString m_skill;

private Q_SLOTS:
    void init()
    {
        m_skill = m_root.filePath(QStringLiteral("valid-basic"));
        QDir(m_skill).removeRecursively();
        QVERIFY(copyTree(fixture(QStringLiteral("valid-basic")), m_skill));
    }

    void open_notASkill_failsNamingTheFolder()
    {
        const auto opened = SkillFolder::open(fixture(QStringLiteral("not-a-skill")));
        QVERIFY(std::holds_alternative<LoadError>(opened));
        QVERIFY(std::get<LoadError>(opened).toString().contains(QStringLiteral("not-a-skill")));
        QVERIFY(std::holds_alternative<LoadError>(SkillFolder::open(m_root.filePath(QStringLiteral("missing")))));
    }

    void open_lowercaseSkillMd_isAccepted()
    {
        const auto opened = SkillFolder::open(fixture(QStringLiteral("lowercase-file")));
        QVERIFY(std::holds_alternative<SkillFolder>(opened));
        QCOMPARE(std::get<SkillFolder>(opened).skillMdFileName(), QStringLiteral("skill.md"));
    }

    void files_skillMdFirst_hiddenAndVersionsLeftOut_tokensCounted()
    {
        QVERIFY(writeText(m_skill, QStringLiteral(".versions/x/files/SKILL.md"), QStringLiteral("old")));
        QVERIFY(writeText(m_skill, QStringLiteral(".hidden"), QStringLiteral("secret")));
        QVERIFY(writeFileAtomically(QDir(m_skill).filePath(QStringLiteral("assets/logo.png")),
                                    QByteArray("\x89PNG\0\x01", 6))
                    .isEmpty());
        const SkillFolder folder = std::get<SkillFolder>(SkillFolder::open(m_skill));
        QCOMPARE(folder.name(), QStringLiteral("valid-basic"));
        const QList<SkillFile> files = folder.files();
        QCOMPARE(paths(files),
                 (QStringList{QStringLiteral("SKILL.md"), QStringLiteral("assets/logo.png"),
                              QStringLiteral("references/guide.md"), QStringLiteral("scripts/check.py")}));
        QVERIFY(files[0].isText);
        QVERIFY(files[0].tokens > 20);
        QCOMPARE(files[0].bytes, QFileInfo(QDir(m_skill).filePath(QStringLiteral("SKILL.md"))).size());
        QVERIFY(!files[1].isText);
        QCOMPARE(files[1].tokens, 0);
        int sum = 0;
        for (const SkillFile &file : files)
            sum += file.tokens;
        QCOMPARE(folder.totalTokens(), sum);
    }

    void addFile_writesAndRefusesOverwriteAndEscapes()
    {
        SkillFolder folder = std::get<SkillFolder>(SkillFolder::open(m_skill));
        QCOMPARE(folder.addFile(QStringLiteral("references/new.md"), "# New\n"), QString());
        QCOMPARE(readBytes(QDir(m_skill).filePath(QStringLiteral("references/new.md"))), QByteArrayLiteral("# New\n"));
        QVERIFY(!folder.addFile(QStringLiteral("references/new.md"), "again").isEmpty());
        QCOMPARE(readBytes(QDir(m_skill).filePath(QStringLiteral("references/new.md"))), QByteArrayLiteral("# New\n"));
        for (const QString &bad : {QStringLiteral("../outside.md"), QStringLiteral("/tmp/abs.md"),
                                   QStringLiteral("references/../../x.md"), QStringLiteral(".versions/x"), QString()})
            QVERIFY2(!folder.addFile(bad, "x").isEmpty(), qPrintable(bad));
        QVERIFY(!QFileInfo::exists(m_root.filePath(QStringLiteral("outside.md"))));
    }

    void renameFile_movesAndCleansEmptyFolders()
    {
        SkillFolder folder = std::get<SkillFolder>(SkillFolder::open(m_skill));
        QCOMPARE(folder.renameFile(QStringLiteral("scripts/check.py"), QStringLiteral("tools/check.py")), QString());
        QVERIFY(QFileInfo::exists(QDir(m_skill).filePath(QStringLiteral("tools/check.py"))));
        QVERIFY(!QFileInfo::exists(QDir(m_skill).filePath(QStringLiteral("scripts"))));
        QVERIFY(!folder.renameFile(QStringLiteral("tools/check.py"), QStringLiteral("references/guide.md")).isEmpty());
        QVERIFY(!folder.renameFile(QStringLiteral("missing.md"), QStringLiteral("other.md")).isEmpty());
        QVERIFY(!folder.renameFile(QStringLiteral("tools/check.py"), QStringLiteral("../check.py")).isEmpty());
    }

    void removeFile_removesButKeepsSkillMd()
    {
        SkillFolder folder = std::get<SkillFolder>(SkillFolder::open(m_skill));
        QCOMPARE(folder.removeFile(QStringLiteral("references/guide.md")), QString());
        QVERIFY(!QFileInfo::exists(QDir(m_skill).filePath(QStringLiteral("references"))));
        QVERIFY(!folder.removeFile(QStringLiteral("SKILL.md")).isEmpty());
        QVERIFY(!folder.removeFile(QStringLiteral("references/guide.md")).isEmpty());
    }

    void skillMeta_missingFile_isEmpty()
    {
        const auto meta = readSkillMeta(m_skill);
        QVERIFY(std::holds_alternative<SkillMeta>(meta));
        QVERIFY(std::get<SkillMeta>(meta).version.isEmpty());
    }

    void skillMeta_roundTrip_keepsUnknownFields()
    {
        QVERIFY(copyTree(fixture(QStringLiteral("upskill-style")), m_root.filePath(QStringLiteral("upskill-style"))));
        const QString dir = m_root.filePath(QStringLiteral("upskill-style"));
        SkillMeta meta = std::get<SkillMeta>(readSkillMeta(dir));
        QCOMPARE(meta.version, QStringLiteral("1.0"));
        QCOMPARE(meta.generatedBy, QStringLiteral("anthropic:claude-opus-4-5"));
        QCOMPARE(meta.testPassRate, std::optional<double>(0.75));
        QCOMPARE(meta.tests.size(), 1);
        meta.testPassRate = 0.9;
        meta.license = QStringLiteral("MIT");
        QCOMPARE(writeSkillMeta(dir, meta), QString());

        const QByteArray written = readBytes(QDir(dir).filePath(QStringLiteral("skill_meta.json")));
        QVERIFY(written.startsWith("{\n  \"metadata\": {\n    \"version\": \"1.0\""));
        const QJsonObject object = QJsonDocument::fromJson(written).object();
        QCOMPARE(object.value(QStringLiteral("extra_top_level")).toInt(), 3);
        const QJsonObject metadata = object.value(QStringLiteral("metadata")).toObject();
        QVERIFY(metadata.value(QStringLiteral("future_field")).toObject().value(QStringLiteral("kept")).toBool());
        QCOMPARE(metadata.value(QStringLiteral("test_pass_rate")).toDouble(), 0.9);
        QCOMPARE(metadata.value(QStringLiteral("license")).toString(), QStringLiteral("MIT"));
        const SkillMeta again = std::get<SkillMeta>(readSkillMeta(dir));
        QCOMPARE(again.tests, meta.tests);
    }

    void skillMeta_brokenJson_reportsLineAndColumn()
    {
        QVERIFY(writeText(m_skill, QStringLiteral("skill_meta.json"), QStringLiteral("{\n  \"metadata\": {,\n}")));
        const auto meta = readSkillMeta(m_skill);
        QVERIFY(std::holds_alternative<LoadError>(meta));
        QCOMPARE(std::get<LoadError>(meta).line, 2);
    }

    void sampleSkillMeta_reads()
    {
        const auto meta = readSkillMeta(
            QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/sample-project/skills/diffusers-cuda-rmsnorm"));
        QVERIFY(std::holds_alternative<SkillMeta>(meta));
        QCOMPARE(std::get<SkillMeta>(meta).license, QStringLiteral("Apache-2.0"));
        QVERIFY(!std::get<SkillMeta>(meta).testPassRate);
    }
};

SF_TEST_GUILESS_MAIN(TestSkillFolder)
#include "test_skill_folder.moc"
