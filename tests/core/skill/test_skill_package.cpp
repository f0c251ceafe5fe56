#include "SkillTestUtil.h"
#include "SkippedChecks.h"
#include "skill/SkillPackage.h"

#include <QTemporaryDir>
#include <QTest>
#include <zip.h>

using namespace sf;
using namespace sf::test;

namespace {

struct ZipEntry
{
    QString name;
    QByteArray content;
    quint32 mode = 0;
};

// Reads the archive back with libzip, independently of the code that wrote it.
QList<ZipEntry> readZip(const QString &path)
{
    QList<ZipEntry> entries;
    int error = 0;
    zip_t *archive = zip_open(QFile::encodeName(path).constData(), ZIP_RDONLY, &error);
    if (!archive)
        return entries;
    for (zip_int64_t i = 0; i < zip_get_num_entries(archive, 0); ++i) {
        ZipEntry entry;
        entry.name = QString::fromUtf8(zip_get_name(archive, zip_uint64_t(i), 0));
        zip_stat_t stat;
        zip_stat_index(archive, zip_uint64_t(i), 0, &stat);
        if (zip_file_t *file = zip_fopen_index(archive, zip_uint64_t(i), 0)) {
            entry.content.resize(qsizetype(stat.size));
            zip_fread(file, entry.content.data(), stat.size);
            zip_fclose(file);
        }
        zip_uint8_t system = 0;
        zip_uint32_t attributes = 0;
        zip_file_get_external_attributes(archive, zip_uint64_t(i), 0, &system, &attributes);
        entry.mode = attributes >> 16;
        entries.append(entry);
    }
    zip_close(archive);
    return entries;
}

QStringList names(const QList<ZipEntry> &entries)
{
    QStringList result;
    for (const ZipEntry &entry : entries)
        result.append(entry.name);
    result.sort();
    return result;
}

} // namespace

class TestSkillPackage : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_root;
    QString m_skill;

