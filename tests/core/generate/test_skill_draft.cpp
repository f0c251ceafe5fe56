// Reading a teacher's reply into skill files, whatever shape the reply takes.
#include "generate/SkillDraft.h"

#include <QTest>

using namespace sf;
using namespace Qt::StringLiterals;

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
};

QTEST_GUILESS_MAIN(TestSkillDraft)
#include "test_skill_draft.moc"
