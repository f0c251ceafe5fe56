// Reading a teacher's reply into skill files, whatever shape the reply takes.
#include "generate/SkillDraft.h"
#include "generate/StructuredReply.h"
#include "skill/SkillValidator.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

namespace {

// A teacher's reply in the JSON reply format (generate --reply-format json).
QString jsonReply(const QString &name, const QString &description, const QString &body)
{
    return QString::fromUtf8(
        QJsonDocument(QJsonObject{{u"name"_s, name}, {u"description"_s, description}, {u"body"_s, body}}).toJson());
}

} // namespace

class TestSkillDraft final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parse_fileLines_giveEachFile()
    {
        const auto draft = SkillDraft::parse(u"=== FILE: SKILL.md ===\n---\nname: a\n---\nBody\n\n"
                                             "=== FILE: references/notes.md ===\nNotes\n"_s);
        QVERIFY(draft.problems.isEmpty());
        QCOMPARE(draft.files.keys(), QStringList({u"SKILL.md"_s, u"references/notes.md"_s}));
        QCOMPARE(draft.files.value(u"SKILL.md"_s), QByteArray("---\nname: a\n---\nBody\n"));
        QCOMPARE(draft.files.value(u"references/notes.md"_s), QByteArray("Notes\n"));
    }

    void parse_bareSkillMd_isAccepted()
    {
        const auto draft = SkillDraft::parse(u"---\nname: a\ndescription: d\n---\n# A\n"_s);
        QVERIFY(draft.isUsable());
        QCOMPARE(draft.files.size(), 1);
    }

    void parse_wholeFileInAFence_isUnwrapped()
    {
        const auto draft = SkillDraft::parse(u"=== FILE: SKILL.md ===\n```markdown\n---\nname: a\n---\nB\n```\n"_s);
        QCOMPARE(draft.files.value(u"SKILL.md"_s), QByteArray("---\nname: a\n---\nB\n"));
    }

    void parse_pathsLeavingTheSkill_areRefused()
    {
        const auto draft = SkillDraft::parse(u"=== FILE: SKILL.md ===\nx\n=== FILE: ../evil.sh ===\nrm\n"
                                             "=== FILE: /etc/passwd ===\nroot\n=== FILE: notes.txt ===\nn\n"_s);
        QCOMPARE(draft.files.keys(), QStringList({u"SKILL.md"_s}));
        QCOMPARE(draft.problems.size(), 3);
        QVERIFY(draft.problems.at(0).contains(u"../evil.sh"_s));
    }

    void parse_proseOnly_isNotUsableAndSaysWhy()
    {
        const auto draft = SkillDraft::parse(u"Sure! Here is how you could write it..."_s);
        QVERIFY(!draft.isUsable());
        QVERIFY(draft.problems.first().contains(u"FILE"_s));
    }

    void parse_noSkillMd_isNotUsable()
    {
        const auto draft = SkillDraft::parse(u"=== FILE: references/a.md ===\nA\n"_s);
        QVERIFY(!draft.isUsable());
        QVERIFY(draft.problems.contains(u"the reply has no SKILL.md"_s));
    }

    void format_thenParse_roundTrips()
    {
        const QMap<QString, QByteArray> files{{u"SKILL.md"_s, "---\nname: a\n---\nB\n"},
                                              {u"scripts/run.py"_s, "print(1)\n"}};
        const QString text = SkillDraft::format(files);
        QVERIFY(text.startsWith(u"=== FILE: SKILL.md ==="_s));
        QCOMPARE(SkillDraft::parse(text).files, files);
    }

    // Issue 33: `generate --reply-format json` wrote name: "write-changelog-entry"; upskill keeps the quotes and its
    // eval stops. Front matter is written plain where YAML reads it back unchanged, quoted only where it must be.
    void jsonReply_frontMatterWithoutNeedlessQuotes_loadsInUpskill()
    {
        const SkillDraft draft = skillDraftFromJson(
            jsonReply(u"write-changelog-entry"_s, u"Writes a changelog entry. Use when a change is ready to ship."_s,
                      u"```markdown\n# Changelog entries\n\nWrite one line per change.\n```"_s));
        QVERIFY2(draft.isUsable(), qPrintable(draft.problems.join(u"; "_s)));
        const QByteArray skill = draft.files.value(u"SKILL.md"_s);
        QCOMPARE(skill,
                 QByteArray("---\nname: write-changelog-entry\ndescription: Writes a changelog entry. Use when a "
                            "change is ready to ship.\n---\n\n# Changelog entries\n\nWrite one line per "
                            "change.\n"));

        QTemporaryDir root;
        QVERIFY(QDir(root.path()).mkdir(u"write-changelog-entry"_s));
        QFile file(root.filePath(u"write-changelog-entry/SKILL.md"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(skill);
        file.close();
        const QList<SkillProblem> problems =
            validateSkill(root.filePath(u"write-changelog-entry"_s), ValidationProfile::Upskill);
        QVERIFY(!hasErrors(problems));
    }

    void jsonReply_valuesYamlWouldMisread_areQuoted_onOneLine()
    {
        const SkillDraft draft = skillDraftFromJson(
            jsonReply(u"yes"_s, u"Formats dates: ISO 8601.\nUse when dates appear."_s, u"# Dates"_s));
        QVERIFY(draft.isUsable());
        QCOMPARE(draft.files.value(u"SKILL.md"_s),
                 QByteArray("---\nname: \"yes\"\ndescription: \"Formats dates: ISO 8601. Use when dates appear.\"\n---"
                            "\n\n# Dates\n"));
    }
};

QTEST_GUILESS_MAIN(TestSkillDraft)
#include "test_skill_draft.moc"
