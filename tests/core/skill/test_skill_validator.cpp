#include "SkillTestUtil.h"
#include "SkippedChecks.h"
#include "skill/SkillValidator.h"

#include <QTemporaryDir>
#include <QTest>

using namespace sf;
using namespace sf::test;
using Severity = SkillProblem::Severity;

namespace {

QStringList codes(const QList<SkillProblem> &problems)
{
    QStringList result;
    for (const SkillProblem &problem : problems)
        result.append(problem.code);
    return result;
}

const SkillProblem *find(const QList<SkillProblem> &problems, const QString &code)
{
    for (const SkillProblem &problem : problems) {
        if (problem.code == code)
            return &problem;
    }
    return nullptr;
}

QString describe(const QList<SkillProblem> &problems)
{
    QStringList lines;
    for (const SkillProblem &problem : problems)
        lines.append(problem.code + QStringLiteral(" ") + problem.toString());
    return lines.join(u'\n');
}

// A skill folder named @p name in @p root with the given front matter lines and body.
QString makeSkill(const QTemporaryDir &root, const QString &name, const QString &frontMatter,
                  const QString &body = QStringLiteral("\nBody.\n"))
{
    const QString dir = root.filePath(name);
    sf::test::writeText(dir, QStringLiteral("SKILL.md"),
                        QStringLiteral("---\n") + frontMatter + QStringLiteral("---\n") + body);
    return dir;
}

const QString kDescription = QStringLiteral("description: Formats CSV files. Use when asked to clean CSV.\n");

} // namespace

