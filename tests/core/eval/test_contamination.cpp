#include "SkippedChecks.h"
#include "eval/Contamination.h"
#include "eval/SuiteHealth.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;

namespace {

const QString kBase = QStringLiteral("You are a capable assistant solving a task.");
const QString kSkillLine = QStringLiteral("Always launch one block per row and reduce with warp shuffles first.");
const QString kWithSkill = kBase + QStringLiteral("\n\n## Skill: rmsnorm\n\n# RMSNorm\n\n") + kSkillLine;

/// Writes one item's transcript into @p dir and returns its result.
ItemResult item(const QString &dir, const QString &arm, const QString &caseId, const QString &system,
                const QString &user)
{
    ItemResult r;
    r.key = {QStringLiteral("generic:m"), arm, caseId, 1};
    r.transcript = QStringLiteral("transcripts/%1-%2.json").arg(arm, caseId);
    const QJsonArray messages{
        QJsonObject{{QStringLiteral("role"), QStringLiteral("system")}, {QStringLiteral("content"), system}},
        QJsonObject{{QStringLiteral("role"), QStringLiteral("user")}, {QStringLiteral("content"), user}},
        QJsonObject{{QStringLiteral("role"), QStringLiteral("assistant")}, {QStringLiteral("content"), u"done"_qs}}};
    QDir(dir).mkpath(QStringLiteral("transcripts"));
    QFile file(QDir(dir).filePath(r.transcript));
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(file.fileName()));
    file.write(QJsonDocument(QJsonObject{{QStringLiteral("messages"), messages}}).toJson());
    return r;
}

} // namespace

