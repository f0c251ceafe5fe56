#include "SkippedChecks.h"
#include "TestFiles.h"
#include "eval/TestSuite.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace sf;

namespace {

TestSuite parsed(const QByteArray &text, const QString &path = QStringLiteral("suite.json"))
{
    auto result = parseTestSuite(text, path);
    if (const LoadError *e = std::get_if<LoadError>(&result))
        qWarning().noquote() << e->toString();
    return std::get<TestSuite>(result);
}

/// The real-file shapes of issue 34 (tests/fixtures/suite/real-shapes), copied into a repository of their own: a
/// folder holding .git, with a file beside it that the search for fixtures must not reach.
struct RealShapes
{
    QTemporaryDir dir;
    QString repo;
    QString skill;

    RealShapes()
    {
        repo = dir.filePath(QStringLiteral("repo"));
        skill = repo + QStringLiteral("/skills/csv-tools");
        if (!test::copyTree(QStringLiteral(SKILLFORGE_SOURCE_DIR "/tests/fixtures/suite/real-shapes"), repo) ||
            !QDir(repo).mkpath(QStringLiteral(".git")))
            qFatal("cannot copy the fixture");
        QFile outside(dir.filePath(QStringLiteral("outside.csv")));
        if (!outside.open(QIODevice::WriteOnly))
            qFatal("cannot write outside.csv");
        outside.write("x\n");
    }
};

LoadError failure(const QByteArray &text, const QString &path = QStringLiteral("suite.json"))
{
    auto result = parseTestSuite(text, path);
    if (!std::holds_alternative<LoadError>(result))
        qFatal("expected the suite to be rejected");
    return std::get<LoadError>(result);
}

} // namespace