class TestSkillValidator : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void profileNames_roundTrip()
    {
        for (ValidationProfile profile : allProfiles())
            QCOMPARE(profileFromName(profileName(profile)), profile);
        QCOMPARE(profileName(ValidationProfile::ClaudeAi), QStringLiteral("claude-ai"));
        QVERIFY(!profileFromName(QStringLiteral("strict")));
    }

    void toString_formatsFileLineColumnSeverity()
    {
        const SkillProblem problem{Severity::Error,     QStringLiteral("SKILL.md"), 3, 7,
                                   QStringLiteral("x"), QStringLiteral("text")};
        QCOMPARE(problem.toString(), QStringLiteral("SKILL.md:3:7: error: text"));
        const SkillProblem unplaced{Severity::Warning,   QStringLiteral("SKILL.md"), 0, 0,
                                    QStringLiteral("x"), QStringLiteral("t")};
        QCOMPARE(unplaced.toString(), QStringLiteral("SKILL.md: warning: t"));
    }

    void validBasic_isCleanUnderEveryProfile()
    {
        for (ValidationProfile profile : allProfiles()) {
            const auto problems = validateSkill(fixture(QStringLiteral("valid-basic")), profile);
            QVERIFY2(problems.isEmpty(), qPrintable(profileName(profile) + u'\n' + describe(problems)));
        }
    }

    void sampleSkill_isCleanUnderAgentSkills()
    {
        const QString sample =
            QStringLiteral(SKILLFORGE_SOURCE_DIR "/resources/sample-project/skills/diffusers-cuda-rmsnorm");
        const auto problems = validateSkill(sample, ValidationProfile::AgentSkills);
        QVERIFY2(problems.isEmpty(), qPrintable(describe(problems)));
    }

    void multilineYaml_isValidUnderAgentSkills()
    {
        const auto problems = validateSkill(fixture(QStringLiteral("multiline-yaml")), ValidationProfile::AgentSkills);
        QVERIFY2(!hasErrors(problems), qPrintable(describe(problems)));
    }

    void unknownKeys_errorsForSpecProfiles_warningForClaudeCode()
    {
        const auto strict = validateSkill(fixture(QStringLiteral("unknown-keys")), ValidationProfile::AgentSkills);
        QCOMPARE(codes(strict).count(QStringLiteral("unexpected-key")), 2);
        const SkillProblem *first = find(strict, QStringLiteral("unexpected-key"));
        QCOMPARE(first->line, 4);
        QCOMPARE(first->column, 1);
        QVERIFY(first->message.contains(QStringLiteral("claude-code profile")));
        QCOMPARE(codes(validateSkill(fixture(QStringLiteral("unknown-keys")), ValidationProfile::ClaudeAi))
                     .count(QStringLiteral("unexpected-key")),
                 2);

        const auto claudeCode = validateSkill(fixture(QStringLiteral("unknown-keys")), ValidationProfile::ClaudeCode);
        QVERIFY2(!hasErrors(claudeCode), qPrintable(describe(claudeCode)));
        QCOMPARE(codes(claudeCode), QStringList{QStringLiteral("unknown-key")});
        QCOMPARE(claudeCode.first().line, 5);
    }

    void name_rules_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("code");
        QTest::newRow("capitals") << QStringLiteral("abc") << QStringLiteral("Abc")
                                  << QStringLiteral("name-invalid-characters");
        QTest::newRow("underscore") << QStringLiteral("a_b") << QStringLiteral("a_b")
                                    << QStringLiteral("name-invalid-characters");
        QTest::newRow("leading-hyphen") << QStringLiteral("-ab") << QStringLiteral("\"-ab\"")
                                        << QStringLiteral("name-hyphen-edge");
        QTest::newRow("trailing-hyphen") << QStringLiteral("ab-") << QStringLiteral("ab-")
                                         << QStringLiteral("name-hyphen-edge");
        QTest::newRow("double-hyphen") << QStringLiteral("a--b") << QStringLiteral("a--b")
                                       << QStringLiteral("name-double-hyphen");
        QTest::newRow("too-long") << QString(65, u'a') << QString(65, u'a') << QStringLiteral("name-too-long");
        QTest::newRow("mismatch") << QStringLiteral("folder") << QStringLiteral("other")
                                  << QStringLiteral("name-mismatch");
        QTest::newRow("empty") << QStringLiteral("x") << QStringLiteral("\"\"") << QStringLiteral("name-empty");
        QTest::newRow("list") << QStringLiteral("x") << QStringLiteral("[a]") << QStringLiteral("name-not-string");
    }
    void name_rules()
    {
        QFETCH(QString, folder);
        QFETCH(QString, name);
        QFETCH(QString, code);
        QTemporaryDir root;
        const QString dir = makeSkill(root, folder, QStringLiteral("name: ") + name + u'\n' + kDescription);
        for (ValidationProfile profile :
             {ValidationProfile::AgentSkills, ValidationProfile::ClaudeCode, ValidationProfile::ClaudeAi}) {
            const auto problems = validateSkill(dir, profile);
            const SkillProblem *problem = find(problems, code);
            QVERIFY2(problem, qPrintable(profileName(profile) + u'\n' + describe(problems)));
            QVERIFY(problem->isError());
            QCOMPARE(problem->line, 2);
            QCOMPARE(problem->column, 1);
        }
    }

    void name_64Characters_isAccepted()
    {
        QTemporaryDir root;
        const QString name(64, u'a');
        const auto problems =
            validateSkill(makeSkill(root, name, QStringLiteral("name: ") + name + u'\n' + kDescription),
                          ValidationProfile::AgentSkills);
        QVERIFY2(problems.isEmpty(), qPrintable(describe(problems)));
    }

    void fixtures_reportTheirRule_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<int>("profile");
        QTest::addColumn<QString>("code");
        QTest::addColumn<bool>("error");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        const int agent = int(ValidationProfile::AgentSkills);
        QTest::newRow("bad-name") << QStringLiteral("bad-name") << agent << QStringLiteral("name-invalid-characters")
                                  << true << 2 << 1;
        QTest::newRow("bad-name-mismatch")
            << QStringLiteral("bad-name") << agent << QStringLiteral("name-mismatch") << true << 2 << 1;
        QTest::newRow("name-mismatch") << QStringLiteral("name-mismatch") << agent << QStringLiteral("name-mismatch")
                                       << true << 2 << 1;
        QTest::newRow("double-hyphen") << QStringLiteral("bad--hyphen") << agent << QStringLiteral("name-double-hyphen")
                                       << true << 2 << 1;
        QTest::newRow("missing-description") << QStringLiteral("missing-description") << agent
                                             << QStringLiteral("description-missing") << true << 1 << 1;
        QTest::newRow("empty-body") << QStringLiteral("empty-body") << agent << QStringLiteral("empty-body") << true
                                    << 4 << 1;
        // A missing file breaks no loading and the spec does not forbid it (issue 34): a warning.
        QTest::newRow("broken-link") << QStringLiteral("broken-link") << agent << QStringLiteral("broken-link") << false
                                     << 6 << 25;
        QTest::newRow("nested-reference")
            << QStringLiteral("nested-reference") << agent << QStringLiteral("nested-reference") << false << 3 << 25;
        QTest::newRow("no-frontmatter") << QStringLiteral("no-frontmatter") << agent
                                        << QStringLiteral("frontmatter-missing") << true << 1 << 1;
        QTest::newRow("yaml-error") << QStringLiteral("yaml-error") << agent << QStringLiteral("yaml-syntax") << true
                                    << -1 << -1;
        QTest::newRow("lowercase-file") << QStringLiteral("lowercase-file") << agent
                                        << QStringLiteral("skill-md-lowercase") << false << 0 << 0;
        QTest::newRow("not-a-skill") << QStringLiteral("not-a-skill") << agent << QStringLiteral("skill-md-missing")
                                     << true << 0 << 0;
        QTest::newRow("no-trigger") << QStringLiteral("no-trigger") << agent << QStringLiteral("description-no-trigger")
                                    << false << 3 << 1;
        QTest::newRow("bad-metadata") << QStringLiteral("bad-metadata") << agent
                                      << QStringLiteral("metadata-not-string") << true << 6 << 1;
        const int ai = int(ValidationProfile::ClaudeAi);
        QTest::newRow("reserved-word") << QStringLiteral("claude-helper") << ai << QStringLiteral("name-reserved-word")
                                       << true << 2 << 1;
        QTest::newRow("xml-tag") << QStringLiteral("claude-helper") << ai << QStringLiteral("description-xml-tag")
                                 << true << 3 << 1;
        QTest::newRow("third-person") << QStringLiteral("claude-helper") << ai
                                      << QStringLiteral("description-not-third-person") << false << 3 << 1;
        QTest::newRow("angle-brackets") << QStringLiteral("claude-helper") << agent
                                        << QStringLiteral("description-angle-brackets") << false << 3 << 1;
        const int upskill = int(ValidationProfile::Upskill);
        QTest::newRow("upskill-license") << QStringLiteral("upskill-style") << upskill
                                         << QStringLiteral("upskill-key-in-meta") << false << 7 << 1;
        QTest::newRow("upskill-unknown") << QStringLiteral("unknown-keys") << upskill
                                         << QStringLiteral("unexpected-key") << true << 4 << 1;
        QTest::newRow("upskill-multiline")
            << QStringLiteral("multiline-yaml") << upskill << QStringLiteral("upskill-multiline") << true << 4 << 1;
        // What `generate --reply-format json` wrote before: upskill keeps the quotes and its eval stops.
        QTest::newRow("upskill-quoted-name")
            << QStringLiteral("multiline-yaml") << upskill << QStringLiteral("upskill-quoted") << true << 3 << 1;
        QTest::newRow("upskill-keys-in-agentskills")
            << QStringLiteral("upskill-style") << agent << QStringLiteral("unexpected-key") << true << 5 << 1;
    }
    void fixtures_reportTheirRule()
    {
        QFETCH(QString, folder);
        QFETCH(int, profile);
        QFETCH(QString, code);
        QFETCH(bool, error);
        QFETCH(int, line);
        QFETCH(int, column);
        const auto problems = validateSkill(fixture(folder), ValidationProfile(profile));
        const SkillProblem *problem = find(problems, code);
        QVERIFY2(problem, qPrintable(describe(problems)));
        QCOMPARE(problem->isError(), error);
        QCOMPARE(hasErrors(problems), hasErrors(problems)); // keeps the profile's errors visible in failures
        if (line >= 0) {
            QCOMPARE(problem->line, line);
            QCOMPARE(problem->column, column);
        } else {
            QVERIFY(problem->line >= 3 && problem->column >= 1);
        }
    }

    void upskillStyle_isValidUnderUpskill()
    {
        const auto problems = validateSkill(fixture(QStringLiteral("upskill-style")), ValidationProfile::Upskill);
        QVERIFY2(!hasErrors(problems), qPrintable(describe(problems)));
    }

    void upskill_missingName_isOnlyAWarning()
    {
        QTemporaryDir root;
        const auto problems =
            validateSkill(makeSkill(root, QStringLiteral("demo"), kDescription), ValidationProfile::Upskill);
        QVERIFY2(!hasErrors(problems), qPrintable(describe(problems)));
        QVERIFY(find(problems, QStringLiteral("name-missing")));
        QVERIFY(hasErrors(validateSkill(root.filePath(QStringLiteral("demo")), ValidationProfile::AgentSkills)));
    }

    void brokenLink_linkAndProseMentionWarn_backtickMentionUrlsAnchorsAndCodeBlocksIgnored()
    {
        const auto problems = validateSkill(fixture(QStringLiteral("broken-link")), ValidationProfile::AgentSkills);
        QCOMPARE(codes(problems), (QStringList{QStringLiteral("broken-link"), QStringLiteral("broken-link")}));
        QVERIFY2(!hasErrors(problems), qPrintable(describe(problems)));
        QCOMPARE(problems[1].line, 7);
        QCOMPARE(problems[1].column, 10);
        QVERIFY(problems[1].message.contains(QStringLiteral("scripts/absent.py")));
        // `references/findings.md` (line 14) is a file the reader is told to write: not reported.
    }

    void htmlImage_inAReference_resolvesFromThatFile_likeTheLinksBesideIt()
    {
        QTemporaryDir root;
        const QString dir = makeSkill(root, QStringLiteral("demo"), QStringLiteral("name: demo\n") + kDescription,
                                      QStringLiteral("\nRead [the guide](references/guide.md).\n"));
        writeText(dir, QStringLiteral("references/guide.md"),
                  QStringLiteral("See [the table](table.md).\n<img src=\"diagram.png\" width=\"300\">\n"
                                 "<img src='missing.png'>\n"));
        writeText(dir, QStringLiteral("references/table.md"), QStringLiteral("x"));
        writeText(dir, QStringLiteral("references/diagram.png"), QStringLiteral("png"));
        const auto problems = validateSkill(dir, ValidationProfile::AgentSkills);
        QCOMPARE(codes(problems).count(QStringLiteral("broken-link")), 1);
        const SkillProblem *broken = find(problems, QStringLiteral("broken-link"));
        QCOMPARE(broken->file, QStringLiteral("references/guide.md"));
        QCOMPARE(broken->line, 3);
        QCOMPARE(broken->column, 11);
        QVERIFY(broken->message.contains(QStringLiteral("'missing.png'")));
        QVERIFY(!broken->isError());
    }

    void linkOutsideSkill_isAWarning()
    {
        QTemporaryDir root;
        sf::test::writeText(root.path(), QStringLiteral("shared.md"), QStringLiteral("x"));
        const QString dir = makeSkill(root, QStringLiteral("demo"), QStringLiteral("name: demo\n") + kDescription,
                                      QStringLiteral("See [shared](../shared.md).\n"));
        const auto problems = validateSkill(dir, ValidationProfile::AgentSkills);
        QCOMPARE(codes(problems), QStringList{QStringLiteral("link-outside-skill")});
    }

    void lengthLimits_descriptionAndCompatibility()
    {
        QTemporaryDir root;
        const QString longDescription = QStringLiteral("Use when testing. ") + QString(1010, u'x');
        const QString dir = makeSkill(root, QStringLiteral("demo"),
                                      QStringLiteral("name: demo\ndescription: ") + longDescription +
                                          QStringLiteral("\ncompatibility: ") + QString(501, u'y') + u'\n');
        const auto problems = validateSkill(dir, ValidationProfile::AgentSkills);
        QVERIFY2(find(problems, QStringLiteral("description-too-long")), qPrintable(describe(problems)));
        QVERIFY(find(problems, QStringLiteral("compatibility-too-long")));
        QCOMPARE(find(problems, QStringLiteral("compatibility-too-long"))->line, 4);
    }

    void metadataNotAMap_isAnError()
    {
        QTemporaryDir root;
        const QString dir =
            makeSkill(root, QStringLiteral("demo"),
                      QStringLiteral("name: demo\n") + kDescription + QStringLiteral("metadata: just a string\n"));
        QVERIFY(find(validateSkill(dir, ValidationProfile::AgentSkills), QStringLiteral("metadata-not-map")));
    }

    void booleans_claudeCodeAndUpskill_mustBeTrueOrFalse()
    {
        QTemporaryDir root;
        const QString dir =
            makeSkill(root, QStringLiteral("demo"),
                      QStringLiteral("name: demo\n") + kDescription + QStringLiteral("user-invocable: maybe\n"));
        QVERIFY(find(validateSkill(dir, ValidationProfile::ClaudeCode), QStringLiteral("not-boolean")));
        QVERIFY(find(validateSkill(dir, ValidationProfile::Upskill), QStringLiteral("not-boolean")));
    }

    void duplicateKey_isAnError()
    {
        QTemporaryDir root;
        const QString dir =
            makeSkill(root, QStringLiteral("demo"), QStringLiteral("name: demo\n") + kDescription + kDescription);
        const auto problems = validateSkill(dir, ValidationProfile::AgentSkills);
        // yaml-cpp either rejects the duplicate or keeps both; either way it is an error at line 4 or before.
        QVERIFY2(find(problems, QStringLiteral("duplicate-key")) || find(problems, QStringLiteral("yaml-syntax")),
                 qPrintable(describe(problems)));
    }

    void longBody_warnsForLinesAndTokens()
    {
        QTemporaryDir root;
        QString body;
        for (int i = 0; i < 600; ++i)
            body += QStringLiteral("Line %1 explains one more detail of the normalization kernel.\n").arg(i);
        const QString dir =
            makeSkill(root, QStringLiteral("demo"), QStringLiteral("name: demo\n") + kDescription, body);
        const auto problems = validateSkill(dir, ValidationProfile::AgentSkills);
        QVERIFY2(!hasErrors(problems), qPrintable(describe(problems)));
        const SkillProblem *lines = find(problems, QStringLiteral("body-too-long"));
        QVERIFY(lines);
        QCOMPARE(lines->line, 5 + 500);
        QVERIFY(find(problems, QStringLiteral("body-too-many-tokens")));
    }

    void triggerCue_whenToUseKeySatisfiesIt()
    {
        QTemporaryDir root;
        const QString dir = makeSkill(root, QStringLiteral("demo"),
                                      QStringLiteral("name: demo\ndescription: Formats CSV.\n"
                                                     "when_to_use: CSV files come up.\n"));
        QVERIFY(validateSkill(dir, ValidationProfile::ClaudeCode).isEmpty());
    }

    void triggerCue_phrases_data()
    {
        QTest::addColumn<QString>("description");
        QTest::addColumn<bool>("cue");
        QTest::newRow("use-when") << QStringLiteral("Formats CSV. Use when cleaning exports.") << true;
        QTest::newRow("whenever") << QStringLiteral("Use it whenever a kernel is slow.") << true;
        QTest::newRow("for-tasks") << QStringLiteral("Helpers for CSV cleaning tasks.") << true;
        QTest::newRow("use-for") << QStringLiteral("Use this skill for PDF forms.") << true;
        QTest::newRow("none") << QStringLiteral("Formats CSV files quickly.") << false;
    }
    void triggerCue_phrases()
    {
        QFETCH(QString, description);
        QFETCH(bool, cue);
        QTemporaryDir root;
        const QString dir =
            makeSkill(root, QStringLiteral("demo"), QStringLiteral("name: demo\ndescription: ") + description + u'\n');
        QCOMPARE(!find(validateSkill(dir, ValidationProfile::AgentSkills), QStringLiteral("description-no-trigger")),
                 cue);
    }

    void liveText_replacesSkillMdOnDisk()
    {
        const QString text = QStringLiteral("---\nname: valid-basic\ndescription: Changed. Use when editing.\n---\n\n");
        const auto problems =
            validateSkill(fixture(QStringLiteral("valid-basic")), ValidationProfile::AgentSkills, text);
        QCOMPARE(codes(problems), QStringList{QStringLiteral("empty-body")});
    }

    void problems_sortedByFileThenPlace()
    {
        const auto problems = validateSkill(fixture(QStringLiteral("bad-name")), ValidationProfile::ClaudeAi);
        for (qsizetype i = 1; i < problems.size(); ++i)
            QVERIFY(problems[i - 1].line <= problems[i].line);
    }
};

SF_TEST_GUILESS_MAIN(TestSkillValidator)
#include "test_skill_validator.moc"