/// The contamination report on constructed runs: a clean one, one whose baseline got the skill's text in a context
/// file, and one whose arms' prompts differ beyond the skill.
class TestContamination final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanRun_promptsIdenticalButForTheSkill_andNoLeak()
    {
        QTemporaryDir dir;
        const QList<ItemResult> results{item(dir.path(), kBaselineArm, QStringLiteral("a"), kBase, u"Task A"_qs),
                                        item(dir.path(), kWithSkillArm, QStringLiteral("a"), kWithSkill, u"Task A"_qs)};
        const ContaminationReport report = checkContamination(analyzeResults(dir.path(), RunManifest{}, results));
        QCOMPARE(report.transcriptsRead, 2);
        QVERIFY(report.promptsMatch);
        QCOMPARE(report.arms.size(), 2);
        QCOMPARE(report.arms[0].fixedHash, report.arms[1].fixedHash);
        QVERIFY(report.arms[0].fixedHash.startsWith(QStringLiteral("sha256:")));
        QVERIFY(report.arms[0].skillsSeen.isEmpty());
        QCOMPARE(report.arms[1].skillsSeen, QStringList{QStringLiteral("rmsnorm")});
        QCOMPARE(report.skillLinesChecked, 1);
        QVERIFY(report.leaks.isEmpty());
        QVERIFY(report.summary().contains(QStringLiteral("identical but for the skill")));
        // Said in people's words: no hash (the data reports keep it), no arm id.
        QVERIFY2(!report.summary().contains(QStringLiteral("sha256")), qPrintable(report.summary()));
        QVERIFY2(!report.summary().contains(QStringLiteral("baseline")), qPrintable(report.summary()));
    }

    void skillTextInABaselineContextFile_isReported_withWhereItWas()
    {
        QTemporaryDir dir;
        const QList<ItemResult> results{item(dir.path(), kBaselineArm, QStringLiteral("a"), kBase,
                                             QStringLiteral("Task A\n\nnotes.md:\n```\n%1\n```").arg(kSkillLine)),
                                        item(dir.path(), kWithSkillArm, QStringLiteral("a"), kWithSkill, u"Task A"_qs)};
        const ContaminationReport report = checkContamination(analyzeResults(dir.path(), RunManifest{}, results));
        QCOMPARE(report.leaks.size(), 1);
        QCOMPARE(report.leaks[0].item, QStringLiteral("generic:m|baseline|a|1"));
        QCOMPARE(report.leaks[0].where, QStringLiteral("first message (context files)"));
        QCOMPARE(report.leaks[0].line, kSkillLine);
        QCOMPARE(report.toJson().value(QStringLiteral("skill_text_in_baseline")).toArray().size(), 1);
        // As the suite health lists it: the item by model, arm and repeat in words.
        const QList<SuiteHealthFinding> findings = contaminationFindings(report);
        QCOMPARE(findings.size(), 2);
        QCOMPARE(findings[1].caseId, QStringLiteral("a"));
        QCOMPARE(findings[1].where, QStringLiteral("generic:m · without skill · repeat 1"));
        QVERIFY(findings[1].detail.startsWith(QStringLiteral("first message (context files): \"")));
        QVERIFY(!findings[0].detail.contains(QStringLiteral("baseline")));
    }

    void armsWhosePromptsDifferBeyondTheSkill_areFlagged()
    {
        QTemporaryDir dir;
        const QList<ItemResult> results{item(dir.path(), kBaselineArm, QStringLiteral("a"),
                                             kBase + QStringLiteral(" Think step by step."), u"Task A"_qs),
                                        item(dir.path(), kWithSkillArm, QStringLiteral("a"), kWithSkill, u"Task A"_qs)};
        const ContaminationReport report = checkContamination(analyzeResults(dir.path(), RunManifest{}, results));
        QVERIFY(!report.promptsMatch);
        QVERIFY(report.arms[0].fixedHash != report.arms[1].fixedHash);
        QVERIFY(report.summary().contains(QStringLiteral("differ")));
        QCOMPARE(report.toJson().value(QStringLiteral("prompts_identical_but_for_the_skill")).toBool(), false);
    }

    // 75e02bf: a with-skill arm whose prompts carried no skill section compared the student with itself; the prompts
    // then match, so only this flag says the skill was never delivered.
    void withSkillArmWithoutTheSkillSection_isFlagged()
    {
        QTemporaryDir dir;
        const QList<ItemResult> results{item(dir.path(), kBaselineArm, QStringLiteral("a"), kBase, u"Task A"_qs),
                                        item(dir.path(), kWithSkillArm, QStringLiteral("a"), kBase, u"Task A"_qs)};
        const ContaminationReport report = checkContamination(analyzeResults(dir.path(), RunManifest{}, results));
        QCOMPARE(report.transcriptsRead, 2);
        QCOMPARE(report.arms.size(), 2);
        QVERIFY(report.arms[1].skillsSeen.isEmpty());
        const QString flag =
            QStringLiteral("The with-skill prompts carried no skill section: check that the skill was delivered.");
        QVERIFY2(report.summary().contains(flag), qPrintable(report.summary()));
        QVERIFY(report.summary().contains(QStringLiteral("with the skill, it saw: none.")));
        QVERIFY(report.toJson().value(QStringLiteral("summary")).toString().contains(flag));
        const QJsonArray arms = report.toJson().value(QStringLiteral("arms")).toArray();
        QVERIFY(arms[1][QStringLiteral("skills_seen")].toArray().isEmpty());

        // A run that delivered the skill is not flagged.
        QTemporaryDir clean;
        const QList<ItemResult> delivered{
            item(clean.path(), kBaselineArm, QStringLiteral("a"), kBase, u"Task A"_qs),
            item(clean.path(), kWithSkillArm, QStringLiteral("a"), kWithSkill, u"Task A"_qs)};
        const QString cleanSummary =
            checkContamination(analyzeResults(clean.path(), RunManifest{}, delivered)).summary();
        QVERIFY2(!cleanSummary.contains(QStringLiteral("carried no skill section")), qPrintable(cleanSummary));
    }
};

SF_TEST_GUILESS_MAIN(TestContamination)
#include "test_contamination.moc"