private Q_SLOTS:
    void init()
    {
        m_skill = m_root.filePath(QStringLiteral("src/valid-basic"));
        QDir(m_root.filePath(QStringLiteral("src"))).removeRecursively();
        QVERIFY(copyTree(fixture(QStringLiteral("valid-basic")), m_skill));
        // Everything skill-creator leaves out, plus Skillforge's versions.
        for (const QString &junk : {QStringLiteral("scripts/__pycache__/check.cpython-311.pyc"),
                                    QStringLiteral("scripts/old.pyc"), QStringLiteral(".DS_Store"),
                                    QStringLiteral("references/.DS_Store"), QStringLiteral("node_modules/x/index.js"),
                                    QStringLiteral("evals/evals.json"), QStringLiteral(".versions/1/files/SKILL.md")})
            QVERIFY(writeText(m_skill, junk, QStringLiteral("junk")));
        QVERIFY(writeText(m_skill, QStringLiteral("assets/evals/kept.txt"), QStringLiteral("a nested evals/ is kept")));
        QFile::setPermissions(QDir(m_skill).filePath(QStringLiteral("scripts/check.py")),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup |
                                  QFile::ExeGroup);
    }

    void isExcludedFromPackage_followsSkillCreator()
    {
        QVERIFY(isExcludedFromPackage(QStringLiteral("a/__pycache__/b.py")));
        QVERIFY(isExcludedFromPackage(QStringLiteral("x.pyc")));
        QVERIFY(isExcludedFromPackage(QStringLiteral("deep/.DS_Store")));
        QVERIFY(isExcludedFromPackage(QStringLiteral("evals/evals.json")));
        QVERIFY(isExcludedFromPackage(QStringLiteral(".versions/a/version.json")));
        QVERIFY(!isExcludedFromPackage(QStringLiteral("assets/evals/x.json")));
        QVERIFY(!isExcludedFromPackage(QStringLiteral("evals.md")));
        QVERIFY(!isExcludedFromPackage(QStringLiteral("SKILL.md")));
    }

    void pack_zipsUnderTopLevelFolder_withoutExcludedFiles()
    {
        const QString output = m_root.filePath(QStringLiteral("out/valid-basic.skill"));
        const PackResult result = packSkill(m_skill, output);
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        QCOMPARE(result.archivePath, output);
        const QList<ZipEntry> entries = readZip(output);
        const QStringList expected{
            QStringLiteral("valid-basic/SKILL.md"), QStringLiteral("valid-basic/assets/evals/kept.txt"),
            QStringLiteral("valid-basic/references/guide.md"), QStringLiteral("valid-basic/scripts/check.py")};
        QCOMPARE(names(entries), expected);
        QCOMPARE(result.entries, expected);
        for (const ZipEntry &entry : entries) {
            if (entry.name.endsWith(QStringLiteral("SKILL.md")))
                QCOMPARE(entry.content, readBytes(QDir(m_skill).filePath(QStringLiteral("SKILL.md"))));
            if (entry.name.endsWith(QStringLiteral("check.py")))
                QVERIFY2(entry.mode & 0100, qPrintable(QString::number(entry.mode, 8))); // scripts stay executable
        }
        QVERIFY(QDir(m_root.filePath(QStringLiteral("out"))).entryList(QDir::Files | QDir::Hidden).size() == 1);
    }

    void pack_defaultOutput_isBesideTheFolder()
    {
        const PackResult result = packSkill(m_skill);
        QVERIFY2(result.error.isEmpty(), qPrintable(result.error));
        QCOMPARE(result.archivePath, m_root.filePath(QStringLiteral("src/valid-basic.skill")));
        QVERIFY(QFileInfo::exists(result.archivePath));
    }

    void pack_invalidSkill_isRefusedWithTheProblems()
    {
        const QString output = m_root.filePath(QStringLiteral("bad.skill"));
        const PackResult result = packSkill(fixture(QStringLiteral("bad-name")), output);
        QVERIFY(!result.error.isEmpty());
        QVERIFY(hasErrors(result.problems));
        QVERIFY(result.archivePath.isEmpty());
        QVERIFY(!QFileInfo::exists(output));
    }

    void install_copiesWithoutExcludedFiles()
    {
        const QString skills = m_root.filePath(QStringLiteral("project/.claude/skills"));
        QString installed;
        QCOMPARE(installSkill(m_skill, skills, false, &installed), QString());
        QCOMPARE(installed, QDir(skills).filePath(QStringLiteral("valid-basic")));
        QCOMPARE(readBytes(QDir(installed).filePath(QStringLiteral("SKILL.md"))),
                 readBytes(QDir(m_skill).filePath(QStringLiteral("SKILL.md"))));
        QVERIFY(QFileInfo(QDir(installed).filePath(QStringLiteral("scripts/check.py"))).isExecutable());
        QVERIFY(!QFileInfo::exists(QDir(installed).filePath(QStringLiteral(".versions"))));
        QVERIFY(!QFileInfo::exists(QDir(installed).filePath(QStringLiteral("evals"))));
        QVERIFY(!QFileInfo::exists(QDir(installed).filePath(QStringLiteral("scripts/__pycache__"))));
        QCOMPARE(QDir(skills).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList{QStringLiteral("valid-basic")});
    }

    void install_existingFolder_refusedUnlessOverwrite()
    {
        const QString skills = m_root.filePath(QStringLiteral("agents/skills"));
        QVERIFY(writeText(skills, QStringLiteral("valid-basic/SKILL.md"), QStringLiteral("someone else's")));
        const QString refused = installSkill(m_skill, skills);
        QVERIFY(refused.contains(QStringLiteral("already exists")));
        QCOMPARE(readBytes(QDir(skills).filePath(QStringLiteral("valid-basic/SKILL.md"))),
                 QByteArrayLiteral("someone else's"));

        QCOMPARE(installSkill(m_skill, skills, true), QString());
        QCOMPARE(readBytes(QDir(skills).filePath(QStringLiteral("valid-basic/SKILL.md"))),
                 readBytes(QDir(m_skill).filePath(QStringLiteral("SKILL.md"))));
        QCOMPARE(QDir(skills).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList{QStringLiteral("valid-basic")});
    }

    void install_intoItself_isRefused()
    {
        QVERIFY(!installSkill(m_skill, QDir(m_skill).filePath(QStringLiteral("nested"))).isEmpty());
        QVERIFY(!installSkill(m_skill, m_root.filePath(QStringLiteral("src")), true).isEmpty());
        QVERIFY(QFileInfo::exists(QDir(m_skill).filePath(QStringLiteral("SKILL.md"))));
    }

    void skillsDir_knownLocations()
    {
        QCOMPARE(skillsDir(SkillsLocation::UserClaude), QDir::home().filePath(QStringLiteral(".claude/skills")));
        QCOMPARE(skillsDir(SkillsLocation::ProjectClaude, QStringLiteral("/p")), QStringLiteral("/p/.claude/skills"));
        QCOMPARE(skillsDir(SkillsLocation::ProjectAgents, QStringLiteral("/p")), QStringLiteral("/p/.agents/skills"));
    }
};

SF_TEST_GUILESS_MAIN(TestSkillPackage)
#include "test_skill_package.moc"
