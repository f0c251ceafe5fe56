#include "SkippedChecks.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Result
{
    int exitCode = -1;
    QString out;
    QString err;
};

QString fixture(const QString &name)
{
    return QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/skills/") + name;
}
const QString kSample = QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/sample-project/skills/diffusers-cuda-rmsnorm");

// FILE:LINE:COL: error|warning: text, the format editors and CI annotators parse.
const QRegularExpression kProblemLine(QStringLiteral("^(.+):(\\d+):(\\d+): (error|warning): (.+)$"));

} // namespace

/// The skill commands as a user runs them: the real executable on fixture folders, no network.
class TestCliSkill : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home;

    Result run(const QStringList &arguments, const QString &workingDirectory = {})
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath(QStringLiteral("config")));
        process.setProcessEnvironment(env);
        if (!workingDirectory.isEmpty())
            process.setWorkingDirectory(workingDirectory);
        process.start(QStringLiteral(SKILLFORGE_EXECUTABLE), arguments);
        if (!process.waitForFinished(60000))
            process.kill();
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }

private Q_SLOTS:
    void help_eachSkillCommandHasItsOwnUsage()
    {
        const Result all = run({QStringLiteral("--help")});
        for (const QString &words : {QStringLiteral("validate"), QStringLiteral("skill pack"),
                                     QStringLiteral("skill install"), QStringLiteral("skill list")}) {
            QVERIFY2(all.out.contains(QStringLiteral("  ") + words + u' '), qPrintable(words));
            const Result own = run(words.split(u' ') + QStringList{QStringLiteral("--help")});
            QCOMPARE(own.exitCode, 0);
            QVERIFY2(own.out.startsWith(QStringLiteral("Usage: skillforge ") + words), qPrintable(own.out));
        }
    }

    // Issue 33: like `upskill list`, every skill with its description and tokens per file, and beyond it the tests it
    // carries and what its last evaluation decided.
    void list_sampleProject_showsEachSkillItsTokensTestsAndLastVerdict()
    {
        const QString project = QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/sample-project");
        Result r = run({QStringLiteral("skill"), QStringLiteral("list"), project});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.startsWith(QStringLiteral("1 skill in ")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("\ndiffusers-cuda-rmsnorm\n")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QRegularExpression(QStringLiteral("~[0-9,]+ tokens in all: SKILL.md ~[0-9,]+"))),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("last evaluation: 2026-12-02 06:23 (20261202T062336Z-73cfd3")),
                 qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("local:qwen2.5-coder-1.5b: ")), qPrintable(r.out));

        r = run({QStringLiteral("skill"), QStringLiteral("list"), project, QStringLiteral("--json")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QJsonArray skills =
            QJsonDocument::fromJson(r.out.toUtf8()).object().value(QStringLiteral("skills")).toArray();
        QCOMPARE(skills.size(), 1);
        const QJsonObject skill = skills.first().toObject();
        QCOMPARE(skill.value(QStringLiteral("name")).toString(), QStringLiteral("diffusers-cuda-rmsnorm"));
        QVERIFY(skill.value(QStringLiteral("tokens")).toInt() > 0);
        QCOMPARE(
            skill.value(QStringLiteral("files")).toArray().first().toObject().value(QStringLiteral("path")).toString(),
            QStringLiteral("SKILL.md"));
        const QJsonArray verdicts =
            skill.value(QStringLiteral("last_evaluation")).toObject().value(QStringLiteral("verdicts")).toArray();
        QCOMPARE(verdicts.size(), 1);
        QVERIFY(!verdicts.first().toObject().value(QStringLiteral("verdict")).toString().isEmpty());

        // A folder of skills without runs: none evaluated; an empty folder says so.
        r = run({QStringLiteral("skill"), QStringLiteral("list"),
                 QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/skills")});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("\nvalid-basic\n")) &&
                     r.out.contains(QStringLiteral("last evaluation: none")),
                 qPrintable(r.out));
        r = run({QStringLiteral("skill"), QStringLiteral("list"), m_home.path()});
        QVERIFY2(r.out.startsWith(QStringLiteral("No skills in ")), qPrintable(r.out));
        r = run({QStringLiteral("skill"), QStringLiteral("list"), m_home.filePath(QStringLiteral("nowhere"))});
        QCOMPARE(r.exitCode, 2);
    }

    void validate_sampleSkill_isCleanUnderAgentSkills()
    {
        const Result r = run({QStringLiteral("validate"), kSample});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        QCOMPARE(r.out, QString());
        QVERIFY(r.err.contains(QStringLiteral("valid")));
    }

    void validate_invalidFixture_exitsOneWithFileLineColumn()
    {
        const Result r = run({QStringLiteral("validate"), fixture(QStringLiteral("bad-name"))});
        QCOMPARE(r.exitCode, 1);
        const QStringList lines = r.out.trimmed().split(u'\n');
        QCOMPARE(lines.size(), 2);
        for (const QString &line : lines)
            QVERIFY2(kProblemLine.match(line).hasMatch(), qPrintable(line));
        const QRegularExpressionMatch first = kProblemLine.match(lines.first());
        QCOMPARE(first.captured(1), fixture(QStringLiteral("bad-name/SKILL.md")));
        QCOMPARE(first.captured(2), QStringLiteral("2"));
        QCOMPARE(first.captured(3), QStringLiteral("1"));
        QCOMPARE(first.captured(4), QStringLiteral("error"));
    }

    void validate_brokenLinksOnly_warnsWithFileLineColumn_andExitsZero()
    {
        const Result r = run({QStringLiteral("validate"), fixture(QStringLiteral("broken-link"))});
        QVERIFY2(r.exitCode == 0, qPrintable(r.out + r.err));
        const QStringList lines = r.out.trimmed().split(u'\n');
        QCOMPARE(lines.size(), 2);
        const QRegularExpressionMatch first = kProblemLine.match(lines.first());
        QVERIFY2(first.hasMatch(), qPrintable(lines.first()));
        QCOMPARE(first.captured(1), fixture(QStringLiteral("broken-link/SKILL.md")));
        QCOMPARE(first.captured(2), QStringLiteral("6"));
        QCOMPARE(first.captured(3), QStringLiteral("25"));
        QCOMPARE(first.captured(4), QStringLiteral("warning"));
    }

    void validate_relativePath_printsPathsRelativeToTheCurrentFolder()
    {
        const Result r = run({QStringLiteral("validate"), QStringLiteral("bad-name")}, fixture(QString()));
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.startsWith(QStringLiteral("bad-name/SKILL.md:2:1: error: ")), qPrintable(r.out));
    }

    void validate_warningsOnly_exitsZero()
    {
        const Result r = run({QStringLiteral("validate"), fixture(QStringLiteral("no-trigger"))});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(kProblemLine.match(r.out.trimmed()).captured(4) == u"warning", qPrintable(r.out));
    }

    void validate_profileChangesTheVerdict()
    {
        QCOMPARE(run({QStringLiteral("validate"), fixture(QStringLiteral("unknown-keys"))}).exitCode, 1);
        QCOMPARE(run({QStringLiteral("validate"), fixture(QStringLiteral("unknown-keys")), QStringLiteral("--profile"),
                      QStringLiteral("claude-code")})
                     .exitCode,
                 0);
        QCOMPARE(run({QStringLiteral("validate"), fixture(QStringLiteral("claude-helper")), QStringLiteral("--profile"),
                      QStringLiteral("claude-ai")})
                     .exitCode,
                 1);
    }

    void validate_notASkillOrBadUsage_exitsTwo()
    {
        const Result notSkill = run({QStringLiteral("validate"), fixture(QStringLiteral("not-a-skill"))});
        QCOMPARE(notSkill.exitCode, 2);
        QVERIFY(notSkill.err.contains(QStringLiteral("SKILL.md")));
        QCOMPARE(run({QStringLiteral("validate"), fixture(QStringLiteral("does-not-exist"))}).exitCode, 2);
        QCOMPARE(run({QStringLiteral("validate")}).exitCode, 2);
        const Result badProfile =
            run({QStringLiteral("validate"), kSample, QStringLiteral("--profile"), QStringLiteral("strict")});
        QCOMPARE(badProfile.exitCode, 2);
        QVERIFY(badProfile.err.contains(QStringLiteral("claude-code")));
    }

    void validate_json_listsProblemsAndTokens()
    {
        const Result r =
            run({QStringLiteral("validate"), fixture(QStringLiteral("bad-name")), QStringLiteral("--json")});
        QCOMPARE(r.exitCode, 1);
        const QJsonObject report = QJsonDocument::fromJson(r.out.toUtf8()).object();
        QCOMPARE(report.value(QStringLiteral("valid")).toBool(true), false);
        QCOMPARE(report.value(QStringLiteral("profile")).toString(), QStringLiteral("agentskills"));
        const QJsonObject problem = report.value(QStringLiteral("problems")).toArray().first().toObject();
        QCOMPARE(problem.value(QStringLiteral("line")).toInt(), 2);
        QCOMPARE(problem.value(QStringLiteral("severity")).toString(), QStringLiteral("error"));
        QVERIFY(report.value(QStringLiteral("total_tokens")).toInt() > 0);
    }

    void pack_writesArchiveAndRefusesInvalidSkill()
    {
        QTemporaryDir out;
        const QString archive = out.filePath(QStringLiteral("rmsnorm.skill"));
        const Result packed =
            run({QStringLiteral("skill"), QStringLiteral("pack"), kSample, QStringLiteral("-o"), archive});
        QVERIFY2(packed.exitCode == 0, qPrintable(packed.err));
        QVERIFY(QFile(archive).size() > 1000);
        QVERIFY(packed.out.contains(archive));

        const Result defaultName = run({QStringLiteral("skill"), QStringLiteral("pack"), kSample}, out.path());
        QVERIFY2(defaultName.exitCode == 0, qPrintable(defaultName.err));
        QVERIFY(QFile::exists(out.filePath(QStringLiteral("diffusers-cuda-rmsnorm.skill"))));

        const Result refused =
            run({QStringLiteral("skill"), QStringLiteral("pack"), fixture(QStringLiteral("bad-name")),
                 QStringLiteral("-o"), out.filePath(QStringLiteral("bad.skill"))});
        QCOMPARE(refused.exitCode, 1);
        QVERIFY(kProblemLine.match(refused.err.split(u'\n').first()).hasMatch());
        QVERIFY(!QFile::exists(out.filePath(QStringLiteral("bad.skill"))));
        QCOMPARE(
            run({QStringLiteral("skill"), QStringLiteral("pack"), fixture(QStringLiteral("not-a-skill"))}).exitCode, 2);
    }

    void install_copiesAndRefusesOverwriteWithoutForce()
    {
        QTemporaryDir target;
        const QString skills = target.filePath(QStringLiteral(".claude/skills"));
        const Result first =
            run({QStringLiteral("skill"), QStringLiteral("install"), kSample, QStringLiteral("--to"), skills});
        QVERIFY2(first.exitCode == 0, qPrintable(first.err));
        QVERIFY(QFile::exists(skills + QStringLiteral("/diffusers-cuda-rmsnorm/SKILL.md")));

        const Result again =
            run({QStringLiteral("skill"), QStringLiteral("install"), kSample, QStringLiteral("--to"), skills});
        QCOMPARE(again.exitCode, 1);
        QVERIFY(again.err.contains(QStringLiteral("--force")));
        const Result forced = run({QStringLiteral("skill"), QStringLiteral("install"), kSample, QStringLiteral("--to"),
                                   skills, QStringLiteral("--force")});
        QCOMPARE(forced.exitCode, 0);
        QCOMPARE(run({QStringLiteral("skill"), QStringLiteral("install"), kSample}).exitCode, 2);
    }
};

SF_TEST_GUILESS_MAIN(TestCliSkill)
#include "test_cli_skill.moc"