class TestTestSuite final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void upskillList_readsInputFilesAndExpected_withGeneratedIds()
    {
        const TestSuite s = parsed(R"([
          {"input": "Write a commit message", "expected": {"contains": "feat:"}},
          {"input": "Fix it", "context": {"files": {"src/a.py": "print 1"}}, "expected": {"contains": ["def", "return"]}}
        ])");
        QCOMPARE(s.format, TestSuite::Format::Upskill);
        QCOMPARE(s.cases.size(), 2);
        QCOMPARE(s.cases[0].id, QStringLiteral("case-1"));
        QCOMPARE(s.cases[0].expectedContains, QStringList{QStringLiteral("feat:")}); // a bare string becomes a list
        QCOMPARE(s.cases[1].files.value(QStringLiteral("src/a.py")), QStringLiteral("print 1"));
        QCOMPARE(s.cases[1].allVerifiers().size(), 1);
        QCOMPARE(s.cases[1].allVerifiers().first().type, QStringLiteral("contains"));
        QCOMPARE(s.cases[1].line, 3);
        QVERIFY(s.hash.startsWith(QStringLiteral("sha256:")));
    }

    void casesObject_withExtendedFieldsAndUpskillVerifierSpelling()
    {
        const TestSuite s = parsed(R"({"cases": [
          {"id": "k1", "input": "Write a kernel", "split": "heldout", "repeats": 3,
           "verifiers": [{"type": "command", "cmd": "make test", "config": {"timeout_seconds": 20}},
                         {"type": "regex", "pattern": "__global__\\s+void"},
                         {"type": "llm_judge", "rubric": "Uses shared memory", "model": "anthropic:claude", "threshold": 3},
                         {"type": "cuda_kernel", "task": "rmsnorm", "dtype": "bf16"}]}]})");
        const TestCase &c = s.cases.first();
        QCOMPARE(c.id, QStringLiteral("k1"));
        QVERIFY(c.isHeldOut());
        QCOMPARE(c.repeats, 3);
        QCOMPARE(c.verifiers.size(), 4);
        QCOMPARE(c.verifiers[0].command, QStringLiteral("make test"));
        QCOMPARE(c.verifiers[0].timeoutSeconds, 20);
        QCOMPARE(c.verifiers[2].judgeModel, QStringLiteral("anthropic:claude"));
        QCOMPARE(c.verifiers[2].threshold, 3);
        QCOMPARE(c.verifiers[3].dtype, QStringLiteral("bf16"));
        QCOMPARE(s.heldOutCount(), 1);
    }

    void skillCreatorEvals_becomeJudgedCases_withFilesFromTheSkillFolder()
    {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("evals/files")));
        QFile sample(dir.filePath(QStringLiteral("evals/files/data.csv")));
        QVERIFY(sample.open(QIODevice::WriteOnly));
        sample.write("a,b\n1,2\n");
        sample.close();
        const TestSuite s = parsed(R"({"skill_name": "csv-tools", "evals": [
          {"id": 1, "prompt": "Sum column b", "expected_output": "2",
           "files": ["evals/files/data.csv"], "expectations": ["The answer is 2", "It names column b"]}]})",
                                   dir.filePath(QStringLiteral("evals/evals.json")));
        QCOMPARE(s.format, TestSuite::Format::SkillCreator);
        QCOMPARE(s.skillName, QStringLiteral("csv-tools"));
        const TestCase &c = s.cases.first();
        QCOMPARE(c.id, QStringLiteral("1"));
        QCOMPARE(c.input, QStringLiteral("Sum column b"));
        QCOMPARE(c.files.value(QStringLiteral("data.csv")), QStringLiteral("a,b\n1,2\n"));
        QCOMPARE(c.verifiers.size(), 1);
        QCOMPARE(c.verifiers.first().type, QStringLiteral("llm_judge"));
        QVERIFY(c.verifiers.first().rubric.contains(QStringLiteral("It names column b")));
    }

    // The shapes real skill-creator evals come in (issue 19), each written as skill-creator and the agentskills.io
    // guide describe them: expected_output alone, "assertions" instead of "expectations", statements as objects,
    // and a bare list of evals with string ids.
    void skillCreatorEvals_withExpectedOutputOnly_areGradedAgainstIt_andNeedAJudge()
    {
        const TestSuite s = parsed(R"({"skill_name": "pdf-forms", "evals": [
          {"id": 1, "prompt": "Fill the form in form.pdf with the data in data.json",
           "expected_output": "A filled PDF whose name field reads Jane Doe", "files": []},
          {"id": 2, "prompt": "List the fields of the form", "expected_output": "The six field names, one per line"}]})",
                                   QStringLiteral("evals/evals.json"));
        QCOMPARE(s.cases.size(), 2);
        const VerifierSpec &judge = s.cases[0].verifiers.value(0);
        QCOMPARE(judge.type, QStringLiteral("llm_judge"));
        QCOMPARE(judge.name, QStringLiteral("expected_output"));
        QVERIFY(judge.rubric.contains(QStringLiteral("name field reads Jane Doe")));
        QCOMPARE(judge.line, 3);
        // Without a judge model the run is told before it starts, not item by item.
        const QString note = missingJudgeNote(s, QString(), QStringLiteral("Choose one with --judge MODEL."));
        QVERIFY2(note.startsWith(QStringLiteral("2 of the suite's 2 cases are graded by a judge model")), qPrintable(note));
        QVERIFY(note.contains(QStringLiteral("--judge")));
        QCOMPARE(missingJudgeNote(s, QStringLiteral("anthropic:claude-sonnet-4-5"), QString()), QString());
    }

    void skillCreatorEvals_assertionsAndStatementObjects_areGraded()
    {
        const TestSuite s = parsed(R"({"skill_name": "changelog", "evals": [
          {"id": "release-notes", "prompt": "Write release notes for v2.1", "assertions": [
            "Groups changes under Added, Changed and Fixed", "Mentions the breaking change first"]},
          {"id": "empty", "prompt": "Write notes for a release with no changes", "expectations": [
            {"text": "Says there are no user-facing changes"}, {"text": "Is one sentence"}]}]})");
        QCOMPARE(s.cases[0].id, QStringLiteral("release-notes"));
        QCOMPARE(s.cases[0].verifiers.value(0).name, QStringLiteral("assertions"));
        QVERIFY(s.cases[0].verifiers.value(0).rubric.contains(QStringLiteral("- Mentions the breaking change first")));
        QVERIFY(s.cases[1].verifiers.value(0).rubric.contains(QStringLiteral("- Is one sentence")));
    }

    void bareListOfSkillCreatorEvals_withStringIds_isRead()
    {
        const TestSuite s = parsed(R"([
          {"id": "TC01", "prompt": "Convert 3 km to miles", "expected_output": "About 1.86 miles"},
          {"id": "TC02", "prompt": "Convert 0 C to F", "expected_output": "32 F"}
        ])");
        QCOMPARE(s.format, TestSuite::Format::SkillCreator);
        QCOMPARE(s.cases.size(), 2);
        QCOMPARE(s.cases[1].id, QStringLiteral("TC02"));
        QCOMPARE(s.cases[1].input, QStringLiteral("Convert 0 C to F"));
        QCOMPARE(s.cases[1].verifiers.value(0).name, QStringLiteral("expected_output"));
    }

    // Issue 34: the shapes real evals.json files come in, as tests/fixtures/suite/real-shapes holds them.
    void skillCreatorFiles_asPathPurposeObjects_areRead()
    {
        RealShapes shapes;
        const auto read = readSkillTestSuite(shapes.skill);
        QVERIFY2(std::holds_alternative<TestSuite>(read),
                 qPrintable(std::get_if<LoadError>(&read) ? std::get_if<LoadError>(&read)->toString() : QString()));
        const TestSuite &s = std::get<TestSuite>(read);
        QCOMPARE(s.cases.size(), 5);
        QCOMPARE(s.cases[0].files,
                 (QMap<QString, QString>{{QStringLiteral("data.csv"), QStringLiteral("a,b\n1,2\n3,4\n")}}));
    }

    void skillCreatorFiles_aFolder_givesEveryFileUnderItsName()
    {
        RealShapes shapes;
        const TestSuite s = std::get<TestSuite>(readSkillTestSuite(shapes.skill));
        const TestCase &c = s.cases[1];
        QCOMPARE(c.files.keys(),
                 (QStringList{QStringLiteral("project/src/sum.py"), QStringLiteral("project/tests/test_sum.py")}));
        QVERIFY(c.files.value(QStringLiteral("project/tests/test_sum.py")).contains(QStringLiteral("== 6")));
    }

    void skillCreatorEval_gradedByExpect_isJudgedOnItsStatements()
    {
        RealShapes shapes;
        const TestSuite s = std::get<TestSuite>(readSkillTestSuite(shapes.skill));
        const VerifierSpec &judge = s.cases[1].verifiers.value(0);
        QCOMPARE(judge.type, QStringLiteral("llm_judge"));
        QCOMPARE(judge.name, QStringLiteral("expect"));
        QCOMPARE(judge.rubric, QStringLiteral("- tests/test_sum.py passes\n- Only src/sum.py changed"));
        // A single statement, as a string.
        QCOMPARE(s.cases[3].verifiers.value(0).rubric, QStringLiteral("- Lists what the skill can do with a CSV file"));
    }

    void skillCreatorEval_withEmptyOrMissingPrompt_isAVagueInvocation()
    {
        RealShapes shapes;
        const TestSuite s = std::get<TestSuite>(readSkillTestSuite(shapes.skill));
        QVERIFY(s.cases[2].isVagueInvocation()); // "prompt": ""
        QVERIFY(s.cases[3].isVagueInvocation()); // no prompt at all
        QVERIFY(!s.cases[0].isVagueInvocation());
        QCOMPARE(s.cases[3].studentPrompt(QStringLiteral("csv-tools")), QStringLiteral("/csv-tools"));
        QCOMPARE(s.cases[0].studentPrompt(QStringLiteral("csv-tools")), QStringLiteral("Sum column b of data.csv"));
        QVERIFY2(s.notes.contains(QStringLiteral("cases 3, 4 have no prompt: the student is sent only the skill's "
                                                 "command (\"/<skill>\"), to test the skill invoked without "
                                                 "instructions")),
                 qPrintable(s.notes.join(u'\n')));
        // upskill's own shape: an empty input is read; a missing one is still refused, saying how to write it.
        QVERIFY(parsed(R"([{"input": "", "expected": {"contains": "csv"}}])").cases.first().isVagueInvocation());
        const LoadError e = failure(R"([{"id": "a", "expected": {"contains": "csv"}}])");
        QVERIFY2(e.message.contains(QStringLiteral("write \"input\": \"\"")), qPrintable(e.message));
    }

    void fixturePathFromTheRepositoryRoot_isFoundUpTheTree_andSaysWhere()
    {
        RealShapes shapes;
        const TestSuite s = std::get<TestSuite>(readSkillTestSuite(shapes.skill));
        QCOMPARE(s.cases[4].files.value(QStringLiteral("data.csv")), QStringLiteral("a,b\n1,2\n3,4\n"));
        const QString expected = QStringLiteral("eval 5: \"skills/csv-tools/evals/files/data.csv\" is not in the skill "
                                                "folder; read %1/skills/csv-tools/evals/files/data.csv instead (the "
                                                "path is taken as relative to %1)")
                                     .arg(shapes.repo);
        QVERIFY2(s.notes.contains(expected), qPrintable(s.notes.join(u'\n')));

        // The search stops at the repository's root: a file above it is not taken.
        const LoadError e = failure(R"({"evals": [{"id": 9, "prompt": "p", "files": ["outside.csv"], "expect": "x"}]})",
                                    shapes.skill + QStringLiteral("/evals/evals.json"));
        QVERIFY2(e.message.contains(
                     QStringLiteral("eval file \"outside.csv\" is not in the skill folder (%1)").arg(shapes.skill)),
                 qPrintable(e.message));
    }

    void testCasesKey_isReadLikeCases_eachCaseInItsOwnShape()
    {
        RealShapes shapes;
        const auto read = readTestSuite(shapes.skill + QStringLiteral("/evals/test_cases.json"));
        QVERIFY2(std::holds_alternative<TestSuite>(read),
                 qPrintable(std::get_if<LoadError>(&read) ? std::get_if<LoadError>(&read)->toString() : QString()));
        const TestSuite &s = std::get<TestSuite>(read);
        QCOMPARE(s.cases.size(), 2);
        QCOMPARE(s.cases[0].input, QStringLiteral("Filter data.csv to rows where a > 1"));
        QCOMPARE(s.cases[0].verifiers.value(0).name, QStringLiteral("expect"));
        QCOMPARE(s.cases[1].expectedContains, QStringList{QStringLiteral("b")});
    }

    void skillCreatorFiles_thatCannotBeUsed_sayWhy()
    {
        RealShapes shapes;
        const QString path = shapes.skill + QStringLiteral("/evals/evals.json");
        LoadError e = failure(R"({"evals": [{"id": 1, "prompt": "p", "expect": "x",
            "files": [{"purpose": "no path"}]}]})",
                              path);
        QCOMPARE(e.line, 2);
        QVERIFY2(e.message.contains(QStringLiteral("files[0] names no file")), qPrintable(e.message));
        e = failure(R"({"evals": [{"id": 1, "prompt": "p", "expect": "x", "files": ["../../outside.csv"]}]})", path);
        QVERIFY2(e.message.contains(QStringLiteral("must be a path inside the skill folder")), qPrintable(e.message));
        // Two fixtures that would be the same file in the workspace.
        e = failure(R"({"evals": [{"id": 1, "prompt": "p", "expect": "x",
            "files": ["evals/files/data.csv", "skills/csv-tools/evals/files/data.csv"]}]})",
                    path);
        QVERIFY2(e.message.contains(QStringLiteral("would be \"data.csv\" in the workspace")), qPrintable(e.message));
        QVERIFY(QDir(shapes.skill).mkpath(QStringLiteral("evals/files/empty")));
        e = failure(R"({"evals": [{"id": 1, "prompt": "p", "expect": "x", "files": ["evals/files/empty"]}]})", path);
        QVERIFY2(e.message.contains(QStringLiteral("holds no files")), qPrintable(e.message));
    }

    void skillCreatorEval_withNothingToGrade_saysWhatToAdd()
    {
        const LoadError e = failure("{\"evals\": [\n  {\"id\": 7, \"prompt\": \"Do it\"}]}");
        QCOMPARE(e.line, 2);
        QVERIFY2(e.message.contains(QStringLiteral("eval 7 has nothing to grade")) &&
                     e.message.contains(QStringLiteral("expected_output")),
                 qPrintable(e.message));
    }

    void errors_nameTheLineOfTheOffendingCaseOrVerifier()
    {
        LoadError e = failure("[\n {\"input\": \"a\", \"expected\": {\"contains\": [\"x\"]}},\n {\"expected\": "
                              "{\"contains\": \"y\"}}\n]");
        QCOMPARE(e.file, QStringLiteral("suite.json"));
        QCOMPARE(e.line, 3);
        QVERIFY2(e.message.contains(QStringLiteral("input")), qPrintable(e.message));

        e = failure("{\"cases\": [\n  {\"input\": \"a\",\n   \"verifiers\": [\n     {\"type\": \"contains\", "
                    "\"values\": [\"x\"]},\n"
                    "     {\"type\": \"telepathy\"}]}]}");
        QCOMPARE(e.line, 5);
        QVERIFY(e.message.contains(QStringLiteral("telepathy")));

        e = failure("[{\"input\": \"a\",\n \"verifiers\": [{\"type\": \"regex\",\n \"pattern\": \"(\"}]}]");
        QCOMPARE(e.line, 2);
        QVERIFY(e.message.contains(QStringLiteral("invalid pattern")));

        e = failure("[{\"input\": \"a\", \"expected\": {\"contains\": \"x\"},\n \"split\": \"test\"}]");
        QCOMPARE(e.line, 2);

        e = failure("[{\"input\": \"a\"}]");
        QVERIFY(e.message.contains(QStringLiteral("checks nothing")));

        e = failure("[{\"id\": \"a\", \"input\": \"a\", \"expected\": {\"contains\": \"x\"}},\n"
                    " {\"id\": \"a\", \"input\": \"b\", \"expected\": {\"contains\": \"x\"}}]");
        QCOMPARE(e.line, 2);
        QVERIFY(e.message.contains(QStringLiteral("twice")));

        e = failure("[{\"input\": \"a\", \"context\": {\"files\": {\"../escape\": \"x\"}}, \"expected\": "
                    "{\"contains\": \"x\"}}]");
        QVERIFY(e.message.contains(QStringLiteral("inside the workspace")));
    }

    void brokenJson_reportsLineAndColumn()
    {
        const LoadError e = failure("[\n  {\"input\": \"a\",,}\n]");
        QCOMPARE(e.line, 2);
        QVERIFY(e.column > 0);
    }

    void write_thenRead_roundTripsEveryField()
    {
        const TestSuite original = parsed(R"({"cases": [
          {"id": "k1", "input": "Write", "split": "heldout", "repeats": 2, "notes": "kept",
           "context": {"files": {"x.cu": "int x;"}}, "expected": {"contains": ["a", "b"]},
           "verifiers": [{"type": "command", "command": "true", "timeout_seconds": 5},
                         {"type": "not_contains", "values": ["TODO"]}]}]})");
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("out.json"));
        QCOMPARE(writeTestSuite(path, original), QString());
        auto again = readTestSuite(path);
        QVERIFY(std::holds_alternative<TestSuite>(again));
        const TestCase &c = std::get<TestSuite>(again).cases.first();
        QCOMPARE(c.id, QStringLiteral("k1"));
        QCOMPARE(c.split, QStringLiteral("heldout"));
        QCOMPARE(c.repeats, 2);
        QCOMPARE(c.files, original.cases.first().files);
        QCOMPARE(c.expectedContains, original.cases.first().expectedContains);
        QCOMPARE(c.verifiers.size(), 2);
        QCOMPARE(c.verifiers[0].timeoutSeconds, 5);
        QCOMPARE(c.extra.value(QStringLiteral("notes")).toString(), QStringLiteral("kept"));
    }

    void writeUpskillOnly_leavesOutWhatUpskillForbids()
    {
        const TestSuite original = parsed(R"([{"id": "k1", "input": "Write", "split": "heldout",
            "expected": {"contains": "a"},
            "verifiers": [{"type": "command", "command": "true"}, {"type": "regex", "pattern": "x"}]}])");
        const QJsonDocument doc = QJsonDocument::fromJson(serializeTestSuite(original, true));
        const QJsonObject c = doc.object().value(QStringLiteral("cases")).toArray().first().toObject();
        QVERIFY(!c.contains(QStringLiteral("id")));
        QVERIFY(!c.contains(QStringLiteral("split")));
        const QJsonArray verifiers = c.value(QStringLiteral("verifiers")).toArray();
        QCOMPARE(verifiers.size(), 1);
        QCOMPARE(verifiers.first().toObject().value(QStringLiteral("cmd")).toString(), QStringLiteral("true"));
    }

    void skillMetaTests_areTheDefaultSuite()
    {
        QTemporaryDir dir;
        QFile meta(dir.filePath(QStringLiteral("skill_meta.json")));
        QVERIFY(meta.open(QIODevice::WriteOnly));
        meta.write(R"({"metadata": {"version": "1.0"}, "tests": [{"input": "q", "expected": {"contains": "a"}}]})");
        meta.close();
        auto suite = readSkillTestSuite(dir.path());
        QVERIFY(std::holds_alternative<TestSuite>(suite));
        QCOMPARE(std::get<TestSuite>(suite).cases.size(), 1);
        QTemporaryDir empty;
        QVERIFY(std::holds_alternative<LoadError>(readSkillTestSuite(empty.path())));
    }
};

SF_TEST_GUILESS_MAIN(TestTestSuite)
#include "test_test_suite.moc"
